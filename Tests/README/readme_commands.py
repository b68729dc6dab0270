#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that the Swift examples of README.md and of the DocC articles are the compiled ones (Examples/DocExamples),
and runs every shell line of its ```sh blocks, as a new user types them, in a fresh copy of the repository.

The copy holds the tracked files only (what a clone has), in an empty temporary folder. The tools the README names
are the ones `make test` has just built: `signature-ink` and `signature-ink-server` are on PATH, and
`.build/release/signature-ink` in the copy is the release build. A `make TARGET` line is checked with `make -n`:
it must exist and expand, and its work (building, testing, rendering the samples) is what `make test` itself
does. A block that starts the server (`make server`) starts the built server on a free loopback port instead, runs
the block's other lines against it, and stops it. Every other line must exit 0.

Usage: readme_commands.py BIN_DIR RELEASE_BIN_DIR
"""
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def shell_blocks(markdown):
    """The ```sh blocks, each as a list of commands (continuation lines joined, comments and blanks dropped)."""
    blocks = []
    for body in re.findall(r"^```sh\n(.*?)^```", markdown, re.S | re.M):
        commands, pending = [], ""
        for line in body.splitlines():
            if not pending and (not line.strip() or line.lstrip().startswith("#")):
                continue
            if line.endswith("\\"):
                pending += line[:-1]
                continue
            commands.append(pending + line)
            pending = ""
        blocks.append(commands)
    return blocks


def swift_blocks_missing_from(markdown, examples):
    """The README Swift blocks whose lines (less imports and blank lines) are not, in order and together, in the
    compiled examples."""
    def lines(text):
        return [l.strip() for l in text.splitlines() if l.strip() and not l.startswith("import ")]
    compiled = "\n".join(lines(examples))
    missing = []
    for body in re.findall(r"^```swift\n(.*?)^```", markdown, re.S | re.M):
        if "\n".join(lines(body)) not in compiled:
            missing.append(body.strip().splitlines()[0])
    return missing


def without_comment(command):
    """The command without a trailing `# comment` outside quotes."""
    quote = None
    for i, c in enumerate(command):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or command[i - 1] in " \t"):
            return command[:i].rstrip()
    return command.rstrip()


def fresh_copy(into):
    """The tracked files of the repository, as a clone has them."""
    files = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], check=True, capture_output=True).stdout
    for name in files.decode().split("\0"):
        if not name:
            continue
        source, target = os.path.join(ROOT, name), os.path.join(into, name)
        if not os.path.lexists(source):
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(source, target, follow_symlinks=False)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    bin_dir, release_dir = (os.path.abspath(p) for p in sys.argv[1:])
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    examples = "\n".join(open(path, encoding="utf-8").read() for path in sorted(glob.glob(os.path.join(ROOT, "Examples/DocExamples/*.swift"))))
    failures, ran = [], 0
    documents = [("README.md", readme)] + [
        (os.path.relpath(path, ROOT), open(path, encoding="utf-8").read())
        for path in sorted(glob.glob(os.path.join(ROOT, "Sources/*/*.docc/*.md")))]
    for name, text in documents:
        for first in swift_blocks_missing_from(text, examples):
            failures.append(f"{name}: the Swift block that starts '{first}' is not in Examples/DocExamples as printed")
    blocks = shell_blocks(readme)
    work = tempfile.mkdtemp(prefix="readme-")
    try:
        clone = os.path.join(work, "signature-ink")
        fresh_copy(clone)
        tools = os.path.join(work, "bin")
        os.makedirs(tools)
        for name in ("signature-ink", "signature-ink-server"):
            os.symlink(os.path.join(bin_dir, name), os.path.join(tools, name))
        os.makedirs(os.path.join(clone, ".build"))
        os.symlink(release_dir, os.path.join(clone, ".build", "release"))
        env = dict(os.environ, PATH=tools + os.pathsep + os.environ["PATH"])
        for block in blocks:
            server, port = None, None
            try:
                for raw in block:
                    command = without_comment(raw)
                    if not command:
                        continue
                    if port:
                        command = command.replace("127.0.0.1:8080", f"127.0.0.1:{port}")
                    if command == "make server":
                        port = free_port()
                        server = subprocess.Popen(
                            [os.path.join(tools, "signature-ink-server"), "--port", str(port)], cwd=clone, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                        deadline = time.monotonic() + 30
                        while True:
                            try:
                                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
                                break
                            except OSError:
                                if time.monotonic() > deadline or server.poll() is not None:
                                    raise RuntimeError("the server did not start")
                                time.sleep(0.2)
                        print(f"ok: {raw.strip()} (the built server on port {port})")
                        ran += 1
                        continue
                    make = re.fullmatch(r"make ([\w-]+)", command)
                    argv = ["make", "-n", make.group(1)] if make else ["bash", "-o", "pipefail", "-c", command]
                    result = subprocess.run(argv, cwd=clone, env=env, capture_output=True, text=True, timeout=300)
                    ran += 1
                    if result.returncode != 0:
                        failures.append(f"{raw.strip()}\n  exit {result.returncode}: {result.stderr.strip()[:2000]}")
                        print(f"FAILED: {raw.strip()}")
                    else:
                        print(f"ok: {raw.strip()}" + (" (make -n)" if make else ""))
            finally:
                if server:
                    server.send_signal(signal.SIGTERM)
                    try:
                        server.wait(timeout=20)
                    except subprocess.TimeoutExpired:
                        server.kill()
                        failures.append("the server did not stop within 20 s of SIGTERM")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("error: README line failed: " + failure, file=sys.stderr)
    print(f"README shell lines: {ran} run, {len(failures)} of them failing")
    sys.exit(1 if failures or ran == 0 else 0)


if __name__ == "__main__":
    main()
