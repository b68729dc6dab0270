#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Derives the benchmark fixture from the real ink (run from the repository root:
`python3 Benchmarks/Fixtures/make-fixtures.py REALINK_DIR`). Output: Benchmarks/Fixtures/realink.ink, one sample
per line.

REALINK_DIR holds `hwrt/`, `signature-pad/` and `wacom-uim/` as `Tests/Fixtures/realink/SOURCES.md` describes
them, with the five Wacom files unabridged (the repository keeps only their first strokes; SOURCES.md names the
original repository and commit). The committed fixture was made from the unabridged files.

Format: `# comment`, `signature <name>` starts a signature, `stroke` starts a stroke, then one `x y t p` line per
sample (canvas units, ms since the signature's first sample, pressure or `-` when the device has none)."""
import json, os, sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
root = sys.argv[1]
out = open(os.path.join(os.path.dirname(__file__), "realink.ink"), "w")
out.write("# Derived from the real ink of Tests/Fixtures/realink/SOURCES.md (origin and licences) by make-fixtures.py\n")

def emit(name, strokes):
    out.write(f"signature {name}\n")
    for s in strokes:
        out.write("stroke\n")
        for x, y, t, p in s:
            ps = "-" if p is None else f"{p:.3g}"
            out.write(f"{x:.2f} {y:.2f} {t:.6g} {ps}\n")

for f in ["97705.json", "292934.json", "293035.json", "293036.json"]:
    d = json.load(open(os.path.join(root, "hwrt", f)))
    t0 = d[0][0]["time"]
    emit("hwrt/" + f, [[(p["x"], p["y"], p["time"] - t0, None) for p in s] for s in d])
for f in ["face.derived.json", "square.derived.json"]:
    d = json.load(open(os.path.join(root, "signature-pad", f)))
    t0 = d[0]["points"][0]["time"]
    emit("signature-pad/" + f, [[(p["x"], p["y"], p["time"] - t0, None) for p in g["points"]] for g in d])
for f in ["Value-of-Ink-1.json", "Digital-Ink-is-processable-1.json", "Digital-Ink-1.json",
          "Hello-World-1.json", "Cell-Structure-1.json"]:
    d = json.load(open(os.path.join(root, "wacom-uim", f)))
    kinds = {}
    for sc in d["inputData"]["inputContextData"]["sensorContexts"]:
        for cc in sc["sensorChannelsContext"]:
            for ch in cc["channels"]:
                kinds[ch["id"]] = (ch["type"].split("/")[-1], 10 ** ch.get("precision", 0))
    strokes, t0 = [], None
    for s in d["inputData"]["sensorData"]:
        base = float(s["timestamp"])
        t0 = base if t0 is None else t0
        ch = {}
        for dc in s["dataChannels"]:
            kind, scale = kinds[dc["sensorChannelID"]]
            acc, vals = 0, []
            for v in dc["values"]:
                acc += v
                vals.append(acc / scale)
            ch[kind] = vals
        xs, ys, ts, ps = ch["X"], ch["Y"], ch.get("Timestamp", []), ch.get("Pressure", [])
        strokes.append([(xs[i], ys[i], base - t0 + (ts[i] if i < len(ts) else 0), ps[i] if i < len(ps) else None)
                        for i in range(min(len(xs), len(ys)))])
    emit("wacom-uim/" + f, strokes)
