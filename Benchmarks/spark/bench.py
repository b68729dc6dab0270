#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Spark job against the tool alone on one machine: N signatures (default 10,000), local[2] against --jobs 2.

Variants, run in turn in every round so that the shared machine's load falls on all of them alike:

    cli-files     signature-ink render DIR --out-dir OUT --jobs 2 --quiet          (the tool over the files)
    cli-ndjson    signature-ink render --ndjson --jobs 2 --quiet < LINES > RESULTS  (the envelopes the job sends)
    spark-files   spark-submit --master local[2] Examples/spark/render.py DIR OUT.parquet --tool signature-ink
    spark-start   spark-submit of a session started and stopped, nothing run: the JVM, Spark and the Python driver
    spark-scan    spark-submit reading the files in the JVM alone (the sum of their lengths): listing and reading
    spark-read    spark-submit reading the files into a mapInArrow that returns their sizes, written as Parquet: the
                  job without the tool and without images (reading, the Python workers, the Arrow hand-off)
    spark-pipe    the job's work done the other way, with RDD.pipe (rows pickled to a Python worker, the tool's lines
                  parsed there, back through createDataFrame), with the same partitions, ids and Parquet output

Each time is the wall time of the whole command, and CPU time its user plus system time with every process it
waited for. In spark-files the tool runs behind a wrapper that logs each tool process's wall and CPU time, so the
rendering's share is measured, not inferred. Inputs are the 158 files of Benchmarks/Fixtures/signatures cycled,
under a temporary folder (TMPDIR chooses the disk), removed at the end.

    make release && make test-spark        # the binary, and the virtual environment with PySpark
    .build/spark-venv/bin/python Benchmarks/spark/bench.py [--count 10000] [--rounds 3] [--tool PATH] [--no-pipe]
        [--only VARIANT ...]
"""
import argparse
import glob
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JOB = os.path.join(ROOT, "Examples", "spark", "render.py")

START_ONLY = """
from pyspark.sql import SparkSession
SparkSession.builder.getOrCreate().stop()
"""

# The folder read as the job reads it: small files' partitions merged down to four a core.
READ_FILES = """
import sys
from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
files = spark.read.format("binaryFile").option("recursiveFileLookup", "true").load(sys.argv[1])
most = 4 * spark.sparkContext.defaultParallelism
if files.rdd.getNumPartitions() > most:
    files = files.coalesce(most)
"""

SCAN_ONLY = READ_FILES + """
files.selectExpr("sum(length(content)) AS bytes").write.parquet(sys.argv[2])
spark.stop()
"""

READ_ONLY = READ_FILES + """
import pyarrow as pa
def sizes(batches):
    for batch in batches:
        yield pa.RecordBatch.from_pydict({"id": batch.column(0).to_pylist(),
                                          "bytes": [len(c) for c in batch.column(3).to_pylist()]})
files.mapInArrow(sizes, "id string, bytes long").write.parquet(sys.argv[2])
spark.stop()
"""

PIPE = READ_FILES + """
import base64, json, shlex
def line(row):
    return json.dumps({"id": row.path, "signature": bytes(row.content).decode("utf-8")}, separators=(",", ":"))
def row(text):
    r = json.loads(text)
    data = r.get("data")
    return (r.get("id"), r["status"], r.get("format"), base64.b64decode(data) if data else None, r.get("sha256"),
            r.get("error"))
results = files.select("path", "content").rdd.map(line).pipe(
    shlex.join([sys.argv[3], "render", "--ndjson", "--quiet", "--jobs", "1", "--format", "png"])).map(row)
spark.createDataFrame(results, "id string, status string, format string, image binary, sha256 string, error string") \
    .write.parquet(sys.argv[2])
spark.stop()
"""

# Runs the tool and appends its wall, user and system seconds to $TOOL_LOG (bash's `time`; the tool's own standard
# error goes where the wrapper's went).
WRAPPER = """#!/bin/bash
TIMEFORMAT='%R %U %S'
exec 3>&2
{ time "$REAL_TOOL" "$@" 2>&3; } 2>> "$TOOL_LOG"
"""


def timed(command, env=None, stdin=None, stdout=None):
    """Wall and CPU seconds of a command (CPU: user and system of every process it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(command, env=env, stdin=stdin, stdout=stdout or subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build", "release", "signature-ink"))
    parser.add_argument("--no-pipe", dest="pipe", action="store_false", help="leave out the RDD.pipe variant")
    parser.add_argument("--only", nargs="+", metavar="VARIANT",
                        help="run only these variants (the summary then leaves out what it cannot work out)")
    options = parser.parse_args()
    tool = os.path.abspath(options.tool)
    python = sys.executable
    spark_submit = os.path.join(os.path.dirname(python), "spark-submit")
    env = {**os.environ, "PYSPARK_PYTHON": python, "PYSPARK_DRIVER_PYTHON": python}
    submit = [spark_submit, "--master", "local[2]", "--conf", "spark.ui.showConsoleProgress=false",
              "--conf", "spark.log.level=WARN"]

    work = tempfile.mkdtemp(prefix="spark-bench-")
    try:
        fixtures = sorted(glob.glob(os.path.join(ROOT, "Benchmarks", "Fixtures", "signatures", "*.json")))
        texts = [open(f).read() for f in fixtures]
        folder = os.path.join(work, "in")
        os.makedirs(folder)
        with open(os.path.join(work, "lines.ndjson"), "w") as lines:
            for i in range(options.count):
                text = texts[i % len(texts)]
                with open(os.path.join(folder, f"sig-{i:05d}.json"), "w") as f:
                    f.write(text)
                lines.write(json.dumps({"id": i, "signature": text}, separators=(",", ":")) + "\n")
        for name, body in (("start.py", START_ONLY), ("scan.py", SCAN_ONLY), ("read.py", READ_ONLY), ("pipe.py", PIPE), ("tool.sh", WRAPPER)):
            with open(os.path.join(work, name), "w") as f:
                f.write(body)
        os.chmod(os.path.join(work, "tool.sh"), 0o755)
        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; {options.count} signatures; "
              f"tool {tool}", flush=True)

        def commands(run):
            """Each variant's command and its environment, for one round writing under `run`."""
            tool_env = {**env, "REAL_TOOL": tool, "TOOL_LOG": f"{run}/tool.log"}
            return {
                "cli-files": ([tool, "render", folder, "--out-dir", f"{run}/cli", "--jobs", "2", "--quiet"], None),
                "cli-ndjson": ([tool, "render", "--ndjson", "--jobs", "2", "--quiet"], None),
                "spark-files": (submit + [JOB, folder, f"{run}/spark.parquet", "--tool", f"{work}/tool.sh"], tool_env),
                "spark-start": (submit + [f"{work}/start.py"], env),
                "spark-scan": (submit + [f"{work}/scan.py", folder, f"{run}/scan.parquet"], env),
                "spark-read": (submit + [f"{work}/read.py", folder, f"{run}/read.parquet"], env),
                "spark-pipe": (submit + [f"{work}/pipe.py", folder, f"{run}/pipe.parquet", tool], env),
            }

        chosen = options.only or [n for n in commands(work) if options.pipe or n != "spark-pipe"]
        results = {}
        tools = []
        for round_number in range(1, options.rounds + 1):
            run = f"{work}/r{round_number}"
            os.makedirs(run)
            measured = {}
            for name, (command, variant_env) in commands(run).items():
                if name not in chosen:
                    continue
                if name == "cli-ndjson":
                    with open(os.path.join(work, "lines.ndjson")) as stdin, open(f"{run}/cli.ndjson", "w") as stdout:
                        measured[name] = timed(command, stdin=stdin, stdout=stdout)
                    lines = sum(1 for _ in open(f"{run}/cli.ndjson"))
                    if lines != options.count:
                        sys.exit(f"cli-ndjson gave {lines} results for {options.count} lines")
                else:
                    measured[name] = timed(command, env=variant_env)
                if measured[name][2].returncode != 0:
                    sys.exit(f"{name} exited with {measured[name][2].returncode}: {measured[name][2].stderr[-2000:]}")
                results.setdefault(name, []).append(measured[name][:2])
            summary = ", ".join(f"{n} {w:.2f} s ({c:.2f} s CPU)" for n, (w, c, _) in measured.items())
            if "spark-files" in measured:
                entries = [[float(x) for x in line.split()] for line in open(f"{run}/tool.log")]
                tools.append((len(entries), sum(e[0] for e in entries), sum(e[1] + e[2] for e in entries)))
                summary += f"; tool processes: {tools[-1][0]}, {tools[-1][1]:.2f} s wall in all, {tools[-1][2]:.2f} s CPU"
            print(f"round {round_number}: {summary}", flush=True)
            # Each round's outputs stay until the end: on ext4, creating files just after deleting as many makes each
            # creation scan the freed inodes (see Benchmarks/batch/batch.sh), which would slow the next cli-files.

        median = {name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
                  for name, runs in results.items()}
        print("\nmedians of", options.rounds, "rounds (wall, CPU):")
        for name, (wall, cpu) in median.items():
            print(f"  {name:12} {wall:7.2f} s  {cpu:7.2f} s CPU  {wall * 1e3 / options.count:6.3f} ms a signature")
        spark = median.get("spark-files")
        for other in ("cli-files", "cli-ndjson", "spark-pipe"):
            if spark and other in median:
                print(f"spark-files / {other}: {spark[0] / median[other][0]:.2f} x the wall time, "
                      f"{spark[1] / median[other][1]:.2f} x the CPU")
        if all(n in median for n in ("spark-files", "spark-start", "spark-scan", "spark-read", "cli-ndjson")):
            start, scan, read, ndjson = (median[n] for n in ("spark-start", "spark-scan", "spark-read", "cli-ndjson"))
            tool_wall = statistics.median(t[1] for t in tools)
            tool_cpu = statistics.median(t[2] for t in tools)
            print("where the Spark job's wall time goes (medians):")
            print(f"  JVM, Spark and Python driver start and stop (spark-start): {start[0]:.2f} s")
            print(f"  listing and reading the files in the JVM (spark-scan - spark-start): {scan[0] - start[0]:.2f} s")
            print(f"  Python workers and the Arrow hand-off of the files (spark-read - spark-scan): "
                  f"{read[0] - scan[0]:.2f} s")
            print(f"  the tool, the pipe, JSON and base64, images into Parquet (spark-files - spark-read): "
                  f"{spark[0] - read[0]:.2f} s; the tool processes ran {tool_wall:.2f} s in all "
                  f"({tool_wall / 2:.2f} s on each of 2 cores) using {tool_cpu:.2f} s CPU "
                  f"(cli-ndjson: {ndjson[0]:.2f} s, {ndjson[1]:.2f} s CPU)")
            print(f"  CPU outside the tool: {spark[1] - tool_cpu:.2f} s (JVM and Python), against {tool_cpu:.2f} s in it")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
