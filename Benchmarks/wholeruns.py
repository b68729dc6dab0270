# SPDX-License-Identifier: Apache-2.0
"""Whole-process timing shared by the comparison scripts (document/compare.py, forms/compare.py, peers/)."""
import os, statistics, subprocess, time


def spawn_ms(argv):
    """Wall time of one process from spawn to exit, in ms; its output is thrown away. A failure stops the script."""
    devnull = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=devnull)
    _, status = os.waitpid(pid, 0)
    elapsed = (time.perf_counter() - start) * 1e3
    if status != 0:
        raise SystemExit(f"{' '.join(argv[:4])} ... failed with status {status}")
    return elapsed


def timed(command, rounds):
    """The median wall time in milliseconds of `rounds` runs of `command`, after one uncounted run that warms the
    file cache."""
    times = []
    for _ in range(rounds + 1):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times[1:])


def bin_path(package, flags):
    """Where `swift build` puts the products of `package` built with `flags`."""
    out = subprocess.run(["swift", "build", "--show-bin-path"] + flags, cwd=package, check=True, capture_output=True,
                         text=True)
    return out.stdout.strip()
