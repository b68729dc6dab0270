#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs the peers on the same fixture as the Swift benchmarks, one core, median of rounds:
perfect-freehand (Python port of the JS library) `get_stroke`, and `simplification` (Rust, via Python)
RDP and Visvalingam-Whyatt at 0.5 px. Setup: `pip install perfect-freehand simplification`.
Run from the Benchmarks folder: `python3 Compare/compare.py`."""
import os, statistics, time
import numpy as np
from perfect_freehand import get_stroke
from simplification.cutil import simplify_coords, simplify_coords_vw

here = os.path.dirname(os.path.abspath(__file__))
strokes, cur = [], []
for line in open(os.path.join(here, "..", "Fixtures", "realink.ink")):
    line = line.strip()
    if line.startswith("#"):
        continue
    if line.startswith("signature") or line == "stroke":
        if cur:
            strokes.append(cur)
        cur = []
        continue
    x, y, t, p = line.split(" ")
    cur.append((float(x), float(y), None if p == "-" else float(p)))
if cur:
    strokes.append(cur)
n = sum(len(s) for s in strokes)
xy = [[(x, y) for x, y, _ in s] for s in strokes]
xyp = [[(x, y, p) if p is not None else (x, y) for x, y, p in s] for s in strokes]
arrays = [np.array(s, dtype=np.float64) for s in xy]


def median_rate(fn, rounds):
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    m = statistics.median(times)
    return m, n / m


def pf():
    for s, sp in zip(xy, xyp):
        get_stroke(sp, size=3, simulate_pressure=len(sp[0]) == 2)


def rdp():
    for a in arrays:
        simplify_coords(a, 0.5)


def vw():
    for a in arrays:
        # VW in `simplification` takes an area threshold; 0.5 px^2 is comparable in effect.
        simplify_coords_vw(a, 0.5)


print(f"{n} samples in {len(strokes)} strokes")
for name, fn, rounds in [("perfect-freehand get_stroke (Python)", pf, 5),
                         ("simplification RDP 0.5 px (Rust via Python)", rdp, 30),
                         ("simplification VW 0.5 px^2 (Rust via Python)", vw, 30)]:
    m, rate = median_rate(fn, rounds)
    print(f"{name}: median {m * 1000:.1f} ms per pass, {rate / 1e6:.2f} M samples/s")
