#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The store's promise tested the hard way: a consent that got 200 survives the server being killed.

Rounds of: start signature-ink-server, sign consents from four threads (each with its own submission identifier),
kill the server with SIGKILL at a random moment, start it again. At the end every consent that was answered 200 must
be in the store, once, with the record and PDF digests it was answered with, and the hash chain must verify, through
the administrator's routes and through `signature-ink-server verify-store`.

Three times: on SQLite (a store folder); on PostgreSQL (a new database); and with two servers on one PostgreSQL
database, both under load, one of them killed each round while the other goes on, and one submission in four sent to
both servers at once, which must be kept once and answered alike by both; these two take the database from the
environment (SIGNATURE_INK_DATABASE without the password, PGPASSWORD) rather than from --database. Then five
consents read through one server are withdrawn through the other: withdrawn at once on the writer, and on the reader,
which answered them from memory, once it hears PostgreSQL's notification (within 5 s).

Usage: python3 Tests/Store/crash.py SERVER_BINARY      (make test-store runs it, beside a throw-away PostgreSQL cluster)
Environment: SIGNATURE_INK_TEST_POSTGRES, the PostgreSQL server's URL (Scripts/with-postgres sets it);
CRASH_ROUNDS (default 4), CRASH_SEED (default 20261126).
"""
import base64, hashlib, http.client, json, os, random, shutil, signal, socket, subprocess, sys, tempfile, threading, time, urllib.parse, uuid

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(condition, message):
    print(("ok: " if condition else "FAILED: ") + message)
    if not condition:
        failures.append(message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sample(name):
    with open(os.path.join(root, "SampleStrokes", name)) as f:
        return f.read()


def submission(names):
    return {"submission": str(uuid.uuid4()), "decisions": [{"form": "study", "decision": "allowed"},
                                                           {"form": "newsletter", "decision": "notNow"}],
            "sharing": "investigatorOnly",
            "signers": [{"slot": "participant", "name": names, "ink": sample("long-name.json")},
                        {"slot": "investigator", "name": "Charles Babbage", "ink": sample("short-name.json")}]}


class Server:
    def __init__(self, binary, store, token_file, environment):
        self.port = free_port()
        self.process = subprocess.Popen([binary, "--port", str(self.port), *store, "--admin-token-file", token_file],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        env={**os.environ, "LOG_LEVEL": "error", **environment})
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.process.kill()
                    raise SystemExit("error: the server did not start: %s" % self.process.stderr.read().decode(errors="replace"))
                time.sleep(0.05)

    def request(self, method, path, body=None, token=None, timeout=30):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            if token:
                headers["Authorization"] = "Bearer " + token
            connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=20)


def new_postgres_database():
    """A new, empty database on the test server, and its URL."""
    server = os.environ.get("SIGNATURE_INK_TEST_POSTGRES")
    if not server:
        raise SystemExit("error: SIGNATURE_INK_TEST_POSTGRES is not set; run this under Scripts/with-postgres (make test-store does)")
    name = "crash_" + uuid.uuid4().hex
    subprocess.run(["psql", server, "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE " + name], check=True)
    return server.rsplit("/", 1)[0] + "/" + name


def scenario(title, binary, store, servers, rounds, rng, work, environment={}):
    """Signs under load on `servers` servers sharing `store`, killing one each round, then checks what was kept."""
    print("== %s ==" % title)
    token_file = os.path.join(work, "token")
    token = "crash-test-token-" + os.urandom(8).hex()
    with open(token_file, "w") as f:
        f.write(token + "\n")
    acknowledged = {}  # submission id -> (record SHA-256, PDF SHA-256)
    disagreements = []
    pairs = []  # the statuses of each submission sent to both servers at once
    lock = threading.Lock()
    running = [Server(binary, store, token_file, environment) for _ in range(servers)]

    def remember(answer):
        answer = json.loads(answer)
        digests = (hashlib.sha256(answer["record"].encode()).hexdigest(), hashlib.sha256(base64.b64decode(answer["pdf"])).hexdigest())
        with lock:
            if acknowledged.setdefault(answer["id"], digests) != digests:
                disagreements.append(answer["id"])

    def post(server, body, statuses=None):
        try:
            status, answer = server.request("POST", "/consent/sign", body)
        except (OSError, http.client.HTTPException):
            return  # the server was killed under this request: no answer, no promise
        if statuses is not None:
            statuses.append(status)
        if status == 200:
            remember(answer)

    for number in range(rounds):
        stop = threading.Event()

        def sign(thread):
            k = 0
            while not stop.is_set():
                k += 1
                body = submission("Signer %d-%d-%d" % (number, thread, k))
                if servers > 1 and k % 4 == 0:
                    # The same submission to both servers at once: one keeps it, both answer with it.
                    statuses = []
                    both = [threading.Thread(target=post, args=(server, body, statuses)) for server in running]
                    for t in both:
                        t.start()
                    for t in both:
                        t.join()
                    with lock:
                        pairs.append(statuses)
                else:
                    post(running[(thread + k) % servers], body)
        # Four clients in all, so that no server has more requests at once than its workers and queue take (two
        # workers and four waiting on two cores; a fifth would be refused with 503 before any work).
        threads = [threading.Thread(target=sign, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        time.sleep(rng.uniform(0.8, 2.5))
        victim = rng.randrange(servers)
        running[victim].kill()
        if servers > 1:
            # The other server goes on alone for a moment before the killed one comes back.
            time.sleep(rng.uniform(0.3, 1.0))
        stop.set()
        for t in threads:
            t.join()
        running[victim] = Server(binary, store, token_file, environment)
        print("round %d: server %d killed with %d consents acknowledged so far" % (number + 1, victim + 1, len(acknowledged)))

    server = running[0]
    try:
        check(len(acknowledged) >= rounds, "consents were acknowledged before the kills (%d)" % len(acknowledged))
        if servers > 1:
            answered = [p for p in pairs if len(p) == 2]
            check(answered and all(p == [200, 200] for p in answered),
                  "a submission sent to both servers at once is answered 200 by both (%d pairs, others: %s)"
                  % (len(answered), [p for p in answered if p != [200, 200]][:3]))
            check(not disagreements, "with the same consent (%d differ)" % len(disagreements))
        missing, changed = [], []
        for id, (record, pdf) in acknowledged.items():
            status, answer = server.request("GET", "/consents/" + id, token=token)
            if status != 200:
                missing.append(id)
                continue
            if hashlib.sha256(json.loads(answer)["record"].encode()).hexdigest() != record:
                changed.append(id)
            status, file = server.request("GET", "/consents/%s/pdf" % id, token=token)
            if status != 200 or hashlib.sha256(file).hexdigest() != pdf:
                changed.append(id)
        check(not missing, "every acknowledged consent is in the store after %d kills (%d missing: %s)"
              % (rounds, len(missing), missing[:3]))
        check(not changed, "each with the record and PDF it was answered with (%d differ: %s)" % (len(changed), changed[:3]))
        status, export = server.request("GET", "/events", token=token)
        events = [json.loads(line) for line in export.decode().splitlines()]
        consents = [event["id"] for event in events if event["kind"] == "consent"]
        check(status == 200 and len(consents) == len(set(consents)), "no consent is kept twice (%d kept)" % len(consents))
        check([event["sequence"] for event in events] == list(range(1, len(events) + 1)), "the events are one line, 1 to %d" % len(events))
        status, verified = server.request("GET", "/store/verify", token=token)
        verified = json.loads(verified)
        check(status == 200 and verified.get("ok") is True, "the chain verifies (%s)" % verified.get("failure"))
        if servers > 1:
            # Withdrawn through one server, each consent read first through the other (which then answers it from
            # memory): the writer shows it withdrawn at once, the other once it hears the database's notification.
            writer, reader = running
            at_once, heard, waits = 0, 0, []
            for id in sorted(acknowledged)[:5]:
                reader.request("GET", "/consents/" + id, token=token)
                status, _ = writer.request("POST", "/consents/%s/withdrawal" % id, {"reason": "crash test"},
                                           token=token)
                if status != 201:
                    continue
                withdrawn = lambda server: "withdrawal" in json.loads(server.request("GET", "/consents/" + id, token=token)[1])
                at_once += withdrawn(writer)
                started_waiting = time.monotonic()
                while not withdrawn(reader) and time.monotonic() - started_waiting < 5:
                    time.sleep(0.01)
                if withdrawn(reader):
                    heard += 1
                    waits.append(time.monotonic() - started_waiting)
            check(at_once == 5, "a withdrawal shows at once on the server that wrote it (%d of 5)" % at_once)
            check(heard == 5, "and on the other server within 5 s (%d of 5; waited %s s)"
                  % (heard, ", ".join("%.3f" % w for w in waits)))
            status, verified = server.request("GET", "/store/verify", token=token)
            verified = json.loads(verified)
            check(status == 200 and verified.get("ok") is True,
                  "the chain verifies with the withdrawals (%s)" % verified.get("failure"))
    finally:
        for server in running:
            server.stop()
    offline = subprocess.run([binary, "verify-store", *store], capture_output=True, text=True, env={**os.environ, **environment})
    check(offline.returncode == 0 and offline.stdout.startswith("ok: %d events" % verified.get("events", -1)),
          "signature-ink-server verify-store agrees (%s)" % (offline.stdout + offline.stderr).strip())


def main():
    binary = sys.argv[1]
    rounds = int(os.environ.get("CRASH_ROUNDS", "4"))
    rng = random.Random(int(os.environ.get("CRASH_SEED", "20261126")))
    work = tempfile.mkdtemp(prefix="signature-ink-crash-")
    started = time.monotonic()
    # A database that cannot be reached at start: a clear error naming it without its password, and no server.
    unreachable = subprocess.run([binary, "--port", str(free_port()), "--database", "postgres://ink:s3cret@127.0.0.1:1/consents"],
                                 capture_output=True, text=True, timeout=60)
    check(unreachable.returncode != 0 and "postgres://ink@127.0.0.1:1/consents" in unreachable.stderr
          and "s3cret" not in unreachable.stderr + unreachable.stdout,
          "a PostgreSQL server that cannot be reached stops the server at start, named without the password (%s)"
          % unreachable.stderr.strip()[-200:])
    try:
        scenario("SQLite", binary, ["--data", os.path.join(work, "store")], 1, rounds, rng, work)
        scenario("PostgreSQL", binary, ["--database", new_postgres_database()], 1, rounds, rng, work)
        # These servers take the database from the environment, the URL without its password and the password in
        # PGPASSWORD, as an operator keeps a password out of the process list.
        url = urllib.parse.urlsplit(new_postgres_database())
        check(url.password is not None, "the test server's URL has a password, which the servers below must take from PGPASSWORD")
        bare = url._replace(netloc=url.netloc.replace(":%s@" % url.password, "@")).geturl()
        scenario("two servers on one PostgreSQL database", binary, [], 2, rounds, rng, work,
                 {"SIGNATURE_INK_DATABASE": bare, "PGPASSWORD": url.password or ""})
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("the store under kill -9: %s in %.1f s" % ("ok" if not failures else "%d checks FAILED" % len(failures),
                                                      time.monotonic() - started))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
