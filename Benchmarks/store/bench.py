#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What keeping every consent costs: signings a second through POST /consent/sign with the store (SQLite, committed
with synchronous=FULL before each answer) beside the same server with --no-store, and reads of one consent by id
(GET /consents/{id}, the record as returned at signing), with wrk on loopback against the release server.

Rounds alternate the two servers so that a shared machine's noise falls on both; medians of the rounds are printed,
with each round's figures. The body is the sample study consent with two signers' ink (SampleStrokes), as the consent
page posts it, without a submission identifier, so that each request is a new consent.

Usage: python3 Benchmarks/store/bench.py [--seconds 10] [--rounds 3] [--connections 2]
       (builds the release server first; make bench-store)
"""
import argparse, json, os, re, shutil, signal, socket, statistics, subprocess, sys, tempfile, time, urllib.request

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(binary, flags):
    port = free_port()
    process = subprocess.Popen([binary, "--port", str(port), *flags], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env={**os.environ, "LOG_LEVEL": "error"})
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, port
        except OSError:
            time.sleep(0.05)
    raise SystemExit("error: the server did not start")


def stop(process):
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)


def wrk(url, seconds, connections, script=None, headers=(), env=None):
    command = ["wrk", "-t2", "-c%d" % connections, "-d%ds" % seconds, "--latency"]
    for header in headers:
        command += ["-H", header]
    if script:
        command += ["-s", script]
    output = subprocess.run(command + [url], capture_output=True, text=True, env={**os.environ, **(env or {})}).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p99 = re.search(r"\s99%\s+([\d.]+)(us|ms|s)\b", output)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    statuses = dict((int(s), int(n)) for s, n in re.findall(r"HTTP (\d+): (\d+) answers", output))
    return rate, float(p99.group(1)) * scale, statuses


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=2)
    options = parser.parse_args()
    subprocess.run(["swift", "build", "-c", "release", "--product", "signature-ink-server"], cwd=root, check=True,
                   stdout=subprocess.DEVNULL)
    binary = os.path.join(subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=root, check=True,
                                         capture_output=True, text=True).stdout.strip(), "signature-ink-server")
    work = tempfile.mkdtemp(prefix="signature-ink-store-bench-")
    token = "store-bench-token-" + os.urandom(8).hex()
    with open(os.path.join(work, "token"), "w") as f:
        f.write(token + "\n")
    ink = lambda name: open(os.path.join(root, "SampleStrokes", name)).read()
    body = {"decisions": [{"form": "study", "decision": "allowed"}, {"form": "newsletter", "decision": "notNow"}],
            "sharing": "investigatorOnly",
            "signers": [{"slot": "participant", "name": "Ada Lovelace", "ink": ink("long-name.json")},
                        {"slot": "investigator", "name": "Charles Babbage", "ink": ink("short-name.json")}]}
    body_file = os.path.join(work, "submission.json")
    with open(body_file, "w") as f:
        json.dump(body, f)
    post = os.path.join(root, "Benchmarks", "server", "post.lua")
    figures = {"no store": [], "SQLite store": [], "read one consent": []}
    try:
        for round in range(options.rounds):
            for name, flags in [("no store", ["--no-store"]),
                                ("SQLite store", ["--data", os.path.join(work, "store"), "--admin-token-file", os.path.join(work, "token")])]:
                process, port = start(binary, flags)
                try:
                    result = wrk("http://127.0.0.1:%d/consent/sign" % port, options.seconds, options.connections, post,
                                 env={"BODY_FILE": body_file})
                    figures[name].append(result)
                    print("round %d, %s: %.1f signings/s, p99 %.1f ms, answers %s" % (round + 1, name, *result), flush=True)
                    if name == "SQLite store":
                        request = urllib.request.Request("http://127.0.0.1:%d/consents?limit=1" % port,
                                                         headers={"Authorization": "Bearer " + token})
                        id = json.load(urllib.request.urlopen(request))["consents"][0]["id"]
                        result = wrk("http://127.0.0.1:%d/consents/%s" % (port, id), options.seconds, options.connections,
                                     post, headers=["Authorization: Bearer " + token], env={"METHOD": "GET"})
                        figures["read one consent"].append(result)
                        print("round %d, read one consent: %.1f reads/s, p99 %.2f ms, answers %s" % (round + 1, *result), flush=True)
                finally:
                    stop(process)
        kept = subprocess.run([binary, "verify-store", "--data", os.path.join(work, "store")], capture_output=True, text=True)
        print("the store after the runs: " + (kept.stdout or kept.stderr).strip())
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\nmedians of %d rounds, %d s each, %d connections:" % (options.rounds, options.seconds, options.connections))
    for name, results in figures.items():
        print("  %-18s %8.1f /s   p99 %7.2f ms" % (name, statistics.median(r[0] for r in results),
                                                  statistics.median(r[1] for r in results)))
    base, stored = statistics.median(r[0] for r in figures["no store"]), statistics.median(r[0] for r in figures["SQLite store"])
    print("  the store costs %.1f %% of the signings a second" % (100 * (1 - stored / base)))


if __name__ == "__main__":
    sys.exit(main())
