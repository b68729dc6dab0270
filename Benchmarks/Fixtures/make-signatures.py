#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Derives the signature-sized fixture set from the real ink.

Run from the repository root: `python3 Benchmarks/Fixtures/make-signatures.py REALINK_DIR`, where REALINK_DIR holds
`hwrt/` and `wacom-uim/` as `Tests/Fixtures/realink/SOURCES.md` describes them, with the five Wacom files
unabridged (the repository keeps only their first strokes; SOURCES.md names the original repository and commit).
Output: Benchmarks/Fixtures/signatures/*.json, one signature per file in the native `signature-ink` format.

ANCHORS.md's peers were measured on SVC2004 signatures of about 170 points fitted into 600x300 px. We have no
SVC2004 here, so signature-sized groups are cut from pen input recorded by people:
- each Wacom UIM page (pen, with pressure) is cut into runs of consecutive strokes holding 140..210 samples that
  stay within one line of handwriting (MAX_GROUP_WIDTH x MAX_GROUP_HEIGHT on the page). Strokes are taken in
  recording order; a run closes as soon as it holds >= TARGET samples, or before a stroke that would leave the
  line or pass MAX_SAMPLES (kept if it holds >= MIN_SAMPLES, else dropped); a stroke longer than MAX_SAMPLES on
  its own is skipped;
- the three hwrt symbols with 140..210 samples are used whole;
- the signature_pad fixtures (18 and 25 points) are too small and are not used.
Each group is then scaled uniformly and centred into a 600x300 canvas with 16 px padding (the renderer's
default padding), so every renderer draws it at 1:1 with `framing: canvas`. Times are ms after the group's first
sample; `startTime` is the first sample's epoch ms. Nothing else is changed: no resampling, no smoothing, samples
with equal or backwards times are kept as recorded.
The same files feed our benchmarks, the CLI batch script and the peers script, so every figure uses one set."""
import json, os, sys

TARGET, MIN_SAMPLES, MAX_SAMPLES = 170, 140, 210
WIDTH, HEIGHT, PADDING = 600.0, 300.0, 16.0
# Bounds of one group on the page, in the UIM's 96-dpi pixels: about one line of handwriting, a signature's shape.
MAX_GROUP_WIDTH, MAX_GROUP_HEIGHT = 900.0, 120.0

if len(sys.argv) != 2:
    sys.exit(__doc__)
root = sys.argv[1]
outdir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "signatures")
os.makedirs(outdir, exist_ok=True)
for old in os.listdir(outdir):
    if old.endswith(".json"):
        os.remove(os.path.join(outdir, old))


def fit(strokes):
    """Scales and centres strokes of (x, y, t, p) into the canvas with padding; returns new strokes."""
    xs = [s[0] for st in strokes for s in st]
    ys = [s[1] for st in strokes for s in st]
    minx, maxx, miny, maxy = min(xs), max(xs), min(ys), max(ys)
    w, h = max(maxx - minx, 1e-9), max(maxy - miny, 1e-9)
    k = min((WIDTH - 2 * PADDING) / w, (HEIGHT - 2 * PADDING) / h)
    ox = (WIDTH - w * k) / 2 - minx * k
    oy = (HEIGHT - h * k) / 2 - miny * k
    return [[(x * k + ox, y * k + oy, t, p) for x, y, t, p in st] for st in strokes]


def write(name, strokes, start_time, source):
    """Writes one native document; strokes hold (x, y, t ms after start_time, pressure or None)."""
    strokes = fit(strokes)
    has_p = any(s[3] is not None for st in strokes for s in st)
    channels = ["x", "y", "t"] + (["pressure"] if has_p else [])
    rows = []
    for st in strokes:
        pts = []
        for x, y, t, p in st:
            v = [round(x, 2), round(y, 2), round(t, 3)]
            if has_p:
                v.append(None if p is None else round(min(max(p, 0.0), 1.0), 4))
            pts.append(json.dumps(v, separators=(",", ":")))
        rows.append("[" + ",".join(pts) + "]")
    head = {"format": "signature-ink", "version": 1,
            "canvas": {"width": WIDTH, "height": HEIGHT, "unitsPerInch": 96},
            "startTime": int(round(start_time)), "metadata": {"source": source},
            "channels": channels}
    text = json.dumps(head, separators=(",", ":"))[:-1] + ',"strokes":[\n' + ",\n".join(rows) + "]}\n"
    with open(os.path.join(outdir, name + ".json"), "w") as f:
        f.write(text)


count = 0
for f in ["293035.json", "293036.json", "292934.json", "97705.json"]:
    d = json.load(open(os.path.join(root, "hwrt", f)))
    n = sum(len(s) for s in d)
    if not MIN_SAMPLES <= n <= MAX_SAMPLES:
        continue
    t0 = d[0][0]["time"]
    write(f"hwrt-{f[:-5]}", [[(p["x"], p["y"], p["time"] - t0, None) for p in s] for s in d], t0, "hwrt/" + f)
    count += 1

for f in ["Value-of-Ink-1.json", "Digital-Ink-is-processable-1.json", "Digital-Ink-1.json",
          "Hello-World-1.json", "Cell-Structure-1.json"]:
    d = json.load(open(os.path.join(root, "wacom-uim", f)))
    kinds = {}
    for sc in d["inputData"]["inputContextData"]["sensorContexts"]:
        for cc in sc["sensorChannelsContext"]:
            for ch in cc["channels"]:
                kinds[ch["id"]] = (ch["type"].split("/")[-1], 10 ** ch.get("precision", 0))
    strokes = []  # (absolute epoch ms of the stroke, [(x, y, t relative to the stroke, p)])
    for s in d["inputData"]["sensorData"]:
        base = float(s["timestamp"])
        ch = {}
        for dc in s["dataChannels"]:
            kind, scale = kinds[dc["sensorChannelID"]]
            acc, vals = 0, []
            for v in dc["values"]:
                acc += v
                vals.append(acc / scale)
            ch[kind] = vals
        xs, ys, ts, ps = ch["X"], ch["Y"], ch.get("Timestamp", []), ch.get("Pressure", [])
        pts = [(xs[i], ys[i], ts[i] if i < len(ts) else 0.0, ps[i] if i < len(ps) else None)
               for i in range(min(len(xs), len(ys)))]
        if pts:
            strokes.append((base, pts))
    group, n, index = [], 0, 0
    box = None  # the group's bounds on the page: [minx, miny, maxx, maxy]
    stem = f[:-len("-1.json")].lower()

    for base, pts in strokes:
        if len(pts) > MAX_SAMPLES:
            continue
        xs, ys = [q[0] for q in pts], [q[1] for q in pts]
        b = [min(xs), min(ys), max(xs), max(ys)]
        u = b if box is None else [min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3])]
        if group and (u[2] - u[0] > MAX_GROUP_WIDTH or u[3] - u[1] > MAX_GROUP_HEIGHT or n + len(pts) > MAX_SAMPLES):
            # The stroke is on another line, too far along this one, or would make the group too long.
            if n >= MIN_SAMPLES:
                t0 = group[0][0] + group[0][1][0][2]
                write(f"uim-{stem}-{index:03d}",
                      [[(x, y, bb + t - t0, p) for x, y, t, p in st] for bb, st in group], t0, "wacom-uim/" + f)
                index += 1
                count += 1
            group, n, u = [], 0, b
        group.append((base, pts))
        n += len(pts)
        box = u
        if n >= TARGET:
            t0 = group[0][0] + group[0][1][0][2]
            write(f"uim-{stem}-{index:03d}",
                  [[(x, y, bb + t - t0, p) for x, y, t, p in st] for bb, st in group], t0, "wacom-uim/" + f)
            index += 1
            count += 1
            group, n, box = [], 0, None

print(f"wrote {count} signatures to {outdir}")
