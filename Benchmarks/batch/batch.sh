#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The real CLI on many files: `signature-ink render DIR --out-dir OUT` on 1 and on 2 worker threads (hyperfine),
# and its peak resident memory for 100 and for 10,000 inputs (/usr/bin/time -v), so a leak or a whole-batch
# buffer shows as growth with the number of inputs.
#
# Needs: hyperfine and GNU time (apt-get install hyperfine time). Run from anywhere:
#   Benchmarks/batch/batch.sh [FILES_FOR_TIMING (default 1000)] [RUNS (default 5)]
# TMPDIR chooses the disk the inputs and outputs go to (mktemp); TMPDIR=/dev/shm measures the converter rather than
# the file system, whose file creation may cost more than the conversion and not run in parallel.
# Inputs are copies of Benchmarks/Fixtures/signatures/*.json (real ink, ~170 samples, 600 x 300), cycled and
# renamed so every input is a distinct file. Everything is written under a temporary folder, removed on exit.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
files="${1:-1000}"
runs="${2:-5}"
fixtures="$root/Benchmarks/Fixtures/signatures"

command -v hyperfine >/dev/null || { echo "error: hyperfine is missing (apt-get install hyperfine)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "error: GNU time is missing (apt-get install time)" >&2; exit 1; }

(cd "$root" && swift build -c release --product signature-ink >/dev/null)
cli="$(cd "$root" && swift build -c release --show-bin-path)/signature-ink"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# make_inputs N DIR: N distinct copies of the fixture set, cycled.
make_inputs() {
    python3 - "$fixtures" "$1" "$2" <<'EOF'
import os, shutil, sys
src, n, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
names = sorted(f for f in os.listdir(src) if f.endswith(".json"))
os.makedirs(dst, exist_ok=True)
for i in range(n):
    shutil.copyfile(os.path.join(src, names[i % len(names)]), os.path.join(dst, f"sig-{i:05d}.json"))
EOF
}

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cli: $cli"
echo

make_inputs "$files" "$work/in-$files"
echo "== time for $files files, --jobs 1 vs --jobs 2 (hyperfine, $runs runs, 1 warm-up) =="
# Each run writes into a new, empty folder; the previous run's is moved aside, not deleted: on ext4, creating
# files right after deleting as many made each create scan the just-freed inodes (0.5-1 ms of kernel time per
# output here), which measured the file system's bookkeeping rather than the converter. Removed on exit.
mkdir -p "$work/old"
hyperfine --warmup 1 --runs "$runs" --export-markdown "$work/hyperfine.md" --export-json "$work/hyperfine.json" \
    --prepare "sh -c 'mv $work/out $work/old/\$(date +%s%N) 2>/dev/null; mkdir -p $work/out'" \
    -n "jobs 1" "$cli render $work/in-$files --out-dir $work/out --jobs 1 --quiet" \
    -n "jobs 2" "$cli render $work/in-$files --out-dir $work/out --jobs 2 --quiet"
cat "$work/hyperfine.md"
python3 - "$work/hyperfine.json" "$files" <<'EOF'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
n = int(sys.argv[2])
one, two = r["jobs 1"]["median"], r["jobs 2"]["median"]
print(f"\nmedian: jobs 1 {one * 1e3 / n:.3f} ms per file, jobs 2 {two * 1e3 / n:.3f} ms per file; "
      f"speed-up {one / two:.2f}x (target >= 1.8x)")
EOF

echo
echo "== the machine's own ceiling: --jobs 1, --jobs 2 and two separate --jobs 1 processes on halves, interleaved =="
# A virtual machine's second core may not give a second core's worth of work (shared caches, a host that runs other
# guests). Two independent processes, each converting half of the inputs, share nothing of ours: their speed-up is
# the most any --jobs 2 can reach here. The three commands alternate round by round so that load changes hit all.
python3 - "$cli" "$work" "$files" "$runs" <<'EOF'
import os, statistics, subprocess, sys, time
cli, work, n, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
src = f"{work}/in-{n}"
names = sorted(os.listdir(src))
for half, part in (("a", names[: n // 2]), ("b", names[n // 2 :])):
    os.makedirs(f"{work}/half-{half}", exist_ok=True)
    for name in part:
        os.link(f"{src}/{name}", f"{work}/half-{half}/{name}")
def fresh():
    d = f"{work}/ceiling-{time.time_ns()}"
    os.makedirs(d)
    return d
def render(inputs, jobs):
    return subprocess.Popen([cli, "render", inputs, "--out-dir", fresh(), "--quiet", "--jobs", str(jobs)])
def timed(procs):
    start = time.perf_counter()
    ps = procs()
    if any(p.wait() != 0 for p in ps):
        sys.exit("error: a render run failed")
    return time.perf_counter() - start
results = {"jobs 1": [], "jobs 2": [], "two processes": []}
for _ in range(max(runs, 3)):
    results["jobs 1"].append(timed(lambda: [render(src, 1)]))
    results["jobs 2"].append(timed(lambda: [render(src, 2)]))
    results["two processes"].append(timed(lambda: [render(f"{work}/half-a", 1), render(f"{work}/half-b", 1)]))
m = {k: statistics.median(v) for k, v in results.items()}
for k, v in m.items():
    print(f"{k:14s} median {v * 1e3:7.1f} ms ({v * 1e3 / n:.3f} ms per file), runs {len(results[k])}")
print(f"speed-up of --jobs 2: {m['jobs 1'] / m['jobs 2']:.2f}x; two separate processes (the ceiling): "
      f"{m['jobs 1'] / m['two processes']:.2f}x; --jobs 2 reaches {m['two processes'] / m['jobs 2'] * 100:.0f} % of it")
EOF

echo
echo "== peak resident memory, --jobs 2 (GNU time -v) =="
for n in 100 10000; do
    make_inputs "$n" "$work/rss-$n"
    rm -rf "$work/out" && mkdir -p "$work/out"
    /usr/bin/time -v "$cli" render "$work/rss-$n" --out-dir "$work/out" --jobs 2 --quiet 2> "$work/time-$n.txt"
    kb="$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$work/time-$n.txt")"
    wall="$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time-$n.txt")"
    echo "$n inputs: peak RSS $kb KiB, wall $wall"
    rm -rf "$work/rss-$n"
done
