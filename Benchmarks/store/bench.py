#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What keeping every consent costs: signings a second through POST /consent/sign with the store (SQLite, committed
with synchronous=FULL before each answer; PostgreSQL, committed with synchronous_commit=on) beside the same server with
--no-store, and reads of one consent by id (GET /consents/{id}, the record as returned at signing), with wrk on
loopback against the release server. PostgreSQL is measured when SIGNATURE_INK_TEST_POSTGRES names a server: run
the benchmark under Scripts/with-postgres for a throw-away cluster on this machine.

Signings and reads are measured with 2 connections (one a core: each connection waits for its answer, so the
store's commit latency counts in full) and with 4 (two a core: the machine busy, what the store costs in work).
Reads are of one consent again and again, as the server answers them (all but the withdrawal kept in memory after
the first), and the same with --consent-cache-mb 0 (each read decodes the consent and writes its JSON).

Each run also counts the CPU time it cost (the server's, and every PostgreSQL process's, from /proc): CPU time a
signing says what the store costs in work, which other programs on a shared machine do not change as they change
the rates; on a busy server the signings a second fall by that share.

Rounds alternate the servers so that a shared machine's noise falls on both; medians of the rounds are printed,
with each round's figures. The body is the sample study consent with two signers' ink (SampleStrokes), as the consent
page posts it, without a submission identifier, and with the first signer's name numbered in each request, so that
each request is a new consent with a PDF and a record of its own.

PostgreSQL on a machine of its own, as servers that share one database use it, is measured by giving it a core of
its own and the servers and wrk the other (taskset, from util-linux):

    taskset -c 1 Scripts/with-postgres taskset -c 0 python3 Benchmarks/store/bench.py --interleaved

Then every server, with a store or without, has one core, and the cost of the PostgreSQL store is what it costs the
server (its round trips, its waits for the commit), not PostgreSQL's own work taken from the same cores.

Usage: Scripts/with-postgres python3 Benchmarks/store/bench.py [--seconds 10] [--rounds 3] [--connections 2,4]
           [--reads-only] [--baseline OTHER-SERVER] [--interleaved]
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


def cpu_seconds(pids):
    """User and system time of the processes `pids` and of every PostgreSQL process on the machine, in seconds: the
    work a run costs, which another program on a shared machine does not change as it changes the rate."""
    return own_cpu_seconds(set(pids) | postgres_pids())


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


def signing(body_file):
    """wrk's environment for signings: the body, with the first signer's name numbered in each request (post.lua's
    UNIQUE_NAME), so that every signing is a new consent with its own PDF and record, as real ones are; a body signed
    over and over would store its PDF and record once."""
    return {"BODY_FILE": body_file, "UNIQUE_NAME": "Ada Lovelace", "UNIQUE_RUN": os.urandom(4).hex()}


def postgres_pids():
    """The PostgreSQL processes on the machine."""
    pids = set()
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and open("/proc/%s/comm" % entry).read().strip() == "postgres":
                pids.add(int(entry))
        except OSError:
            pass
    return pids


def own_cpu_seconds(pids):
    """User and system time of the processes `pids` alone, in seconds."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            stat = open("/proc/%d/stat" % pid).read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def interleaved(binary, stores, body_file, post, options):
    """Signings on every server at once, measured in short slices that take turns (each server's slices spread over the
    whole run), so that the drift of a shared machine falls on all alike. Prints, for each store, the median of its
    slices and the median of the ratios to the no-store slices next to them, and the CPU time a signing of the server
    and of PostgreSQL apart."""
    servers = [("no store", ["--no-store"], binary)] + [(name, flags, binary) for name, flags in stores.items()]
    if options.baseline:
        # SQLite's baseline in a folder of its own, so that the two servers do not share one file.
        servers += [("baseline, " + name, [f + "-baseline" if f.endswith("/store") else f for f in flags], options.baseline)
                    for name, flags in stores.items()]
    running = []
    try:
        for name, flags, server_binary in servers:
            process, port = start(server_binary, flags)
            running.append((name, process, port))
        counts = [int(c) for c in options.connections.split(",")]
        for c in counts:
            for name, process, port in running:
                wrk("http://127.0.0.1:%d/consent/sign" % port, 2, c, post, env=signing(body_file))
            slices = {name: [] for name, _, _ in running}
            for turn in range(options.rounds):
                order = running[turn % len(running):] + running[:turn % len(running)]
                for name, process, port in order:
                    postgres = postgres_pids()
                    before = (own_cpu_seconds({process.pid}), own_cpu_seconds(postgres))
                    rate, p99, statuses = wrk("http://127.0.0.1:%d/consent/sign" % port, options.seconds, c, post,
                                              env=signing(body_file))
                    answers = max(1, sum(statuses.values()))
                    server = (own_cpu_seconds({process.pid}) - before[0]) * 1000 / answers
                    database = (own_cpu_seconds(postgres) - before[1]) * 1000 / answers
                    bad = sum(n for status, n in statuses.items() if status != 200)
                    slices[name].append((turn, rate, p99, server, database, bad))
                    print("turn %d, %s, %d connections: %.1f/s, p99 %.2f ms, CPU %.2f ms (server) + %.2f ms (PostgreSQL) each%s"
                          % (turn + 1, name, c, rate, p99, server, database, ", %d answers not 200" % bad if bad else ""),
                          flush=True)
            base = {turn: rate for turn, rate, *_ in slices["no store"]}
            print("\n%d connections, medians of %d slices of %d s:" % (c, options.rounds, options.seconds))
            for name, _, _ in running:
                rows = slices[name]
                line = "  %-12s %7.1f/s   p99 %6.2f ms   CPU %6.2f ms (server) + %5.2f ms (PostgreSQL) a signing" % (
                    name, statistics.median(r[1] for r in rows), statistics.median(r[2] for r in rows),
                    statistics.median(r[3] for r in rows), statistics.median(r[4] for r in rows))
                if name != "no store":
                    ratios = [r[1] / base[r[0]] for r in rows]
                    line += "   rate against no store in the same turn: %.1f %% (median of the turns)" % (
                        100 * (statistics.median(ratios) - 1))
                bad = sum(r[5] for r in rows)
                print(line + ("   (%d answers not 200)" % bad if bad else ""))
    finally:
        for _, process, _ in running:
            stop(process)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", default="2,4", help="connection counts, each measured (default 2,4)")
    parser.add_argument("--reads-only", action="store_true", help="measure the reads only (one consent is signed first)")
    parser.add_argument("--interleaved", action="store_true",
                        help="signings only, every server running at once, in slices of --seconds that take turns "
                             "--rounds times (try --rounds 12 --seconds 3)")
    parser.add_argument("--baseline", metavar="SERVER",
                        help="another signature-ink-server binary, measured in the same rounds (labels start with 'baseline')")
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
    stores = {"SQLite": ["--data", os.path.join(work, "store")]}
    server = os.environ.get("SIGNATURE_INK_TEST_POSTGRES")
    if server:
        name = "store_bench_" + os.urandom(6).hex()
        subprocess.run(["psql", server, "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE " + name], check=True)
        stores["PostgreSQL"] = ["--database", server.rsplit("/", 1)[0] + "/" + name]
    else:
        print("SIGNATURE_INK_TEST_POSTGRES is not set: PostgreSQL is left out (run under Scripts/with-postgres)")
    counts = [int(c) for c in options.connections.split(",")]
    figures = {}  # (what, connections) -> [(rate, p99, statuses)]

    def measure(label, url, connections, **arguments):
        before = cpu_seconds({process.pid})
        result = wrk(url, options.seconds, connections, post, **arguments)
        work = (cpu_seconds({process.pid}) - before) * 1000 / max(1, sum(result[2].values()))
        figures.setdefault((label, connections), []).append(result + (work,))
        print("round %d, %s, %d connections: %.1f/s, p99 %.2f ms, %.2f ms of CPU each (server and PostgreSQL), answers %s"
              % (round + 1, label, connections, result[0], result[1], work, result[2]), flush=True)

    if options.interleaved:
        try:
            interleaved(binary, stores, body_file, post, options)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    admin = ["Authorization: Bearer " + token]
    token_flags = ["--admin-token-file", os.path.join(work, "token")]
    try:
        servers = [("", binary)] + ([("baseline, ", options.baseline)] if options.baseline else [])
        setups = ([] if options.reads_only else [("no store", ["--no-store"])]) + [
            (kind, store + token_flags) for kind, store in stores.items()]
        runs = [(prefix, server_binary, name, flags) for prefix, server_binary in servers for name, flags in setups]
        for round in range(options.rounds):
            for prefix, server_binary, name, flags in runs:
                kind = prefix + name
                process, port = start(server_binary, flags)
                try:
                    if options.reads_only:
                        # One consent to read.
                        urllib.request.urlopen(urllib.request.Request("http://127.0.0.1:%d/consent/sign" % port,
                                                                      data=open(body_file, "rb").read(),
                                                                      headers={"Content-Type": "application/json"})).read()
                    else:
                        for c in counts:
                            measure("signings, " + kind, "http://127.0.0.1:%d/consent/sign" % port, c, env=signing(body_file))
                    if name == "no store":
                        continue
                    request = urllib.request.Request("http://127.0.0.1:%d/consents?limit=1" % port,
                                                     headers={"Authorization": "Bearer " + token})
                    id = json.load(urllib.request.urlopen(request))["consents"][0]["id"]
                    for c in counts:
                        measure("reads of one consent, " + kind, "http://127.0.0.1:%d/consents/%s" % (port, id), c, headers=admin,
                                env={"METHOD": "GET"})
                finally:
                    stop(process)
                # The same reads with no answer kept in memory: each one decodes the consent and writes its JSON.
                process, port = start(server_binary, flags + ["--consent-cache-mb", "0"])
                try:
                    for c in counts:
                        measure("reads, none kept in memory, " + kind, "http://127.0.0.1:%d/consents/%s" % (port, id), c,
                                headers=admin, env={"METHOD": "GET"})
                finally:
                    stop(process)
        for kind, store in stores.items():
            kept = subprocess.run([binary, "verify-store", *store], capture_output=True, text=True)
            print("the %s store after the runs: %s" % (kind, (kept.stdout or kept.stderr).strip()))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\nmedians of %d rounds, %d s each:" % (options.rounds, options.seconds))
    for (label, c), results in figures.items():
        bad = sum(n for r in results for status, n in r[2].items() if status != 200)
        print("  %-44s %2d conn. %8.1f /s   p99 %7.2f ms   CPU %6.3f ms each%s"
              % (label, c, statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
                 statistics.median(r[3] for r in results), "   (%d answers not 200)" % bad if bad else ""))
    for c in counts if not options.reads_only else []:
        base = statistics.median(r[0] for r in figures[("signings, no store", c)])
        base_work = statistics.median(r[3] for r in figures[("signings, no store", c)])
        for kind in stores:
            stored = statistics.median(r[0] for r in figures[("signings, " + kind, c)])
            work = statistics.median(r[3] for r in figures[("signings, " + kind, c)])
            print("  %d connections: the %s store costs %.1f %% of the signings a second, %.1f %% in CPU time a signing "
                  "(the rate the machine reaches when busy falls by that)" % (c, kind, 100 * (1 - stored / base), 100 * (1 - base_work / work)))

if __name__ == "__main__":
    sys.exit(main())
