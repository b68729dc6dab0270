#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Spark job Examples/spark/render.py on local[2], over the stroke files in this repository.

Each stroke file of Benchmarks/Fixtures/signatures, SampleStrokes, Tests/Fixtures/realink and the format fixtures of
Tests/SignatureInkFormatsTests/Fixtures (native, signature_pad, stroke lists, UIM, InkML and SVC2004) is first rendered
alone, `signature-ink render FILE -o OUT [flags]`, for each set of flags below. Then the job runs three times:

1. with `spark-submit`, as a user runs it on a cluster (the tool shipped with --files), over a JSON-lines table that gives every file two ids (a string id with
   the signature as JSON or as the file's text, and an integer id with the file's text) and adds bad lines: a bad
   signature, a damaged line, an unknown envelope member, an id of another type, a line with no id, a blank line.
   Its exit status must be 1;
2. over a Parquet table (integer ids, the files' bytes in a binary column) with --scale 0.5, and
3. over a folder of the files with --format svg --width 300 --height 150, both in this process (one JVM for the two:
   `render.main` returns the exit status the script exits with), both clean: exit status 0.

Every run must give one row per record, every input id exactly once, each image byte for byte the one the file gave
alone with the same flags and its SHA-256, and each failed record its id (when the line's id could be read) and the
tool's error. A bad flag must be refused before Spark starts, with exit status 2.

Usage: python3 Tests/Spark/run.py SIGNATURE_INK_BINARY      (make test-spark runs it with the virtual environment's
Python, which has pyspark, pyarrow and pandas)
"""
import concurrent.futures
import glob
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JOB = os.path.join(ROOT, "Examples", "spark", "render.py")
failures = []


STARTED = time.monotonic()


def check(condition, message):
    print(f"{'ok  ' if condition else 'FAIL'} {time.monotonic() - STARTED:5.1f} s  {message}", flush=True)
    if not condition:
        failures.append(message)


def corpus():
    """The stroke files the runs render, sorted: every format the tool reads, from real and sample ink."""
    patterns = ["Benchmarks/Fixtures/signatures/*.json", "SampleStrokes/*.json", "Tests/Fixtures/realink/**/*.json",
                "Tests/SignatureInkFormatsTests/Fixtures/*.inkml", "Tests/SignatureInkFormatsTests/Fixtures/*.txt"]
    files = []
    for pattern in patterns:
        files += sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True))
    # The page options recorded beside the signature_pad captures are not stroke files.
    return [f for f in files if not f.endswith(".options.json")]


def render_alone(tool, files, flags, extension, folder):
    """`signature-ink render FILE -o OUT flags` for every file: {file: bytes, or None when it failed}."""
    os.makedirs(folder, exist_ok=True)

    def one(index_file):
        index, path = index_file
        out = os.path.join(folder, f"{index:04d}.{extension}")
        done = subprocess.run([tool, "render", path, "-o", out] + flags, capture_output=True)
        if done.returncode != 0:
            return path, None
        with open(out, "rb") as f:
            return path, f.read()

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(one, enumerate(files)))


def read_output(folder):
    import pyarrow.parquet as pq

    return pq.read_table(folder).to_pylist()


def check_images(name, rows, expected_by_id, extension):
    """Each id once; each row's image (or failure) as the file rendered alone."""
    seen = {}
    for row in rows:
        seen.setdefault(row["id"], []).append(row)
    missing = [i for i in expected_by_id if i not in seen]
    repeated = [i for i, found in seen.items() if len(found) > 1]
    check(not missing, f"{name}: every input id has a row ({len(missing)} missing{': ' + repr(missing[:3]) if missing else ''})")
    check(not repeated, f"{name}: no id has two rows ({repeated[:3]})")
    wrong = []
    for record_id, reference in expected_by_id.items():
        row = seen.get(record_id, [None])[0]
        if row is None:
            continue
        if reference is None:
            if row["status"] != "failed" or not row["error"]:
                wrong.append((record_id, "rendered alone it failed; here it did not"))
        elif row["status"] != "ok":
            wrong.append((record_id, f"failed: {row['error']}"))
        elif row["image"] != reference:
            wrong.append((record_id, "image differs from the file rendered alone"))
        elif row["sha256"] != hashlib.sha256(row["image"]).hexdigest() or row["format"] != extension:
            wrong.append((record_id, f"sha256 or format wrong ({row['format']})"))
    check(not wrong, f"{name}: every image is byte for byte the file's own, with its sha256 "
                     f"({len(expected_by_id) - len(wrong)} of {len(expected_by_id)}){': ' + repr(wrong[:3]) if wrong else ''}")


def make_lines(files):
    """The JSON-lines table of run 1: its text, {id: the file it renders}, the bad lines by id with what their error
    says, and the bad lines whose id cannot be read with what theirs says."""
    lines, expected = [], {}
    for n, path in enumerate(files):
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
        as_json = None
        if "/Benchmarks/Fixtures/signatures/" in path:
            as_json = json.loads(text)
        string_id = f"{'json' if as_json is not None else 'text'}-{n:04d}"
        lines.append(json.dumps({"id": string_id, "signature": as_json if as_json is not None else text}))
        lines.append(json.dumps({"signature": text, "id": 100000 + n}))
        expected[string_id] = path
        expected[str(100000 + n)] = path
    native = json.loads(open(files[0]).read())
    backwards = json.loads(json.dumps(native))
    backwards["strokes"][0][1][2] = -5
    bad = {
        "bad-time": (json.dumps({"id": "bad-time", "signature": backwards}), "signature.strokes[0]"),
        "bad-text": (json.dumps({"id": "bad-text", "signature": "this is not a stroke file"}), "no known stroke format"),
        "bad-member": (json.dumps({"id": "bad-member", "signature": native, "signer": "Ada"}), "signer: not an envelope member"),
        "bad-cut": (json.dumps({"id": "bad-cut", "signature": native})[:300], "unexpected end of file"),
    }
    idless = [(json.dumps({"id": 2.5, "signature": native}), "id: expected a string or an integer, found the number 2.5"),
              (json.dumps(native), "no id")]
    # The bad lines go among the good ones, and a blank line, which holds no record.
    for k, (line, _) in enumerate(list(bad.values()) + idless):
        lines.insert(7 + 41 * k, line)
    lines.insert(3, "   ")
    return "\n".join(lines) + "\n", expected, bad, idless


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    tool = os.path.abspath(sys.argv[1])
    python = sys.executable
    env = {**os.environ, "PYSPARK_PYTHON": python, "PYSPARK_DRIVER_PYTHON": python,
           "PATH": os.path.dirname(python) + os.pathsep + os.environ.get("PATH", "")}
    os.environ.update(env)
    # Quiet, and quick to start: a test's jobs are too short for the JVM's optimising compiler and parallel
    # collector to pay back their start-up (about 10 s of 38 s for run 1 here).
    quiet = ["--conf", "spark.ui.showConsoleProgress=false", "--conf", "spark.ui.enabled=false",
             "--conf", "spark.log.level=ERROR",
             "--driver-java-options", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"]
    os.environ["PYSPARK_SUBMIT_ARGS"] = " ".join(
        ["--master", "local[2]"] + [f'"{a}"' if " " in a else a for a in quiet] + ["pyspark-shell"])
    work = tempfile.mkdtemp(prefix="spark-test-")
    try:
        files = corpus()
        check(len(files) >= 200, f"the corpus has {len(files)} stroke files in every format")

        # Bad flags are refused before Spark starts: by the job, and by the tool on the driver.
        for flags, said in ((["--scale", "0"], "--scale must be > 0"), (["--scale", "100"], "--scale 100 is outside (0, 16]")):
            done = subprocess.run([python, JOB, os.path.join(work, "none"), os.path.join(work, "none-out"),
                                   "--tool", tool] + flags, capture_output=True, text=True, env=env)
            check(done.returncode == 2 and said in done.stderr,
                  f"{' '.join(flags)} is refused with exit status 2 before Spark starts ({done.returncode}: {done.stderr.strip()[-120:]})")

        # Run 1 with spark-submit, in the background; meanwhile the files render alone, and runs 2 and 3 go on here.
        table, expected, bad, idless = make_lines(files)
        with open(os.path.join(work, "lines.jsonl"), "w") as f:
            f.write(table)
        spark_submit = os.path.join(os.path.dirname(python), "spark-submit")
        out1 = os.path.join(work, "out-lines")
        # The tool shipped to the executors with --files, as on a cluster, and named without a path.
        run1 = subprocess.Popen([spark_submit, "--master", "local[2]", "--files", tool] + quiet +
                                [JOB, os.path.join(work, "lines.jsonl"), out1, "--tool", os.path.basename(tool)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        svg = ["--width", "300", "--height", "150"]
        references = render_alone(tool, files, [], "png", os.path.join(work, "alone-png"))
        half = render_alone(tool, files, ["--scale", "0.5"], "png", os.path.join(work, "alone-half"))
        vector = render_alone(tool, files, ["--format", "svg"] + svg, "svg", os.path.join(work, "alone-svg"))

        # Runs 2 and 3 in this process, clean: only the files that render alone.
        good = [f for f in files if references[f] is not None]
        check(len(good) >= 200, f"{len(good)} of the files render alone, the clean runs' input")
        import pyarrow as pa
        import pyarrow.parquet as pq

        spec = importlib.util.spec_from_file_location("render_job", JOB)
        job = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(job)

        ids = list(range(1, len(good) + 1))
        signatures = [open(f, "rb").read() for f in good]
        table2 = os.path.join(work, "table.parquet")
        pq.write_table(pa.table({"id": pa.array(ids, pa.int64()), "signature": pa.array(signatures, pa.binary())}),
                       table2)
        out2 = os.path.join(work, "out-table")
        status2 = job.main([table2, out2, "--tool", tool, "--scale", "0.5", "--partitions", "3"])
        check(status2 == 0, f"run 2 (Parquet, --scale 0.5): exit status 0 ({status2})")
        check_images("run 2", read_output(out2), {i: half[f] for i, f in zip(ids, good)}, "png")

        folder = os.path.join(work, "files")
        by_id = {}
        for n, path in enumerate(good):
            copy = os.path.join(folder, "even" if n % 2 == 0 else "odd/deeper", f"{n:04d}-{os.path.basename(path)}")
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            shutil.copyfile(path, copy)
            by_id["file:" + copy] = vector[path]
        out3 = os.path.join(work, "out-files")
        status3 = job.main([folder, out3, "--tool", tool, "--format", "svg"] + svg)
        check(status3 == 0, f"run 3 (a folder of files, --format svg {' '.join(svg)}): exit status 0 ({status3})")
        check_images("run 3", read_output(out3), by_id, "svg")

        # spark-submit hands the driver's standard error on to its standard output.
        run1_output = "\n".join(run1.communicate())
        said = ([line for line in run1_output.splitlines() if line.startswith("render.py:")] or ["no summary"])[-1]
        check(run1.returncode == 1, f"run 1 (spark-submit, JSON lines with bad lines): exit status 1 "
                                    f"({run1.returncode}: {said})")
        rows = read_output(out1) if os.path.isdir(out1) else []
        records = len(table.splitlines()) - 1
        check(len(rows) == records, f"run 1: one row per non-blank line ({len(rows)} rows for {records} lines)")
        check_images("run 1", [r for r in rows if r["id"] not in bad and r["id"] is not None],
                     {record_id: references[path] for record_id, path in expected.items()}, "png")
        for record_id, (_, said) in bad.items():
            found = [r for r in rows if r["id"] == record_id]
            check(len(found) == 1 and found[0]["status"] == "failed" and said in (found[0]["error"] or ""),
                  f"run 1: the bad line {record_id} failed with its id and the error '{said}' "
                  f"({[(r['status'], r['error']) for r in found]})")
        anonymous = sorted(r["error"] or "" for r in rows if r["id"] is None)
        check(len(anonymous) == len(idless) and all(any(said in e for e in anonymous) for _, said in idless),
              f"run 1: the lines whose id cannot be read failed without one, saying why ({anonymous})")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"Spark job checks took {time.monotonic() - STARTED:.0f} s")
    if failures:
        print(f"{len(failures)} check(s) did not hold:")
        for failure in failures:
            print("  " + failure)
        sys.exit(1)


if __name__ == "__main__":
    main()
