#!/usr/bin/env python3
# Derives the small seed files in Corpus/uim/ from the real Universal Ink Model files in Tests/Fixtures/realink
# (too large to fuzz whole): the input context and the first three strokes' sensor data, values unchanged.
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
source = os.path.join(here, "..", "Tests", "Fixtures", "realink", "wacom-uim")
for name in sorted(os.listdir(source)):
    if not name.endswith(".json"):
        continue
    with open(os.path.join(source, name)) as f:
        doc = json.load(f)
    small = {"inputData": {"inputContextData": doc["inputData"]["inputContextData"],
                           "sensorData": doc["inputData"]["sensorData"][:3]}}
    out = os.path.join(here, "Corpus", "uim", name.replace("-1.json", ".3-strokes.json"))
    with open(out, "w") as f:
        json.dump(small, f, separators=(",", ":"))
    print(out, os.path.getsize(out), file=sys.stderr)
