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

SCAN_ONLY = """
import sys
from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
files = spark.read.format("binaryFile").option("recursiveFileLookup", "true").load(sys.argv[1])
most = 4 * spark.sparkContext.defaultParallelism
if files.rdd.getNumPartitions() > most:
    files = files.coalesce(most)
files.selectExpr("sum(length(content)) AS bytes").write.parquet(sys.argv[2])
spark.stop()
"""

READ_ONLY = """
import sys
import pyarrow as pa
from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
files = spark.read.format("binaryFile").option("recursiveFileLookup", "true").load(sys.argv[1])
most = 4 * spark.sparkContext.defaultParallelism
if files.rdd.getNumPartitions() > most:
    files = files.coalesce(most)
def sizes(batches):
    for batch in batches:
        yield pa.RecordBatch.from_pydict({"id": batch.column(0).to_pylist(),
                                          "bytes": [len(c) for c in batch.column(3).to_pylist()]})
files.mapInArrow(sizes, "id string, bytes long").write.parquet(sys.argv[2])
spark.stop()
"""

PIPE = """
import base64, json, shlex, sys
from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
files = spark.read.format("binaryFile").option("recursiveFileLookup", "true").load(sys.argv[1])
most = 4 * spark.sparkContext.defaultParallelism
if files.rdd.getNumPartitions() > most:
    files = files.coalesce(most)
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

        results = {}
        tools = []
        for round_number in range(1, options.rounds + 1):
            run = f"{work}/r{round_number}"
            os.makedirs(run)
            measured = {}
            measured["cli-files"] = timed([tool, "render", folder, "--out-dir", f"{run}/cli", "--jobs", "2", "--quiet"])
            with open(os.path.join(work, "lines.ndjson")) as stdin, open(f"{run}/cli.ndjson", "w") as stdout:
                measured["cli-ndjson"] = timed([tool, "render", "--ndjson", "--jobs", "2", "--quiet"], stdin=stdin,
                                               stdout=stdout)
            log = f"{run}/tool.log"
            tool_env = {**env, "REAL_TOOL": tool, "TOOL_LOG": log}
            measured["spark-files"] = timed(submit + [JOB, folder, f"{run}/spark.parquet", "--tool",
                                                      f"{work}/tool.sh"], env=tool_env)
            measured["spark-start"] = timed(submit + [f"{work}/start.py"], env=env)
            measured["spark-scan"] = timed(submit + [f"{work}/scan.py", folder, f"{run}/scan.parquet"], env=env)
            measured["spark-read"] = timed(submit + [f"{work}/read.py", folder, f"{run}/read.parquet"], env=env)
            if options.pipe:
                measured["spark-pipe"] = timed(submit + [f"{work}/pipe.py", folder, f"{run}/pipe.parquet", tool],
                                               env=env)
            for name, (wall, cpu, done) in measured.items():
                if done.returncode != 0:
                    sys.exit(f"{name} exited with {done.returncode}: {done.stderr[-2000:]}")
                results.setdefault(name, []).append((wall, cpu))
            entries = [[float(x) for x in line.split()] for line in open(log)]
            tool_wall = sum(e[0] for e in entries)
            tool_cpu = sum(e[1] + e[2] for e in entries)
            tools.append((len(entries), tool_wall, tool_cpu))
            rows = sum(1 for _ in open(f"{run}/cli.ndjson"))
            print(f"round {round_number}: " + ", ".join(f"{n} {w:.2f} s ({c:.2f} s CPU)" for n, (w, c, _) in
                                                         measured.items())
                  + f"; tool processes: {len(entries)}, {tool_wall:.2f} s wall in all, {tool_cpu:.2f} s CPU; "
                    f"ndjson results: {rows}", flush=True)
            # Each round's outputs stay until the end: on ext4, creating files just after deleting as many makes each
            # creation scan the freed inodes (see Benchmarks/batch/batch.sh), which would slow the next cli-files.

        median = {name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
                  for name, runs in results.items()}
        print("\nmedians of", options.rounds, "rounds (wall, CPU):")
        for name, (wall, cpu) in median.items():
            print(f"  {name:12} {wall:7.2f} s  {cpu:7.2f} s CPU  {wall * 1e3 / options.count:6.3f} ms a signature")
        tool_wall = statistics.median(t[1] for t in tools)
        tool_cpu = statistics.median(t[2] for t in tools)
        spark, cli, ndjson = median["spark-files"], median["cli-files"], median["cli-ndjson"]
        start, read = median["spark-start"], median["spark-read"]
        print(f"\nspark-files / cli-files: {spark[0] / cli[0]:.2f} x the wall time, {spark[1] / cli[1]:.2f} x the CPU")
        print(f"spark-files / cli-ndjson: {spark[0] / ndjson[0]:.2f} x the wall time")
        print("where the Spark job's wall time goes (medians):")
        print(f"  JVM, Spark and Python driver start and stop (spark-start): {start[0]:.2f} s")
        scan = median["spark-scan"]
        print(f"  listing and reading the files in the JVM (spark-scan - spark-start): {scan[0] - start[0]:.2f} s")
        print(f"  Python workers and the Arrow hand-off of the files (spark-read - spark-scan): {read[0] - scan[0]:.2f} s")
        print(f"  the rest: the tool, the pipe, JSON and base64, images into Parquet (spark-files - spark-read): "
              f"{spark[0] - read[0]:.2f} s, of which the tool processes ran {tool_wall:.2f} s in all "
              f"({tool_wall / 2:.2f} s on each of 2 cores) using {tool_cpu:.2f} s CPU "
              f"(cli-ndjson: {ndjson[0]:.2f} s, {ndjson[1]:.2f} s CPU)")
        print(f"  CPU outside the tool: {spark[1] - tool_cpu:.2f} s (JVM and Python), against {tool_cpu:.2f} s in it")
        if options.pipe:
            pipe = median["spark-pipe"]
            print(f"RDD.pipe instead of mapInArrow: {pipe[0]:.2f} s against {spark[0]:.2f} s "
                  f"({pipe[0] / spark[0]:.2f} x), {pipe[1]:.2f} s CPU against {spark[1]:.2f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
