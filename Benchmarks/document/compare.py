#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The three-page, two-signer consent document (Benchmarks/Fixtures/document) made into a PDF three ways, in one
run on the same content: our PagedDocument per document in a batch (one process), ours in a new process per
document, and headless Chromium printing consent.html in a new process per document (the usual way web stacks make
such PDFs). Prints the median of ROUNDS each.

Usage (from the repository root, after `cd Benchmarks && swift build -c release --product document-timing`):
    python3 Benchmarks/document/compare.py [ROUNDS]      (default 15; needs Debian's chromium)
"""
import json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from wholeruns import bin_path, timed  # noqa: E402

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
binary = os.path.join(bin_path(os.path.join(root, "Benchmarks"), ["-c", "release"]), "document-timing")
page = "file://" + os.path.join(root, "Benchmarks", "Fixtures", "document", "consent.html")


with tempfile.TemporaryDirectory() as tmp:
    batch = json.loads(subprocess.run([binary, "--rounds", str(max(rounds, 30))], check=True, capture_output=True,
                                      text=True).stdout)["median_ms"]
    ours = timed([binary, os.path.join(tmp, "ours.pdf")], rounds)
    chromium = timed(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                      "--print-to-pdf=" + os.path.join(tmp, "chromium.pdf"), page], rounds)
print(f"signature-ink, per document in a batch: {batch:.1f} ms")
print(f"signature-ink, new process per document: {ours:.1f} ms")
print(f"Chromium --print-to-pdf, new process per document: {chromium:.1f} ms")
print(f"Chromium / ours: {chromium / batch:.0f}x (batch), {chromium / ours:.0f}x (new process)")
