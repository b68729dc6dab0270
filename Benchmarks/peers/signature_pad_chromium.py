#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""SignatureInk's batch renderer beside signature_pad 5.1.3 in headless Chromium, in one run on the same
signature_pad `toData()` files (what web front ends post). Prints the medians and their ratios as Markdown.

Usage (from the repository root; system python3 with selenium, /usr/bin/chromium and /usr/bin/chromedriver):
    python3 Benchmarks/peers/signature_pad_chromium.py [--rounds 15] [--corpus recordings|converted|both]
                                                       [--baseline OTHER_BINARY] [--json out.json]
The binary is $SIGNATURE_INK, else the one `make release` builds. `--baseline` adds another build of ours (an older
commit's, say) as one more row, timed in the same rounds. It is run by hand; it takes a minute or two.

Corpora, reported apart:
- recordings: the nine real `toData()` recordings of Tests/Fixtures/realink/signature-pad-chromium/dpr1, each
  with the constructor options of its NAME.options.json (the pens are in the groups, and fromData honours them);
- converted: the 158 native fixtures of Benchmarks/Fixtures/signatures, converted at run time with
  `signature-ink convert --to signature-pad`, which writes signature_pad's default pen in each group.

Both sides draw a 600 x 300 PNG at device pixel ratio 1 with a transparent background. Rows:
- ours, `--jobs 1` (and `--jobs 2`): `signature-ink render FILES --out-dir OUT --width 600 --height 300 --jobs N
  --quiet`, the whole process from spawn to exit (start-up, reading, drawing, PNG encoding, writing) divided by the
  files; outputs go to a temporary folder under /dev/shm when it exists;
- signature_pad, fromData + PNG: one warm page holds a 600 x 300 canvas and one pad, and the files (passed in
  once). Per file: options set, `pad.clear()`, `pad.fromData(data)`, `canvas.toDataURL('image/png')`. One round
  is one `execute_script`, timed inside the page with `performance.now()`; the first round is not counted. No
  browser start-up and no file is read or written;
- signature_pad, fromData only: the same without the PNG;
- /bin/true: one process spawned and waited for, per spawn: the floor under any row that starts a process.
Each figure is the median of the rounds; rounds alternate the sides (ours, Chromium, ours, Chromium, /bin/true),
so that a change in machine load shows in both. The ratio is a row's time (signature_pad's, or the baseline's)
over ours with `--jobs 1` (both on one core).

Then, for the recordings: the size of signature_pad's `pad.toSVG()` (UTF-8 bytes) against ours, `signature-ink
render FILE -o X.svg --width 600 --height 300`, for the files whose pens are all opaque and for those with a
translucent pen (alpha < 1). Last, a light check: the PNG Chromium drew against NAME.pad.png, which the same
library drew when the recording was made (both decoded by the page the same way); printed, not enforced. The pad
drew a dot at each stroke's first point while the pen wrote, which fromData does not draw: most of the differing
pixels are there.
"""
import argparse, base64, glob, json, os, shutil, statistics, subprocess, sys, tempfile, time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from wholeruns import bin_path, spawn_ms  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
RECORDINGS = os.path.join(ROOT, "Tests", "Fixtures", "realink", "signature-pad-chromium", "dpr1")
NATIVE = os.path.join(ROOT, "Benchmarks", "Fixtures", "signatures")
UMD = os.path.join(HERE, "vendor", "signature_pad.umd.min.js")
BOX = ["--width", "600", "--height", "300"]

PAGE = """<!doctype html><meta charset="utf-8"><body style="margin:0">
<canvas id="c" width="600" height="300" style="width:600px;height:300px"></canvas>
<script>%s</script><script>
const canvas = document.getElementById('c'), pad = new SignaturePad(canvas);
const defaults = {};
for (const k of ['penColor', 'backgroundColor', 'dotSize', 'minWidth', 'maxWidth', 'velocityFilterWeight',
                 'compositeOperation', 'throttle', 'minDistance']) defaults[k] = pad[k];
let corpus = [];
function draw(f) { Object.assign(pad, defaults, f.options); pad.clear(); pad.fromData(f.data, {clear: false}); }
function round(png) {
  let bytes = 0;
  const t = performance.now();
  for (const f of corpus) { draw(f); if (png) bytes += canvas.toDataURL('image/png').length; }
  return [performance.now() - t, bytes];
}
function translucent(f) {
  const x = document.createElement('canvas').getContext('2d');
  return f.data.some(g => g.compositeOperation !== 'destination-out' &&
                          (x.fillStyle = '#000', x.fillStyle = g.penColor, x.fillStyle.startsWith('rgba')));
}
function svgBytes(f) { draw(f); return new TextEncoder().encode(pad.toSVG()).length; }
async function pixels(url) {
  const img = new Image(); img.src = url; await img.decode();
  const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
  const x = c.getContext('2d', {willReadFrequently: true}); x.drawImage(img, 0, 0);
  return [img.width, img.height, x.getImageData(0, 0, img.width, img.height).data];
}
async function compare(f, padUrl) {
  draw(f);
  const [w, h, a] = await pixels(canvas.toDataURL('image/png')), [w2, h2, b] = await pixels(padUrl);
  if (w !== w2 || h !== h2) return {size: [w, h, w2, h2]};
  let differing = 0, most = 0;
  for (let p = 0; p < a.length; p += 4) {
    let d = 0;
    for (let k = 0; k < 4; k++) d = Math.max(d, Math.abs(a[p + k] - b[p + k]));
    if (d) { differing++; most = Math.max(most, d); }
  }
  return {differing, most, pixels: w * h};
}
</script>"""


def ours_ms(tool, files, jobs, scratch):
    """One batch of ours into a new folder, per file in ms; every PNG must be there."""
    out = tempfile.mkdtemp(dir=scratch)
    ms = spawn_ms([tool, "render", *files, "--out-dir", out, *BOX, "--jobs", str(jobs), "--quiet"])
    missing = [f for f in files if not os.path.isfile(os.path.join(out, stem(f) + ".png"))]
    if missing:
        raise SystemExit(f"no PNG for {len(missing)} files, such as {missing[0]}")
    shutil.rmtree(out)
    return ms / len(files)


def stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=800,500",
                     "--force-device-scale-factor=1", "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def load(files):
    """The files as the page takes them: toData() and the constructor options of NAME.options.json, if any."""
    entries = []
    for f in files:
        side = f[:-len(".json")] + ".options.json"
        options = json.load(open(side))["options"] if os.path.exists(side) else {}
        entries.append({"data": json.load(open(f)), "options": options})
    return entries


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--corpus", choices=["recordings", "converted", "both"], default="both")
    parser.add_argument("--baseline", metavar="BINARY", help="another build of signature-ink, timed beside this one")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    tool = os.environ.get("SIGNATURE_INK") or os.path.join(
        bin_path(ROOT, ["-c", "release", "--static-swift-stdlib", "-Xswiftc", "-Xclang-linker", "-Xswiftc", "-no-pie"]),
        "signature-ink")
    scratch = tempfile.mkdtemp(prefix="padbench-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    driver = None
    try:
        corpora = {}
        if args.corpus in ("recordings", "both"):
            corpora["recordings"] = sorted(glob.glob(os.path.join(RECORDINGS, "*[0-9].json")))
        if args.corpus in ("converted", "both"):
            converted = os.path.join(scratch, "converted")
            subprocess.run([tool, "convert", NATIVE, "--include", "*.json", "--to", "signature-pad", "--out-dir",
                            converted, "--quiet"], check=True)
            corpora["converted"] = sorted(glob.glob(os.path.join(converted, "*.json")))
        page = os.path.join(scratch, "pad.html")
        with open(page, "w") as out:
            out.write(PAGE % open(UMD).read())
        driver = browser()
        driver.get("file://" + page)
        version = driver.capabilities.get("browserVersion", "?")
        rows, floor = [], []
        for name, files in corpora.items():
            n = len(files)
            driver.execute_script("corpus = arguments[0]", load(files))
            ours_ms(tool, files, 1, scratch)  # warms the file cache
            pad_png = driver.execute_script("return round(true)")
            driver.execute_script("return round(false)")
            if pad_png[1] == 0:
                raise SystemExit("the page made no PNG")
            times = {"ours1": [], "png": [], "ours2": [], "plain": [], "baseline": []}
            for _ in range(args.rounds):
                times["ours1"].append(ours_ms(tool, files, 1, scratch))
                if args.baseline:
                    times["baseline"].append(ours_ms(args.baseline, files, 1, scratch))
                times["png"].append(driver.execute_script("return round(true)")[0] / n)
                times["ours2"].append(ours_ms(tool, files, 2, scratch))
                times["plain"].append(driver.execute_script("return round(false)")[0] / n)
                floor.append(spawn_ms(["/bin/true"]))
            med = {k: statistics.median(v) for k, v in times.items() if v}
            label = f"{name} ({n})"
            rows += [(label, "ours: `render --jobs 1`, whole process", med["ours1"], None),
                     (label, "ours: `render --jobs 2`, whole process", med["ours2"], None),
                     (label, "signature_pad: fromData + toDataURL PNG", med["png"], med["png"] / med["ours1"]),
                     (label, "signature_pad: fromData only", med["plain"], med["plain"] / med["ours1"])]
            if args.baseline:
                rows.append((label, "baseline: `render --jobs 1`, whole process", med["baseline"],
                             med["baseline"] / med["ours1"]))
        true_ms = statistics.median(floor)
        rows.append(("-", "/bin/true spawn (ms per spawn)", true_ms, None))

        print(f"signature_pad 5.1.3 in Chromium {version} (headless, --disable-gpu); ours: {tool}; "
              f"{args.rounds} rounds\n")
        print("| corpus | pipeline | ms per file (median) | that / ours `--jobs 1` |\n|---|---|---|---|")
        for corpus, pipeline, ms, ratio in rows:
            print(f"| {corpus} | {pipeline} | {ms:.3f} | {'' if ratio is None else f'{ratio:.2f}x'} |")

        result = {"rounds": args.rounds, "chromium": version, "tool": tool,
                  "rows": [{"corpus": c, "pipeline": p, "ms_per_file": ms, "ratio": r} for c, p, ms, r in rows]}
        if "recordings" in corpora:
            files = corpora["recordings"]
            entries = load(files)
            svg = {"opaque": [0, 0, 0], "translucent": [0, 0, 0]}
            for f, entry in zip(files, entries):
                kind = "translucent" if driver.execute_script("return translucent(arguments[0])", entry) else "opaque"
                theirs = driver.execute_script("return svgBytes(arguments[0])", entry)
                mine = os.path.join(scratch, stem(f) + ".svg")
                subprocess.run([tool, "render", f, "-o", mine, *BOX], check=True)
                for i, v in enumerate((1, os.path.getsize(mine), theirs)):
                    svg[kind][i] += v
            svg["all"] = [a + b for a, b in zip(svg["opaque"], svg["translucent"])]
            print("\n| recordings, pens | files | ours SVG bytes | signature_pad toSVG bytes | ours / theirs |")
            print("|---|---|---|---|---|")
            for kind, (count, ours, theirs) in svg.items():
                if count:
                    print(f"| {kind} | {count} | {ours:,} | {theirs:,} | {ours / theirs:.2f} |")
            result["svg"] = {k: {"files": c, "ours_bytes": o, "signature_pad_bytes": t} for k, (c, o, t) in svg.items()}

            print("\nChromium's PNG against NAME.pad.png (informative):")
            result["pad_png"] = {}
            for f, entry in zip(files, entries):
                url = "data:image/png;base64," + base64.b64encode(open(f[:-5] + ".pad.png", "rb").read()).decode()
                got = driver.execute_async_script(
                    "compare(arguments[0], arguments[1]).then(arguments[2])", entry, url)
                result["pad_png"][stem(f)] = got
                if "size" in got:
                    print(f"  {stem(f)}: sizes differ, {got['size']}")
                else:
                    print(f"  {stem(f)}: {got['differing']} of {got['pixels']} pixels differ, "
                          f"largest channel difference {got['most']}")
        if args.json:
            with open(args.json, "w") as out:
                json.dump(result, out, indent=1)
    finally:
        if driver:
            driver.quit()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
