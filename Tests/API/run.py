#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""schemathesis against a running signature-ink-server, from the description it serves at /openapi.yaml.

Starts the server on a free port of 127.0.0.1, runs `schemathesis run --checks all` with Tests/API/schemathesis.toml
and a bounded number of cases per operation, checks that the server is still up afterwards, and stops it with
SIGTERM. The exit status is schemathesis's, or 1 when the server did not start or did not survive.

Usage: python3 Tests/API/run.py SERVER_BINARY SCHEMATHESIS_BINARY      (make test-api runs it)
Environment: API_EXAMPLES (cases per operation, default 25), API_SEED (default a fixed seed, so that a run repeats;
schemathesis prints the seed it used).
"""
import os, shutil, signal, socket, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    server, schemathesis = sys.argv[1], os.path.abspath(sys.argv[2])
    # schemathesis keeps its state (.schemathesis/) in its working folder: a scratch folder under .build/.
    work = os.path.join(root, ".build", "api-test")
    os.makedirs(work, exist_ok=True)
    port = free_port()
    started = time.monotonic()
    log = open(os.path.join(work, "server.log"), "wb")
    # A new store for each run, and the administrator's token, which every request carries, so that the store's
    # routes are exercised too (schemathesis's ignored_auth check sends them without it and expects 401).
    data = tempfile.mkdtemp(prefix="signature-ink-api-")
    token = "api-test-token-" + os.urandom(8).hex()
    with open(os.path.join(data, "token"), "w") as f:
        f.write(token + "\n")
    process = subprocess.Popen([server, "--host", "127.0.0.1", "--port", str(port), "--data", os.path.join(data, "store"),
                                "--admin-token-file", os.path.join(data, "token")], stdout=log, stderr=log)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            print("error: signature-ink-server did not start on port %d (log: %s)" % (port, log.name), file=sys.stderr)
            return 1
        command = [schemathesis, "--no-color", "--config-file", os.path.join(here, "schemathesis.toml"), "run",
                   "http://127.0.0.1:%d/openapi.yaml" % port, "--checks", "all",
                   "--max-examples", os.environ.get("API_EXAMPLES", "25"), "--seed", os.environ.get("API_SEED", "20261125"),
                   "--generation-database", "none", "--header", "Authorization: Bearer " + token]
        status = subprocess.run(command, cwd=work).returncode
        if process.poll() is not None:
            print("error: signature-ink-server exited during the run (status %s; log: %s)" % (process.returncode, log.name),
                  file=sys.stderr)
            status = 1
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(data, ignore_errors=True)
    print("schemathesis against signature-ink-server: %s in %.1f s" % ("no issues" if status == 0 else "FAILED",
                                                                       time.monotonic() - started))
    return status


if __name__ == "__main__":
    sys.exit(main())
