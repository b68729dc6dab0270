#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Signing a ten-page PDF form (Tests/Fixtures/forms/ten-pages.pdf, its signature field on page 10), ours beside the
usual ways, in one run on the same form. Prints the median of ROUNDS each.

- ours, in one process: `form-timing --rounds N` (decode the ink, draw it with name and date, fill the field's
  appearance through qpdf, write the file);
- ours, a new process per form: `signature-ink sign ... --field CustomerSignature`;
- pikepdf, in one process: open the form, overlay a one-page PDF of the same signature on page 10 inside the field's
  rectangle (`Page.add_overlay`), save;
- qpdf, a new process per form: `qpdf FORM --overlay SIGNATURE.pdf --to=10 -- OUT` with a page-sized PDF that has
  the signature at the field.

The peers place an already drawn signature; ours draws it from the strokes as well.

Usage (from the repository root, after `make release` and
`cd Benchmarks && swift build -c release --product form-timing`; needs `pip install pikepdf`):
    python3 Benchmarks/forms/compare.py [ROUNDS]      (default 15)
"""
import io, json, os, statistics, subprocess, sys, tempfile, time

import pikepdf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from wholeruns import bin_path, timed  # noqa: E402

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
form = os.path.join(root, "Tests", "Fixtures", "forms", "ten-pages.pdf")
ink = os.path.join(root, "Benchmarks", "Fixtures", "signatures", "uim-hello-world-000.json")
timing = os.path.join(bin_path(os.path.join(root, "Benchmarks"), ["-c", "release"]), "form-timing")
tool = os.path.join(bin_path(root, ["-c", "release", "--static-swift-stdlib", "-Xswiftc", "-Xclang-linker", "-Xswiftc", "-no-pie"]),
                    "signature-ink")


with tempfile.TemporaryDirectory() as tmp:
    # The signature alone as a one-page PDF, and on a page the size of the form's, at the field (72,60 216 x 60).
    signature = os.path.join(tmp, "signature.pdf")
    subprocess.run([tool, "render", ink, "-o", signature, "--fit", "--width", "216", "--height", "60"], check=True)
    blank = pikepdf.new()
    blank.add_blank_page(page_size=(612, 792))
    blank.save(os.path.join(tmp, "blank.pdf"))
    page_sized = os.path.join(tmp, "overlay.pdf")
    subprocess.run([tool, "sign", os.path.join(tmp, "blank.pdf"), "--ink", ink, "--page", "1", "--rect", "72,60,216,60",
                    "-o", page_sized], check=True)

    batch = json.loads(subprocess.run([timing, "--rounds", str(max(rounds, 30))], check=True, capture_output=True,
                                      text=True).stdout)["median_ms"]
    ours = timed([tool, "sign", form, "--ink", ink, "--field", "CustomerSignature", "--name", "Ada Lovelace",
                  "--date", "2026-11-25", "-o", os.path.join(tmp, "ours.pdf")], rounds)

    overlay = pikepdf.open(signature)
    times = []
    for _ in range(max(rounds, 30) + 1):
        start = time.perf_counter()
        pdf = pikepdf.open(form)
        pdf.pages[9].add_overlay(overlay.pages[0], pikepdf.Rectangle(72, 60, 288, 120))
        out = io.BytesIO()
        pdf.save(out)
        times.append((time.perf_counter() - start) * 1000)
    pike = statistics.median(times[1:])
    qpdf = timed(["qpdf", form, "--overlay", page_sized, "--to=10", "--", os.path.join(tmp, "qpdf.pdf")], rounds)

print(f"signature-ink, per form in one process: {batch:.2f} ms")
print(f"signature-ink sign, new process per form: {ours:.1f} ms")
print(f"pikepdf {pikepdf.__version__} add_overlay + save, in one process: {pike:.2f} ms")
print(f"qpdf {subprocess.run(['qpdf', '--version'], capture_output=True, text=True).stdout.split()[2]} --overlay, new process per form: {qpdf:.1f} ms")
print(f"pikepdf / ours (one process): {pike / batch:.2f}x; qpdf / ours (new process): {qpdf / ours:.2f}x")
