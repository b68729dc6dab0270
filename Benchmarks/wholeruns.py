# SPDX-License-Identifier: Apache-2.0
"""Whole-process timing shared by the comparison scripts (document/compare.py, forms/compare.py)."""
import statistics, subprocess, time


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
