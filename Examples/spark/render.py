#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Render signatures on Apache Spark with signature-ink, keeping every record's id.

    spark-submit --master MASTER Examples/spark/render.py INPUT OUTPUT [options] [-- RENDER_FLAG ...]

INPUT is one of:

- a folder of stroke files, searched recursively (``--include '*.json'`` filters by name): each file is a record
  whose id is its path as Spark names it (``file:/data/signatures/a.json``, ``hdfs://...``), sent to the tool as
  the file's text, so that any format the tool reads works (native, signature_pad, InkML, SVC2004, ...);
- a JSON-lines table, one record a line in the envelope ``signature-ink render --ndjson`` reads,
  ``{"id": "a-17", "signature": {...}}`` (an integer id, or the signature as a string holding a file's text, are
  fine too); lines go to the tool as they are, and the tool checks them;
- a Parquet table with the columns ``id`` (a string or an integer type) and ``signature`` (a string or binary
  column holding a stroke file's content).

The kind is told from INPUT (a ``.parquet`` path or a folder of ``.parquet`` files is Parquet, a ``.jsonl`` or
``.ndjson`` path or a folder of such files is JSON lines, anything else is stroke files) or named with
``--input-kind``.

OUTPUT is written as Parquet, one row per record, in no particular order, with the columns

    id      the record's id: in the input's own type for files (a string) and Parquet; from JSON lines, a string
            (an integer id as its digits), or null when the tool could not read the line's id
    status  "ok" or "failed"
    format  "png", "svg" or "pdf" (null when failed)
    image   the output's bytes, exactly as ``signature-ink render FILE -o OUT`` writes them (null when failed)
    sha256  the image's SHA-256, in lower-case hexadecimal, as the tool computed it
    error   why the record failed, as the tool words it (null when it did not)

Options ``--format``, ``--scale``, ``--width`` and ``--height`` are given to the tool as the flags of the same name;
anything after ``--`` is given to it as it stands (``-- --background '#ffffff' --crop``). Every executor runs
``--tool`` (default ``signature-ink``): a path that exists on every executor, or a bare name found on their PATH or
shipped with ``spark-submit --files PATH_TO/signature-ink``. When the driver can run it too, the flags are checked
there first, so a bad flag is a usage error rather than a failed task on every executor.

Exit status: 0 when every record was rendered; 1 when some were not (each has a row with status "failed" and its
error); 2 for bad usage (options, a missing input, an existing OUTPUT without ``--overwrite``); 3 when the Spark job
itself failed.

How the tool runs on the executors: ``DataFrame.mapInArrow``, rather than ``RDD.pipe``. Both start one
``signature-ink render --ndjson`` per partition from a Python worker and stream the partition through it; what
decides is what each does when something goes wrong.

- PySpark's ``RDD.pipe`` either ignores the tool's exit status (``checkCode=False``), so a tool that dies half way
  through a partition silently leaves its remaining records without a row, or fails the task on any non-zero status
  (``checkCode=True``), including the 1 that only says some lines failed, which their results already report. Here
  each partition keeps its records' ids in order beside the pipe, pairs the n-th result with the n-th record, and
  fails the task, quoting the tool's standard error, when the tool exits otherwise than 0 or 1, answers fewer or
  more lines than it was sent, or repeats another id than the record's: no record can be lost or mislabelled
  without the job failing.
- mapInArrow stays in the DataFrame API: records arrive as Arrow columns and images leave as an Arrow binary
  column with the output's types, where ``RDD.pipe`` leaves the DataFrame for pickled rows and needs
  ``createDataFrame`` to come back; and Spark Connect has no RDDs.
- The cost: every executor needs pyarrow and pandas beside PySpark (``pip install 'pyspark[sql]'``), and on one
  machine the job took 8 % longer than the same work through ``RDD.pipe`` (36.4 s against 33.6 s for 10,000
  signatures on local[2], BENCHMARKS.md "Spark"; the 2.8 s were not broken down further).
"""

import argparse
import base64
import collections
import json
import os
import shutil
import subprocess
import sys
import threading

RESULT_FORMATS = ("png", "svg", "pdf")
# Rows handed back to Spark at a time: a few megabytes of images.
BATCH_ROWS = 256
# Partitions a core gets at most, unless --partitions says otherwise.
PARTITIONS_PER_CORE = 4
# How much of the tool's standard error a failed task quotes.
STDERR_TAIL = 4096


class UsageError(Exception):
    """Bad options or input, reported with exit status 2."""


def parse_arguments(argv):
    """The job's options, and the flags after ``--`` to hand to the tool unchanged."""
    passthrough = []
    if "--" in argv:
        cut = argv.index("--")
        argv, passthrough = argv[:cut], argv[cut + 1:]
    parser = argparse.ArgumentParser(
        prog="render.py", description="Render signatures on Spark with signature-ink, keeping every record's id.",
        epilog="Flags after -- go to `signature-ink render --ndjson` unchanged.")
    parser.add_argument("input", help="a folder of stroke files, a JSON-lines table or a Parquet table")
    parser.add_argument("output", help="where to write the Parquet result")
    parser.add_argument("--input-kind", choices=("auto", "files", "json", "parquet"), default="auto",
                        help="how to read INPUT (default: told from its name and contents)")
    parser.add_argument("--include", metavar="GLOB", help="in a folder of files, read only names matching GLOB")
    parser.add_argument("--format", choices=RESULT_FORMATS, default="png", help="output format (default png)")
    parser.add_argument("--scale", type=float, help="output pixels per output unit (PNG only)")
    parser.add_argument("--width", type=float, help="output box width in output units")
    parser.add_argument("--height", type=float, help="output box height in output units")
    parser.add_argument("--tool", default="signature-ink",
                        help="the signature-ink binary on every executor: a path, or a name on PATH or shipped "
                             "with --files (default signature-ink)")
    parser.add_argument("--tool-jobs", type=int, default=1, metavar="N",
                        help="threads each tool process renders on (default 1: Spark runs one task per core)")
    parser.add_argument("--partitions", type=int, metavar="N",
                        help="repartition the input into N partitions first (default: the input's partitions, merged "
                             f"down to {PARTITIONS_PER_CORE} per core)")
    parser.add_argument("--overwrite", action="store_true", help="replace OUTPUT when it exists")
    options = parser.parse_args(argv)
    for name in ("scale", "width", "height"):
        value = getattr(options, name)
        if value is not None and not value > 0:
            parser.error(f"--{name} must be > 0")
    if options.tool_jobs < 1:
        parser.error("--tool-jobs must be >= 1")
    if options.partitions is not None and options.partitions < 1:
        parser.error("--partitions must be >= 1")
    return options, passthrough


def tool_arguments(options, passthrough):
    """The arguments after the tool's name: ``render --ndjson`` with the job's options as its flags."""
    arguments = ["render", "--ndjson", "--quiet", "--jobs", str(options.tool_jobs), "--format", options.format]
    for name in ("scale", "width", "height"):
        value = getattr(options, name)
        if value is not None:
            arguments += [f"--{name}", repr(value)]
    return arguments + passthrough


def check_flags_on_driver(tool, arguments):
    """Runs the tool once on no input when the driver has it, so that a flag it refuses is a usage error here."""
    found = tool if os.sep in tool else shutil.which(tool)
    if not found or not os.access(found, os.X_OK):
        return
    done = subprocess.run([found] + arguments, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or ["no reason given"])[0]
        raise UsageError(f"{tool} refused the flags {' '.join(arguments[1:])}: {said}")


def input_kind(path, named):
    """``files``, ``json`` or ``parquet``: the kind named, or the one INPUT's name and contents show."""
    if named != "auto":
        return named
    lowered = path.rstrip("/").lower()
    if lowered.endswith(".parquet"):
        return "parquet"
    if lowered.endswith((".jsonl", ".ndjson")):
        return "json"
    if not os.path.isdir(path):
        # One stroke file, or a folder on a distributed file system, whose contents only Spark can list.
        return "files"
    names = [n for n in os.listdir(path) if not n.startswith((".", "_"))]
    if names and all(n.endswith(".parquet") for n in names):
        return "parquet"
    if names and all(n.lower().endswith((".jsonl", ".ndjson")) for n in names):
        return "json"
    return "files"


def read_records(spark, kind, options):
    """The input as a DataFrame of ``id`` and ``signature`` (``line`` for JSON lines, which go to the tool whole)."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    if kind == "files":
        reader = spark.read.format("binaryFile").option("recursiveFileLookup", "true")
        if options.include:
            reader = reader.option("pathGlobFilter", options.include)
        return reader.load(options.input).select(F.col("path").alias("id"), F.col("content").alias("signature"))
    if kind == "json":
        lines = spark.read.text(options.input).select(F.col("value").alias("line"))
        # The tool gives blank lines no result; they hold no record.
        return lines.where(F.trim(F.col("line")) != "")
    table = spark.read.parquet(options.input)
    fields = {f.name: f.dataType for f in table.schema.fields}
    integers = (T.ByteType, T.ShortType, T.IntegerType, T.LongType)
    if "id" not in fields or "signature" not in fields:
        raise UsageError(f"{options.input}: a Parquet input needs the columns id and signature; it has "
                         + ", ".join(fields))
    if not isinstance(fields["id"], (T.StringType,) + integers):
        raise UsageError(f"{options.input}: the id column must be a string or an integer type, not "
                         f"{fields['id'].simpleString()}")
    if not isinstance(fields["signature"], (T.StringType, T.BinaryType)):
        raise UsageError(f"{options.input}: the signature column must be a string or binary column, not "
                         f"{fields['signature'].simpleString()}")
    return table.select("id", "signature")


def envelope_line(record_id, signature):
    """The tool's input line for one record, or the reason it cannot have one.

    Returns ``(line, None)`` or ``(None, error)``. The signature goes as a JSON string holding the file's text, which
    the tool reads exactly as it would read the file.
    """
    if isinstance(signature, (bytes, bytearray)):
        try:
            signature = bytes(signature).decode("utf-8")
        except UnicodeDecodeError as error:
            return None, f"the signature is not UTF-8 text (byte {error.start}); stroke files are sent as text"
    line = json.dumps({"id": record_id, "signature": signature}, ensure_ascii=False, separators=(",", ":"))
    return line.encode("utf-8") + b"\n", None


def render_partition(batches, command, kind, arrow_schema):
    """Streams one partition through one ``signature-ink render --ndjson`` and yields Arrow batches of results."""
    import pyarrow as pa

    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # One entry a record, in order: (id, error) where error is None when the record went to the tool.
    pending = collections.deque()
    stderr_tail = bytearray()
    feed_failure = []

    def feed():
        try:
            for batch in batches:
                if kind == "json":
                    for line in batch.column(0).to_pylist():
                        pending.append((None, None))
                        process.stdin.write(line.encode("utf-8") + b"\n")
                    continue
                ids, signatures = batch.column(0).to_pylist(), batch.column(1).to_pylist()
                for record_id, signature in zip(ids, signatures):
                    line, error = envelope_line(record_id, signature)
                    pending.append((record_id, error))
                    if line is not None:
                        process.stdin.write(line)
        except BrokenPipeError:
            pass  # The tool stopped early; its exit status and standard error say why.
        except BaseException as error:  # noqa: BLE001 - handed to the reading side, which fails the task with it
            feed_failure.append(error)
        finally:
            try:
                process.stdin.close()
            except BrokenPipeError:
                pass

    def drain_stderr():
        for chunk in iter(lambda: process.stderr.read(65536), b""):
            stderr_tail.extend(chunk)
            del stderr_tail[:-STDERR_TAIL]

    feeder = threading.Thread(target=feed, daemon=True)
    drainer = threading.Thread(target=drain_stderr, daemon=True)
    feeder.start()
    drainer.start()

    columns = {name: [] for name in arrow_schema.names}

    def add(record_id, status, fmt=None, image=None, digest=None, error=None):
        columns["id"].append(record_id)
        columns["status"].append(status)
        columns["format"].append(fmt)
        columns["image"].append(image)
        columns["sha256"].append(digest)
        columns["error"].append(error)

    def flush():
        batch = pa.RecordBatch.from_pydict(columns, schema=arrow_schema)
        for values in columns.values():
            values.clear()
        return batch

    def take_refused():
        """Adds the rows of the records at the head of the queue that never went to the tool."""
        while pending and pending[0][1] is not None:
            record_id, error = pending.popleft()
            add(record_id, "failed", error=error)

    try:
        for raw in process.stdout:
            take_refused()
            if not pending:
                raise RuntimeError("signature-ink gave more results than it was sent lines")
            record_id, _ = pending.popleft()
            result = json.loads(raw)
            echoed = result.get("id")
            if kind == "json":
                # The id is the one the line gave; the tool read it.
                record_id = None if echoed is None else str(echoed)
            elif echoed != record_id:
                raise RuntimeError(f"signature-ink answered for id {echoed!r} where {record_id!r} was expected")
            if result.get("status") != "ok":
                add(record_id, "failed", error=result.get("error", "failed"))
            elif record_id is None:
                add(None, "failed", error="no id: a JSON-lines record is {\"id\": ..., \"signature\": ...}")
            else:
                add(record_id, "ok", result["format"], base64.b64decode(result["data"]), result["sha256"])
            if len(columns["id"]) >= BATCH_ROWS:
                yield flush()
        feeder.join()
        status = process.wait()
        drainer.join()
    finally:
        # A task that fails, or whose rows are no longer wanted, leaves no tool process behind.
        if process.poll() is None:
            process.kill()
            process.wait()
    if feed_failure:
        raise feed_failure[0]
    take_refused()
    tail = bytes(stderr_tail).decode("utf-8", "replace").strip()
    if status not in (0, 1):
        raise RuntimeError(f"signature-ink exited with status {status}: {tail}")
    if pending:
        raise RuntimeError(f"signature-ink answered {len(pending)} lines fewer than it was sent: {tail}")
    if columns["id"]:
        yield flush()


def resolve_tool(tool):
    """The tool's path on this executor: a path as given, else a file shipped with --files, else the name (PATH)."""
    if os.sep in tool:
        return tool
    try:
        from pyspark import SparkFiles

        shipped = SparkFiles.get(tool)
        if os.path.isfile(shipped):
            return shipped
    except Exception:  # noqa: BLE001 - no SparkFiles here: the name is looked up on PATH
        pass
    return tool


def run(options, passthrough):
    """Runs the job; returns the exit status."""
    from pyspark.sql import SparkSession
    from pyspark.sql import types as T
    from pyspark.errors import AnalysisException

    kind = input_kind(options.input, options.input_kind)
    arguments = tool_arguments(options, passthrough)
    check_flags_on_driver(options.tool, arguments)
    spark = SparkSession.builder.appName("signature-ink render").getOrCreate()
    try:
        try:
            records = read_records(spark, kind, options)
        except AnalysisException as error:
            raise UsageError(f"{options.input}: {error.getMessage() if hasattr(error, 'getMessage') else error}")
        if options.partitions:
            records = records.repartition(options.partitions)
        else:
            # Spark gives small files a partition for every few dozen of them: each is a task, with its own hand-off
            # to Python and its own tool process. A few partitions per core are enough to balance the work.
            most = PARTITIONS_PER_CORE * spark.sparkContext.defaultParallelism
            if records.rdd.getNumPartitions() > most:
                records = records.coalesce(most)
        id_type = T.StringType() if kind != "parquet" else records.schema["id"].dataType
        schema = T.StructType([
            T.StructField("id", id_type), T.StructField("status", T.StringType(), False),
            T.StructField("format", T.StringType()), T.StructField("image", T.BinaryType()),
            T.StructField("sha256", T.StringType()), T.StructField("error", T.StringType()),
        ])
        import pyarrow as pa

        arrow_types = {T.StringType: pa.string(), T.LongType: pa.int64(), T.IntegerType: pa.int32(),
                       T.ShortType: pa.int16(), T.ByteType: pa.int8()}
        arrow_schema = pa.schema([
            pa.field("id", arrow_types[type(id_type)]), pa.field("status", pa.string(), False),
            pa.field("format", pa.string()), pa.field("image", pa.binary()),
            pa.field("sha256", pa.string()), pa.field("error", pa.string()),
        ])
        tool = options.tool

        def render(batches):
            command = [resolve_tool(tool)] + arguments
            return render_partition(batches, command, kind, arrow_schema)

        results = records.mapInArrow(render, schema)
        writer = results.write.mode("overwrite" if options.overwrite else "errorifexists")
        try:
            writer.parquet(options.output)
        except AnalysisException as error:
            if "PATH_ALREADY_EXISTS" in str(error) or "already exists" in str(error):
                raise UsageError(f"{options.output} exists; give --overwrite to replace it")
            raise
        # What was written, counted in one pass over its status column.
        total, refused = spark.read.parquet(options.output).selectExpr(
            "count(*)", "count_if(status != 'ok')").first()
    finally:
        spark.stop()
    if refused:
        print(f"render.py: {refused} of {total} records could not be rendered; their rows in {options.output} "
              "have status 'failed' and the reason in 'error'", file=sys.stderr)
        return 1
    print(f"render.py: all {total} records rendered into {options.output}", file=sys.stderr)
    return 0


def main(argv):
    options, passthrough = parse_arguments(argv)
    try:
        return run(options, passthrough)
    except UsageError as error:
        print(f"render.py: error: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # noqa: BLE001 - any other failure is the job's, reported as such
        print(f"render.py: error: the Spark job failed: {error}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
