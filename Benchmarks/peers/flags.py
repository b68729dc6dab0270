#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Times `signature-ink render FILE -o OUT` in a new process with the flags people give, beside `/bin/true`, the
floor of starting any process: each render's median, and how far it is above the floor (the goal is 2 ms).

Run (from the repository root, after `make release`):
    python3 Benchmarks/peers/flags.py [--rounds 100] [--baseline OTHER_BUILD] [--json out.json]

Each binary (ours, and the baseline when given) is first copied to a temporary folder under /dev/shm, so that both
are read from memory the same way: two copies of one build can differ by a millisecond a process when one of them
is only partly in the page cache. Every round runs `/bin/true` and then each flag set with each binary, in turn
(which binary goes first alternates), on one fixture (`Benchmarks/Fixtures/signatures/`, a different one each
round); the first round is not counted.
"""
import argparse, glob, json, os, shutil, statistics, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from wholeruns import spawn_ms  # noqa: E402

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(BENCH)

# The output's extension, then the flags: the format, scale, size, framing, colours, pen widths, decorations and
# quiet, as the README shows them.
FLAG_SETS = [
    ("png", []),
    ("svg", []),
    ("pdf", []),
    ("png", ["--scale", "2"]),
    ("png", ["--width", "400", "--height", "200", "--fit"]),
    ("png", ["--crop"]),
    ("png", ["--pen-color", "#1f3a93", "--background", "white"]),
    ("png", ["--min-width", "1", "--max-width", "4"]),
    ("png", ["--quiet"]),
    ("png", ["--scale", "2", "--width", "400", "--height", "200", "--fit", "--pen-color", "#1f3a93", "--quiet"]),
    ("png", ["--signature-line", "--x-mark"]),
    ("png", ["--signature-line", "--background", "white"]),
    ("png", ["--signature-line", "--x-mark", "--pen-color", "navy"]),
    ("png", ["--timestamp", "--watermark", "DRAFT"]),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--cli", default=os.path.join(ROOT, ".build", "release", "signature-ink"),
                    help="the command-line tool (default: what `make release` builds)")
    ap.add_argument("--baseline", help="an earlier build, timed in the same rounds")
    ap.add_argument("--fixtures", default=os.path.join(BENCH, "Fixtures", "signatures"))
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    files = sorted(glob.glob(os.path.join(args.fixtures, "*.json")))
    if not files:
        sys.exit(f"error: no fixtures in {args.fixtures}")
    work = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        binaries = {}
        for name, path in [("ours", args.cli), ("baseline", args.baseline)]:
            if path:
                if not os.access(path, os.X_OK):
                    sys.exit(f"error: {path} is not an executable (run `make release`)")
                binaries[name] = os.path.join(work, name)
                shutil.copyfile(path, binaries[name])
                os.chmod(binaries[name], 0o755)
        times = {"true": []}
        for name in binaries:
            for k in range(len(FLAG_SETS)):
                times[(name, k)] = []
        for r in range(args.rounds + 1):
            f = files[r % len(files)]
            t = {"true": spawn_ms(["/bin/true"])}
            # Which binary goes first alternates from round to round: the first of a pair runs a little slower.
            order = list(binaries.items())[::1 if r % 2 else -1]
            for k, (ext, flags) in enumerate(FLAG_SETS):
                for name, binary in order:
                    t[(name, k)] = spawn_ms([binary, "render", f, "-o", os.path.join(work, f"out.{ext}")] + flags)
            if r:
                for key, v in t.items():
                    times[key].append(v)
        floor = statistics.median(times["true"])
        rows = []
        print(f"`/bin/true`: {floor:.3f} ms (median of {args.rounds})\n")
        header = "| output, flags | ours ms | ours above `/bin/true` |"
        if "baseline" in binaries:
            header += " baseline ms | ours / baseline |"
        print(header)
        print("|---|---|---|" + ("---|---|" if "baseline" in binaries else ""))
        for k, (ext, flags) in enumerate(FLAG_SETS):
            ours = statistics.median(times[("ours", k)])
            row = {"output": ext, "flags": flags, "ours_ms": ours, "above_true_ms": ours - floor}
            line = f"| {ext} `{' '.join(flags)}` | {ours:.3f} | {ours - floor:.3f} |"
            if "baseline" in binaries:
                base = statistics.median(times[("baseline", k)])
                row["baseline_ms"] = base
                line += f" {base:.3f} | {ours / base:.2f} |"
            print(line)
            rows.append(row)
        if args.json:
            with open(args.json, "w") as out:
                json.dump({"rounds": args.rounds, "true_ms": floor, "rows": rows}, out, indent=1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
