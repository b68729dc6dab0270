#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the synthetic signatures in this folder (native signature-ink JSON, version 1).

Each signature is a seeded sequence of cursive letter shapes joined into pen strokes. A stroke's keypoints
are joined by a Catmull-Rom spline; the pen moves along it at a speed that follows the two-thirds power law of
handwriting (speed proportional to the cube root of the radius of curvature: slow in turns, fast on straight
parts), sampled at the device rate with a small tremor. Run `python3 SampleStrokes/generate.py` to rebuild them.
"""
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

# Letter shapes in em units: x to the right, y up from the baseline, x-height 1.
SHAPES = {
    "hump": [(0, 0), (0.15, 0.8), (0.45, 1.0), (0.7, 0.6), (0.8, 0)],
    "loop": [(0, 0.2), (0.55, 0.75), (0.45, 1.0), (0.15, 0.6), (0.3, 0.05), (0.75, 0.1)],
    "tall": [(0, 0.2), (0.5, 1.5), (0.45, 2.1), (0.2, 1.6), (0.3, 0.1), (0.7, 0.15)],
    "dip": [(0, 0.6), (0.2, 0.0), (0.45, -0.9), (0.3, -1.1), (0.2, -0.6), (0.7, 0.2)],
    "cup": [(0, 0.9), (0.1, 0.1), (0.4, 0.0), (0.6, 0.9), (0.65, 0.1), (0.85, 0.1)],
    "oval": [(0.6, 0.8), (0.3, 1.0), (0.05, 0.5), (0.3, 0.0), (0.6, 0.5), (0.6, 0.9), (0.65, 0.1), (0.85, 0.15)],
}
CAPITALS = {
    "arch": [(0, 0), (0.2, 1.6), (0.5, 2.4), (0.8, 1.6), (1.0, 0.0), (1.1, 0.9), (1.3, 1.0)],
    "swirl": [(0.9, 2.0), (0.4, 2.4), (0.1, 1.8), (0.5, 1.1), (1.0, 0.5), (0.6, 0.0), (0.0, 0.3)],
    "stem": [(0.3, 2.4), (0.25, 1.2), (0.2, 0.0), (0.1, 0.4), (0.7, 1.6), (1.2, 2.2), (1.0, 1.2)],
}


def catmull_rom(points, steps=24):
    """Dense points along a Catmull-Rom spline through `points`."""
    if len(points) < 2:
        return list(points)
    pts = [points[0]] + list(points) + [points[-1]]
    out = []
    for i in range(1, len(pts) - 2):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[i + 1], pts[i + 2]
        for k in range(steps):
            t = k / steps
            t2, t3 = t * t, t * t * t
            out.append(tuple(
                0.5 * (2 * p1[d] + (-p0[d] + p2[d]) * t + (2 * p0[d] - 5 * p1[d] + 4 * p2[d] - p3[d]) * t2
                       + (-p0[d] + 3 * p1[d] - 3 * p2[d] + p3[d]) * t3) for d in (0, 1)))
    out.append(points[-1])
    return out


def sample_stroke(path, rng, t0, rate_hz, gain, tremor, with_pressure, with_tilt):
    """Samples a dense path at `rate_hz`, moving at a speed set by the two-thirds power law."""
    # Arc length and local speed along the path.
    seg = []
    for i in range(1, len(path)):
        (x0, y0), (x1, y1) = path[i - 1], path[i]
        seg.append(math.hypot(x1 - x0, y1 - y0))
    speeds = []
    for i in range(len(seg)):
        a, b, c = path[max(i - 1, 0)], path[i], path[min(i + 1, len(path) - 1)]
        ab, bc, ca = math.dist(a, b), math.dist(b, c), math.dist(c, a)
        cross = abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))
        radius = (ab * bc * ca) / (2 * cross) if cross > 1e-9 else 1e4
        speeds.append(gain * min(radius, 400.0) ** (1 / 3))  # px/ms
    # Ease in and out over the first and last 15% of the stroke.
    n = len(seg)
    for i in range(n):
        u = min(i, n - 1 - i) / max(1, 0.15 * n)
        speeds[i] *= 0.35 + 0.65 * min(1.0, u)
    # Walk the path in time.
    samples = []
    dt = 1000.0 / rate_hz
    t, i, along = 0.0, 0, 0.0
    total = sum(seg)
    travelled = 0.0
    while True:
        x0, y0 = path[i]
        frac = along / seg[i] if seg[i] > 0 else 0
        x = x0 + (path[i + 1][0] - x0) * frac + rng.gauss(0, tremor)
        y = y0 + (path[i + 1][1] - y0) * frac + rng.gauss(0, tremor)
        s = {"x": round(x, 2), "y": round(y, 2), "t": round(t0 + t, 3)}
        if with_pressure:
            progress = travelled / total if total else 0
            p = 0.25 + 0.55 * math.sin(math.pi * min(1, progress * 1.15)) ** 0.6 - 0.05 * speeds[i]
            s["pressure"] = round(min(1, max(0.02, p + rng.gauss(0, 0.01))), 3)
        if with_tilt:
            s["altitude"] = round(0.9 + 0.1 * math.sin(t / 300), 3)
            s["azimuth"] = round(2.3 + 0.2 * math.cos(t / 500), 3)
        samples.append(s)
        step = speeds[i] * dt
        while step > 0 and i < n:
            left = seg[i] - along
            if step < left:
                along += step
                travelled += step
                step = 0
            else:
                step -= left
                travelled += left
                i += 1
                along = 0
        if i >= n:
            break
        t += dt * rng.uniform(0.97, 1.03)
    last = path[-1]
    samples.append({**samples[-1], "x": round(last[0], 2), "y": round(last[1], 2), "t": round(t0 + t + dt, 3)})
    return samples


def word(rng, shapes, origin, em, slant=0.25):
    """Keypoints of one cursive word in canvas units (y down)."""
    ox, oy = origin
    pts = []
    x = 0.0
    for name in shapes:
        table = CAPITALS if name in CAPITALS else SHAPES
        for (sx, sy) in table[name]:
            jx, jy = rng.gauss(0, 0.04), rng.gauss(0, 0.04)
            px = ox + (x + sx + jx + slant * sy) * em
            py = oy - (sy + jy) * em
            pts.append((px, py))
        x += max(p[0] for p in table[name]) + 0.05
    return pts


def signature(name, seed, strokes_spec, canvas=(600, 300), rate=120, gain=0.12, tremor=0.12, pressure=False,
              tilt=False, gaps=(120, 420), meta=None):
    rng = random.Random(seed)
    strokes, t = [], 0.0
    for spec in strokes_spec:
        kind = spec[0]
        if kind == "word":
            _, shapes, origin, em = spec
            path = catmull_rom(word(rng, shapes, origin, em))
        elif kind == "line":
            _, a, b = spec
            path = catmull_rom([a, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 + 3), b])
        elif kind == "dot":
            _, (x, y) = spec
            s = {"x": x, "y": y, "t": round(t, 3)}
            if pressure:
                s["pressure"] = 0.4
            strokes.append([s])
            t += rng.uniform(*gaps)
            continue
        samples = sample_stroke(path, rng, t, rate, gain, tremor, pressure, tilt)
        strokes.append(samples)
        t = samples[-1]["t"] + rng.uniform(*gaps)
    channels = ["x", "y", "t"] + (["pressure"] if pressure else []) + (["altitude", "azimuth"] if tilt else [])
    doc = {"format": "signature-ink", "version": 1}
    if canvas:
        doc["canvas"] = {"width": canvas[0], "height": canvas[1], "unitsPerInch": 96}
    doc["startTime"] = 1763700000000 + seed * 1000
    doc["metadata"] = {"app": "SampleStrokes/generate.py", "device": "synthetic", **(meta or {})}
    doc["channels"] = channels
    doc["strokes"] = [[[s[c] for c in channels] for s in stroke] for stroke in strokes]
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        f.write('{"format":"signature-ink","version":1')
        for k in ("canvas", "startTime", "metadata", "channels"):
            if k in doc:
                f.write(',"%s":%s' % (k, json.dumps(doc[k], separators=(",", ":"), sort_keys=True)))
        f.write(',"strokes":[')
        f.write(",".join("\n" + json.dumps(s, separators=(",", ":")) for s in doc["strokes"]))
        f.write("]}\n")


def main():
    signature("short-name", 1, [("word", ["arch", "loop", "hump", "hump"], (150, 190), 42)])
    signature("long-name", 2, [
        ("word", ["swirl", "loop", "tall", "oval", "hump", "loop"], (40, 150), 34),
        ("word", ["stem", "oval", "hump", "tall", "loop", "cup", "dip", "loop"], (300, 200), 30),
        ("line", (60, 240), (560, 228)),
    ])
    signature("single-dot", 3, [("dot", (300, 150))])
    signature("initials", 4, [
        ("word", ["arch"], (190, 200), 55), ("dot", (265, 203)),
        ("word", ["stem"], (320, 200), 55), ("dot", (400, 203)),
    ])
    signature("fast-scribble", 5, [("word", ["swirl", "loop", "loop", "hump", "dip", "loop", "tall", "hump"],
                                    (60, 190), 40)], rate=60, gain=0.4, tremor=0.05)
    signature("pressure", 6, [
        ("word", ["arch", "oval", "tall", "tall", "oval"], (110, 180), 44),
        ("line", (120, 215), (470, 210)),
    ], rate=240, pressure=True, meta={"device": "synthetic pen, 240 Hz"})
    signature("long-gaps", 7, [
        ("word", ["stem", "hump"], (100, 180), 40),
        ("word", ["swirl", "loop"], (260, 180), 40),
        ("word", ["arch", "cup", "dip"], (420, 180), 40),
    ], gaps=(2000, 5000))
    signature("dotted-i", 8, [
        ("word", ["stem", "cup", "loop", "cup", "hump", "cup"], (120, 190), 40),
        ("dot", (246, 138)), ("dot", (382, 136)),
    ])
    signature("slow-shaky", 9, [("word", ["arch", "hump", "oval", "loop"], (160, 190), 40)],
              gain=0.05, tremor=0.3, rate=100)
    signature("tilt", 10, [("word", ["swirl", "oval", "loop", "tall"], (170, 190), 40)],
              pressure=True, tilt=True, rate=200, meta={"device": "synthetic pen with tilt"})
    signature("no-canvas", 11, [("word", ["stem", "loop", "hump", "dip"], (40, 120), 36)], canvas=None)
    signature("past-the-edge", 12, [("word", ["swirl", "loop", "tall", "hump", "loop", "oval", "hump"],
                                     (-20, 170), 52)])


if __name__ == "__main__":
    main()
