#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The three-page, two-signer consent document (Benchmarks/Fixtures/document) made into a PDF by us and by Typst
(PyPI `typst`, its Rust compiler), each in one process, in one run, two ways:

- one document for many signers: ours `document-timing --rounds N`, whose font map keeps the paragraphs' layouts
  from one document to the next; Typst's `Compiler` compiling a source whose signers' names change each time, so
  that its memoized layout of the rest is reused;
- nothing reused: ours with DOCUMENT_TIMING_FRESH=1, every paragraph starting with the document's number; Typst with
  the same number at the start of every paragraph, through `sys.inputs`.

Typst gets the same text, the same fonts (Noto Sans only, as ours), an A4 page with 2 cm margins, a running header
with the title and `Page n of N` in the footer, 11 pt body text spaced as ours, and the signatures as vector images:
our renderer's SVG of the same ink files; the script prints both page counts. Its PDFs are untagged, like ours (`pdf_tags=False`). Prints the median of ROUNDS each.

Usage (from the repository root, after `make release` and
`cd Benchmarks && swift build -c release --product document-timing`; needs `pip install typst`):
    python3 Benchmarks/document/beside_typst.py [ROUNDS [--keep DIR]]      (default 30; --keep writes DIR/typst.pdf,
                                                                            DIR/ours.pdf and DIR/consent.typ)
"""
import json, os, statistics, subprocess, sys, tempfile, time

import typst
from importlib.metadata import version

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from wholeruns import bin_path  # noqa: E402

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 30
keep = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--keep" else None
fixtures = os.path.join(root, "Benchmarks", "Fixtures")
timing = os.path.join(bin_path(os.path.join(root, "Benchmarks"), ["-c", "release"]), "document-timing")
tool = os.path.join(bin_path(root, ["-c", "release"]), "signature-ink")
fonts = ["NotoSans-Regular.ttf", "NotoSans-Bold.ttf", "NotoSans-Italic.ttf", "NotoSans-BoldItalic.ttf"]


def escaped(text):
    """`text` as Typst markup that shows it as it is."""
    for special in "\\#*_[]$<>@`=-+/~":
        text = text.replace(special, "\\" + special)
    return text


def source(document, signers):
    """The document as Typst markup; `sys.inputs.tag` starts every paragraph, `sys.inputs.n` follows each name."""
    grey = 'rgb("#757575")'
    lines = [
        '#let tag = sys.inputs.at("tag", default: "")',
        '#let n = sys.inputs.at("n", default: "")',
        f'#set page(paper: "a4", margin: 2cm, header: text(size: 8pt, fill: {grey})[{escaped(document["title"])}], '
        f'footer: context align(center, text(size: 8pt, fill: {grey})[Page #counter(page).display() of '
        '#counter(page).final().first()]))',
        '#set text(font: "Noto Sans", size: 11pt, lang: "en", fill: rgb("#212121"))',
        # Our spacing: lines 1.15 of the font's height apart, half a line between paragraphs, headings of 20 and 14 pt.
        '#set text(top-edge: "ascender", bottom-edge: "descender")',
        '#set par(leading: 0.2em, spacing: 0.7em)',
        '#show heading.where(level: 1): set text(size: 20pt)',
        '#show heading.where(level: 2): set text(size: 14pt)',
        '#show heading.where(level: 3): set text(size: 12pt)',
        f'= {escaped(document["title"])}',
    ]
    for section in document["sections"]:
        lines.append(f'== {escaped(section["title"])}')
        for paragraph in section["content"].split("\n\n"):
            lines += [f"#(tag){escaped(paragraph)}", ""]
    lines.append(f'== {escaped(document["signaturePageTitle"])}')
    for signer in signers:
        lines.append(f'=== {escaped(signer["role"])}')
        lines.append(f'#block(breakable: false)[#image("{signer["ink"][:-5]}.svg", height: 60pt) '
                     f'#line(length: 240pt) #text(size: 9pt)[{escaped(signer["name"])} #n #h(1fr) {signer["date"]}]]')
    return "\n".join(lines) + "\n"


def pages(pdf):
    """A PDF's page count, as pdfinfo reads it."""
    info = subprocess.run(["pdfinfo", pdf], check=True, capture_output=True, text=True).stdout
    return next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:"))


def median_ms(work):
    """The median of `rounds` runs of `work(i)` after one to warm up, in ms."""
    times = []
    for i in range(rounds + 1):
        start = time.perf_counter()
        work(i)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times[1:])


def ours(fresh):
    environment = dict(os.environ, DOCUMENT_TIMING_FRESH="1" if fresh else "0")
    out = subprocess.run([timing, "--rounds", str(rounds)], check=True, capture_output=True, text=True, env=environment)
    return json.loads(out.stdout)["median_ms"]


with tempfile.TemporaryDirectory() as tmp:
    document = json.load(open(os.path.join(fixtures, "document", "consent.json")))
    signers = json.load(open(os.path.join(fixtures, "document", "signers.json")))
    for signer in signers:
        subprocess.run([tool, "render", os.path.join(fixtures, "signatures", signer["ink"]),
                        "-o", os.path.join(tmp, signer["ink"][:-5] + ".svg")], check=True)
    os.mkdir(os.path.join(tmp, "fonts"))
    for font in fonts:
        os.symlink(os.path.join("/usr/share/fonts/truetype/noto", font), os.path.join(tmp, "fonts", font))
    main = os.path.join(tmp, "consent.typ")
    open(main, "w").write(source(document, signers))
    compiler = typst.Compiler(main, root=tmp, font_paths=[os.path.join(tmp, "fonts")], ignore_system_fonts=True)
    sample = compiler.compile(format="pdf", pdf_tags=False)
    open(os.path.join(tmp, "typst.pdf"), "wb").write(sample)
    subprocess.run([timing, os.path.join(tmp, "ours.pdf")], check=True)
    typst_pages, ours_pages = pages(os.path.join(tmp, "typst.pdf")), pages(os.path.join(tmp, "ours.pdf"))
    if keep:
        for name in ["typst.pdf", "ours.pdf", "consent.typ"]:
            open(os.path.join(keep, name), "wb").write(open(os.path.join(tmp, name), "rb").read())
    figures = {
        "ours, one document for many signers": ours(fresh=False),
        "Typst, one document for many signers": median_ms(
            lambda i: compiler.compile(format="pdf", pdf_tags=False, sys_inputs={"n": str(i)})),
        "ours, nothing reused": ours(fresh=True),
        "Typst, nothing reused": median_ms(
            lambda i: compiler.compile(format="pdf", pdf_tags=False, sys_inputs={"n": str(i), "tag": f"r{i} "})),
    }

print(f"Typst {version('typst')} ({typst_pages} pages) beside ours ({ours_pages} pages), one process each, medians of {rounds}:")
for name, ms in figures.items():
    print(f"  {name}: {ms:.2f} ms")
print(f"Typst / ours: {figures['Typst, one document for many signers'] / figures['ours, one document for many signers']:.2f}x "
      f"for one document, {figures['Typst, nothing reused'] / figures['ours, nothing reused']:.2f}x with nothing reused")
