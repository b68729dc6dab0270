#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Derives the Universal Ink Model fixtures in wacom-uim/ from the original exports.

Usage: derive-uim.py SOURCE_DIR [STROKES]

SOURCE_DIR holds the original files of Wacom-Developer/universal-ink-library's `ink/uim_3.0.0_json/`
(see SOURCES.md). Each fixture keeps the first STROKES strokes (default 100) of the original: the whole
`inputData.inputContextData`, the first STROKES entries of `inputData.sensorData` with their values unchanged,
the `inkData.strokes` recorded from those entries, `brushes` and `transform`. The ink tree, views and knowledge
graph, which describe the whole document, are left out. The output is compact JSON, and the script prints the
table of strokes, points and median interval that SOURCES.md and the tests quote.
"""
import json
import os
import statistics
import sys

NAMES = ["Value-of-Ink-1.json", "Digital-Ink-is-processable-1.json", "Digital-Ink-1.json",
         "Hello-World-1.json", "Cell-Structure-1.json"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    source = sys.argv[1]
    keep = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    out_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wacom-uim")
    os.makedirs(out_dir, exist_ok=True)
    print("| file | strokes | points | median positive dt (ms) | bytes |")
    print("|---|---|---|---|---|")
    for name in NAMES:
        with open(os.path.join(source, name)) as f:
            doc = json.load(f)
        sensor = doc["inputData"]["sensorData"][:keep]
        ids = {entry["id"] for entry in sensor}
        derived = {"inputData": {"inputContextData": doc["inputData"]["inputContextData"], "sensorData": sensor}}
        strokes = [s for s in doc.get("inkData", {}).get("strokes", []) if s.get("sensorDataID") in ids]
        derived["inkData"] = {"strokes": strokes}
        for key in ("brushes", "transform"):
            if key in doc:
                derived[key] = doc[key]
        text = json.dumps(derived, separators=(",", ":"), ensure_ascii=False)
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(text + "\n")
        print(f"| {name} | {len(sensor)} | {points(doc, sensor)} | {median_interval(doc, sensor)} | {len(text) + 1} |")


def channel_ids(doc, kind):
    """The ids of the channels of one kind (X, Timestamp, ...)."""
    found = set()
    for context in doc["inputData"]["inputContextData"]["sensorContexts"]:
        for group in context["sensorChannelsContext"]:
            for channel in group["channels"]:
                if channel["type"].endswith("/" + kind):
                    found.add(channel["id"])
    return found


def points(doc, sensor):
    xs = channel_ids(doc, "X")
    return sum(len(c["values"]) for s in sensor for c in s["dataChannels"] if c["sensorChannelID"] in xs)


def median_interval(doc, sensor):
    """The median of the positive intervals between samples, in the channel's units (milliseconds here)."""
    ts = channel_ids(doc, "Timestamp")
    deltas = [v for s in sensor for c in s["dataChannels"] if c["sensorChannelID"] in ts for v in c["values"][1:]]
    return statistics.median([d for d in deltas if d > 0])


if __name__ == "__main__":
    main()
