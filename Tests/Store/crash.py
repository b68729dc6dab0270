#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The store's promise tested the hard way: a consent that got 200 survives the server being killed.

Rounds of: start signature-ink-server on a store folder, sign consents from four threads (each with its own
submission identifier), kill the server with SIGKILL at a random moment, start it again. At the end every consent
that was answered 200 must be in the store, once, with the record and PDF digests it was answered with, and the hash
chain must verify, through the administrator's routes and through `signature-ink-server verify-store`.

Usage: python3 Tests/Store/crash.py SERVER_BINARY      (make test-store runs it)
Environment: CRASH_ROUNDS (default 4), CRASH_SEED (default 20261126).
"""
import base64, hashlib, http.client, json, os, random, shutil, signal, socket, subprocess, sys, tempfile, threading, time, uuid

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
    def __init__(self, binary, data, token_file):
        self.port = free_port()
        self.process = subprocess.Popen([binary, "--port", str(self.port), "--data", data, "--admin-token-file", token_file],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "LOG_LEVEL": "error"})
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise SystemExit("error: the server did not start")
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


def main():
    binary = sys.argv[1]
    rounds = int(os.environ.get("CRASH_ROUNDS", "4"))
    rng = random.Random(int(os.environ.get("CRASH_SEED", "20261126")))
    work = tempfile.mkdtemp(prefix="signature-ink-crash-")
    data, token_file = os.path.join(work, "store"), os.path.join(work, "token")
    token = "crash-test-token-" + os.urandom(8).hex()
    with open(token_file, "w") as f:
        f.write(token + "\n")
    acknowledged = {}  # submission id -> (record SHA-256, PDF SHA-256)
    lock = threading.Lock()
    started = time.monotonic()
    try:
        for number in range(rounds):
            server = Server(binary, data, token_file)
            stop = threading.Event()

            def sign(thread):
                while not stop.is_set():
                    body = submission("Signer %d-%d" % (number, thread))
                    try:
                        status, answer = server.request("POST", "/consent/sign", body)
                    except (OSError, http.client.HTTPException):
                        continue  # the server was killed under this request: no answer, no promise
                    if status == 200:
                        answer = json.loads(answer)
                        with lock:
                            acknowledged[answer["id"]] = (hashlib.sha256(answer["record"].encode()).hexdigest(),
                                                          hashlib.sha256(base64.b64decode(answer["pdf"])).hexdigest())
            threads = [threading.Thread(target=sign, args=(k,)) for k in range(4)]
            for t in threads:
                t.start()
            time.sleep(rng.uniform(0.8, 2.5))
            server.process.send_signal(signal.SIGKILL)
            server.process.wait()
            stop.set()
            for t in threads:
                t.join()
            print("round %d: killed with %d consents acknowledged so far" % (number + 1, len(acknowledged)))

        server = Server(binary, data, token_file)
        try:
            check(len(acknowledged) >= rounds, "consents were acknowledged before the kills (%d)" % len(acknowledged))
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
            consents = [json.loads(line)["id"] for line in export.decode().splitlines() if json.loads(line)["kind"] == "consent"]
            check(status == 200 and len(consents) == len(set(consents)), "no consent is kept twice (%d kept)" % len(consents))
            status, verified = server.request("GET", "/store/verify", token=token)
            verified = json.loads(verified)
            check(status == 200 and verified.get("ok") is True, "the chain verifies (%s)" % verified.get("failure"))
        finally:
            server.process.send_signal(signal.SIGTERM)
            server.process.wait(timeout=20)
        offline = subprocess.run([binary, "verify-store", "--data", data], capture_output=True, text=True)
        check(offline.returncode == 0 and offline.stdout.startswith("ok: %d events" % verified.get("events", -1)),
              "signature-ink-server verify-store agrees (%s)" % (offline.stdout + offline.stderr).strip())
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("the store under kill -9: %s in %.1f s" % ("ok" if not failures else "%d checks FAILED" % len(failures),
                                                      time.monotonic() - started))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
