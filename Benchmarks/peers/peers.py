#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs the same real signatures through SignatureInk and through the peers installable here, in one run, and
prints each pipeline's time per signature and its ratio to ours.

Set-up (once):  python3 -m venv /tmp/peers-venv
                /tmp/peers-venv/bin/pip install -r Benchmarks/peers/requirements.txt
Run (from the repository root):
                /tmp/peers-venv/bin/python Benchmarks/peers/peers.py [--rounds 15] [--json out.json]

The command line, as users run it (the binary `make release` builds; built here when missing):
- one file in a new process, `signature-ink render FILE -o OUT` (PNG, SVG, PDF), each run a different fixture,
  alternated with `/bin/true` (the floor of starting any process) and timed from spawn to exit; medians;
- a batch, `signature-ink render DIR --out-dir OUT --jobs 1` (and `--jobs 2`) over every fixture, per file.
  Outputs go to a temporary folder under /dev/shm when it exists, so that the file system's cost stays out.

Input: Benchmarks/Fixtures/signatures/*.json (make-signatures.py): ~170 real samples each in a 600 x 300 canvas.
Ours: Benchmarks/.build/release/ink-timing (built here with `swift build -c release --product ink-timing` when
missing), which times the library in-process on the same files. Both sides use one method: each round handles
every signature once, one core, no output written to disk; the figure is the median round time / signatures.
Ours runs before and after the peers and its rounds are pooled, so a change in machine load shows in both.

Peers (each draws every stroke of the signature, then encodes the whole image as PNG in memory):
- perfect-freehand (Python) outline per stroke (size 3, pressure when the file has it, else simulated) filled
  with pycairo (non-zero) + `write_to_png` into a BytesIO;
- skia-python: one anti-aliased polyline path per stroke, width 2, round caps and joins, + PNG encode;
- pycairo: the same polylines stroked + `write_to_png`;
- `simplification` (Rust) RDP at 0.5 px on every stroke, against our RamerDouglasPeucker at 0.5 px;
- Cairo `write_to_png` of an empty 600x300 ARGB image: ANCHORS.md's calibration row (11.0 ms there).
"""
import argparse, glob, io, json, os, shutil, statistics, subprocess, sys, tempfile, time

import cairo
import skia
from perfect_freehand import get_stroke
from simplification.cutil import simplify_coords

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from wholeruns import spawn_ms  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
WIDTH, HEIGHT = 600, 300


def load(folder):
    sigs = []
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        d = json.load(open(path))
        has_p = "pressure" in d["channels"]
        sig = []
        for stroke in d["strokes"]:
            sig.append([(s[0], s[1], s[3] if has_p and s[3] is not None else None) for s in stroke])
        sigs.append(sig)
    return sigs


def per_signature_ms(body, sigs, rounds):
    """Median round time / signatures, in ms, after one warm-up round."""
    body(sigs)
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        body(sigs)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3 / len(sigs)


def freehand_cairo(scale):
    sizes = []

    def run(sigs):
        sizes.clear()
        for sig in sigs:
            surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, WIDTH * scale, HEIGHT * scale)
            ctx = cairo.Context(surface)
            ctx.scale(scale, scale)
            ctx.set_source_rgb(0, 0, 0)
            ctx.set_fill_rule(cairo.FILL_RULE_WINDING)
            for stroke in sig:
                has_p = stroke[0][2] is not None
                pts = [(x, y, p) if has_p else (x, y) for x, y, p in stroke]
                outline = get_stroke(pts, size=3, simulate_pressure=not has_p)
                if not outline:
                    continue
                ctx.move_to(*outline[0])
                for q in outline[1:]:
                    ctx.line_to(*q)
                ctx.close_path()
            ctx.fill()
            out = io.BytesIO()
            surface.write_to_png(out)
            sizes.append(out.tell())
    return run, sizes


def cairo_polyline(scale):
    sizes = []

    def run(sigs):
        sizes.clear()
        for sig in sigs:
            surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, WIDTH * scale, HEIGHT * scale)
            ctx = cairo.Context(surface)
            ctx.scale(scale, scale)
            ctx.set_source_rgb(0, 0, 0)
            ctx.set_line_width(2)
            ctx.set_line_cap(cairo.LINE_CAP_ROUND)
            ctx.set_line_join(cairo.LINE_JOIN_ROUND)
            for stroke in sig:
                ctx.move_to(stroke[0][0], stroke[0][1])
                for x, y, _ in stroke[1:]:
                    ctx.line_to(x, y)
                if len(stroke) == 1:
                    ctx.line_to(stroke[0][0], stroke[0][1])
                ctx.stroke()
            out = io.BytesIO()
            surface.write_to_png(out)
            sizes.append(out.tell())
    return run, sizes


def skia_polyline(scale):
    sizes = []
    paint = skia.Paint(AntiAlias=True, Color=skia.ColorBLACK, Style=skia.Paint.kStroke_Style, StrokeWidth=2,
                       StrokeCap=skia.Paint.kRound_Cap, StrokeJoin=skia.Paint.kRound_Join)

    def run(sigs):
        sizes.clear()
        for sig in sigs:
            surface = skia.Surface(WIDTH * scale, HEIGHT * scale)
            canvas = surface.getCanvas()
            canvas.scale(scale, scale)
            for stroke in sig:
                path = skia.Path()
                path.moveTo(stroke[0][0], stroke[0][1])
                for x, y, _ in stroke[1:]:
                    path.lineTo(x, y)
                if len(stroke) == 1:
                    path.lineTo(stroke[0][0], stroke[0][1])
                canvas.drawPath(path, paint)
            data = surface.makeImageSnapshot().encodeToData(skia.kPNG, 100)
            sizes.append(len(bytes(data)))
    return run, sizes


def empty_cairo_png(sigs):
    for _ in sigs:
        surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, WIDTH, HEIGHT)
        surface.write_to_png(io.BytesIO())


def rdp(sigs):
    for sig in sigs:
        for stroke in sig:
            simplify_coords([[x, y] for x, y, _ in stroke], 0.5)


def command_line(cli, fixtures, rounds):
    """Medians for the command line: one file in a new process beside /bin/true, and batches per file."""
    return command_line_runs([cli], fixtures, rounds)[0]


def command_line_runs(clis, fixtures, rounds):
    """command_line() for several binaries, alternated run by run so that drift in the machine's speed reaches
    each alike. Returns one (single, batch, files) per binary."""
    files = sorted(glob.glob(os.path.join(fixtures, "*.json")))
    work = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        runs = max(rounds * 4, 41)
        single = [{"true": [], "png": [], "svg": [], "pdf": []} for _ in clis]
        for i in range(runs + 1):  # the first round warms the file cache and is not counted
            f = files[i % len(files)]
            for k, cli in enumerate(clis):
                times = {"true": spawn_ms(["/bin/true"])}
                for fmt in ("png", "svg", "pdf"):
                    times[fmt] = spawn_ms([cli, "render", f, "-o", os.path.join(work, f"one.{fmt}")])
                if i:
                    for key, v in times.items():
                        single[k][key].append(v)
        batch = [{} for _ in clis]
        for name, extra in [("png", []), ("png-2", ["--jobs", "2"]), ("svg", ["--format", "svg"]),
                            ("pdf", ["--format", "pdf"])]:
            jobs = [] if "--jobs" in extra else ["--jobs", "1"]
            argvs = [[cli, "render", fixtures, "--out-dir", os.path.join(work, f"{name}-{k}"), "--quiet"] + jobs + extra
                     for k, cli in enumerate(clis)]
            times = [[] for _ in clis]
            for r in range(max(rounds // 2, 5) + 1):
                for k, argv in enumerate(argvs):
                    t = spawn_ms(argv)
                    if r:
                        times[k].append(t)
            for k in range(len(clis)):
                batch[k][name] = statistics.median(times[k]) / len(files)
        return [({key: statistics.median(v) for key, v in single[k].items()}, batch[k], len(files))
                for k in range(len(clis))]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def ours(binary, rounds):
    out = subprocess.run([binary, "--rounds", str(rounds)], check=True, capture_output=True, text=True).stdout
    return {r["stage"]: r for r in map(json.loads, out.splitlines())}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--fixtures", default=os.path.join(BENCH, "Fixtures", "signatures"))
    ap.add_argument("--ours", default=os.path.join(BENCH, ".build", "release", "ink-timing"))
    ap.add_argument("--cli", default=os.path.join(os.path.dirname(BENCH), ".build", "release", "signature-ink"),
                    help="the command-line tool built by `make release`")
    ap.add_argument("--baseline-cli", help="an earlier build of the command-line tool: its figures are taken "
                    "alternately with --cli's and printed beside them (before / after)")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    if not os.path.exists(args.ours):
        subprocess.run(["swift", "build", "-c", "release", "--product", "ink-timing"], cwd=BENCH, check=True)
    if not os.path.exists(args.cli):
        subprocess.run(["make", "release"], cwd=os.path.dirname(BENCH), check=True)

    sigs = load(args.fixtures)
    n_samples = sum(len(s) for sig in sigs for s in sig)
    print(f"{len(sigs)} signatures, {n_samples / len(sigs):.0f} samples each on average, {args.rounds} rounds, "
          f"load average {os.getloadavg()[0]:.2f}", file=sys.stderr)

    first = ours(args.ours, args.rounds)
    rows = []  # (name, scale, ms, png bytes or None)
    for scale in (1, 2):
        for name, make in [("perfect-freehand + pycairo fill + PNG", freehand_cairo),
                           ("skia-python polyline + PNG", skia_polyline),
                           ("pycairo polyline + write_to_png", cairo_polyline)]:
            run, sizes = make(scale)
            ms = per_signature_ms(run, sigs, args.rounds)
            rows.append((name, scale, ms, statistics.mean(sizes)))
            print(f"  {name} @{scale}x: {ms:.3f} ms", file=sys.stderr)
    empty_ms = per_signature_ms(empty_cairo_png, sigs, args.rounds)
    rdp_ms = per_signature_ms(rdp, sigs, args.rounds)
    second = ours(args.ours, args.rounds)
    if args.baseline_cli:
        (single, batch, n_files), (base_single, base_batch, _) = command_line_runs(
            [args.cli, args.baseline_cli], args.fixtures, args.rounds)
    else:
        single, batch, n_files = command_line(args.cli, args.fixtures, args.rounds)

    def pooled(stage, key="ms_per_signature"):
        return statistics.mean([first[stage][key], second[stage][key]])

    figures = {"signatures": len(sigs), "rounds": args.rounds, "ours_first": first, "ours_second": second,
               "peers": [{"pipeline": r[0], "scale": r[1], "ms_per_signature": r[2], "png_bytes": r[3]}
                         for r in rows],
               "cairo_empty_png_ms": empty_ms, "simplification_rdp_ms_per_signature": rdp_ms,
               "command_line": {"one_file_ms": single, "batch_ms_per_file": batch, "files": n_files}}

    print(f"\n| the command line (`make release`) | ms | yardstick | ratio |")
    print("|---|---|---|---|")
    for fmt in ("png", "svg", "pdf"):
        print(f"| one file in a new process, `render FILE -o OUT.{fmt}` (median of {max(args.rounds * 4, 41)}) | "
              f"{single[fmt]:.2f} | `/bin/true` {single['true']:.2f} ms; goal 3 ms | "
              f"{single[fmt] / single['true']:.1f} x true |")
    fastest = min((r for r in rows if r[1] == 1), key=lambda r: r[2])
    for fmt in ("png", "svg", "pdf"):
        print(f"| a batch, `render DIR --out-dir OUT --jobs 1 --format {fmt}`, per file ({n_files} files) | "
              f"{batch[fmt]:.3f} | goal 0.25 ms" + (f"; fastest peer {fastest[0]} {fastest[2]:.3f} ms | "
              f"{fastest[2] / batch[fmt]:.1f} x faster |" if fmt == "png" else " | |"))
    print(f"| the PNG batch with `--jobs 2`, per file | {batch['png-2']:.3f} | `--jobs 1` {batch['png']:.3f} ms | "
          f"{batch['png'] / batch['png-2']:.2f} x faster |")
    if args.baseline_cli:
        figures["command_line_baseline"] = {"one_file_ms": base_single, "batch_ms_per_file": base_batch}
        print(f"\n| before ({args.baseline_cli}) / after ({args.cli}), alternated | before ms | after ms | "
              f"before / after |")
        print("|---|---|---|---|")
        print(f"| `/bin/true` | {base_single['true']:.2f} | {single['true']:.2f} | - |")
        for fmt in ("png", "svg", "pdf"):
            print(f"| one file in a new process, {fmt} | {base_single[fmt]:.2f} | {single[fmt]:.2f} | "
                  f"{base_single[fmt] / single[fmt]:.2f} x |")
        for name, label in [("png", "png"), ("svg", "svg"), ("pdf", "pdf"), ("png-2", "png, --jobs 2")]:
            print(f"| a batch, per file, {label} | {base_batch[name]:.3f} | {batch[name]:.3f} | "
                  f"{base_batch[name] / batch[name]:.2f} x |")

    print(f"\n| pipeline | scale | ms per signature | PNG bytes | peer / ours |")
    print("|---|---|---|---|---|")
    for scale in (1, 2):
        our_ms = pooled(f"png-e2e@{scale}x")
        our_bytes = first[f"png-e2e@{scale}x"]["bytes_per_signature"]
        print(f"| **SignatureInk** Signature -> PNG | {scale}x | {our_ms:.3f} | {our_bytes:.0f} | 1 |")
        print(f"| SignatureInk file bytes -> decode -> PNG | {scale}x | {pooled(f'file-png-e2e@{scale}x'):.3f} | "
              f"{our_bytes:.0f} | - |")
        print(f"| Cairo write_to_png of our outline (size only) | {scale}x | - | "
              f"{first[f'cairo-write-to-png-size@{scale}x']['bytes_per_signature']:.0f} | - |")
        for name, s, ms, size in rows:
            if s == scale:
                print(f"| {name} | {scale}x | {ms:.3f} | {size:.0f} | {ms / our_ms:.1f} |")
        if scale == 1:
            print(f"| SignatureInk command line, file -> PNG file, in a batch (--jobs 1) | 1x | {batch['png']:.3f} | "
                  f"{our_bytes:.0f} | - |")
    print(f"| Cairo write_to_png, empty 600x300 ARGB | 1x | {empty_ms:.3f} | - | "
          f"{empty_ms / pooled('png-e2e@1x'):.1f} |")
    our_rdp = pooled("rdp-0.5px")
    print(f"\n| RDP 0.5 px on every stroke | ms per signature | M samples/s | peer / ours |")
    print("|---|---|---|---|")
    print(f"| **SignatureInk** RamerDouglasPeucker | {our_rdp:.4f} | {n_samples / len(sigs) / our_rdp / 1e3:.1f} | 1 |")
    print(f"| simplification (Rust via Python) simplify_coords | {rdp_ms:.4f} | "
          f"{n_samples / len(sigs) / rdp_ms / 1e3:.1f} | {rdp_ms / our_rdp:.1f} |")
    svg = first["svg-e2e"]
    print(f"\nSVG: {pooled('svg-e2e'):.3f} ms and {svg['bytes_per_signature']} bytes per signature "
          f"(signature_pad toSVG: 26 KiB = 26624 bytes, ratio {26624 / svg['bytes_per_signature']:.1f})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1)


if __name__ == "__main__":
    main()
