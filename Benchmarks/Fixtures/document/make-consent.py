#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the consent document the Document benchmark and the Chromium comparison both render.

Usage: python3 make-consent.py   (from this folder; writes consent.json and consent.html)

consent.json: a consent document (docs/consent-document.schema.json) with a title, eight sections of two
paragraphs (three A4 pages at 11 pt) and two signature slots; signers.json: each signer's name, date and signature
file of Benchmarks/Fixtures/signatures. consent.html: the same text as an HTML page for
`chromium --headless --print-to-pdf`, the signatures as inline SVG made by `signature-ink render --format svg`
(run `swift build -c release` in the repository first).
"""
import html, json, os, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, "..", "..", ".."))

SENTENCES = [
    "You are invited to take part in a research study about how people sign documents on phones and tablets.",
    "Taking part is voluntary, and you may stop at any time without giving a reason and without any penalty.",
    "We will record the strokes of your signature, the time of each point and, where your device reports it, the pen pressure.",
    "The recordings are stored on servers of the study team and are kept for five years after the study ends.",
    "Only members of the study team can see data that identifies you; published results never name anyone.",
    "Each session takes about twenty minutes, and you will be asked to sign a short text several times.",
    "There are no known risks beyond those of everyday use of a phone or a tablet.",
    "You will not be paid for taking part, but you will receive a summary of the results if you ask for it.",
    "If you withdraw, the recordings made until then are deleted within thirty days unless you agree to keep them.",
    "Questions about the study can be sent to the study team at any time, before, during or after your sessions.",
    "An independent ethics committee has reviewed the study and approved the way it protects participants.",
    "By signing below you confirm that you have read this document and that your questions have been answered.",
]
TITLES = ["Overview", "Data gathering", "Privacy", "Data use", "Time commitment", "Study tasks",
          "Withdrawing", "Contact and questions"]


def paragraph(section, index):
    picks = [SENTENCES[(section * 5 + index * 3 + k) % len(SENTENCES)] for k in range(4)]
    return " ".join(picks)


def main():
    sections = [{"title": t, "paragraphs": [paragraph(s, p) for p in range(2)]} for s, t in enumerate(TITLES)]
    signers = [
        {"slot": "participant", "role": "Participant", "name": "Ada Lovelace", "date": "2026-11-24",
         "ink": "uim-hello-world-000.json"},
        {"slot": "investigator", "role": "Investigator", "name": "Charles Babbage", "date": "2026-11-24",
         "ink": "uim-value-of-ink-000.json"},
    ]
    title = "Consent to take part in the Signing on Screens study"
    # The consent document as SignatureInkConsent reads it (docs/consent-document.schema.json).
    doc = {
        "title": title,
        "sections": [{"identifier": "section-%d" % (i + 1), "kind": "custom", "title": s["title"],
                      "content": "\n\n".join(s["paragraphs"])} for i, s in enumerate(sections)],
        "signaturePageTitle": "Signatures",
        "slots": [{"identifier": s["slot"], "title": s["role"]} for s in signers],
    }
    with open(os.path.join(here, "consent.json"), "w") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(here, "signers.json"), "w") as f:
        json.dump(signers, f, indent=2, ensure_ascii=False)
        f.write("\n")
    doc = {"title": title, "sections": sections, "signers": signers}
    tool = os.path.join(root, ".build", "release", "signature-ink")
    parts = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>%s</title><style>"
             "@page{size:A4;margin:2cm}body{font-family:'Noto Sans',sans-serif;font-size:11pt;line-height:1.35}"
             "h1{font-size:20pt}h2{font-size:14pt;break-after:avoid}.sig{break-inside:avoid;width:8cm}"
             ".sig svg{width:100%%;height:auto}.line{border-top:1px solid #757575;display:flex;"
             "justify-content:space-between;font-size:9pt}</style></head><body>" % html.escape(doc["title"]),
             "<h1>%s</h1>" % html.escape(doc["title"])]
    for section in doc["sections"]:
        parts.append("<h2>%s</h2>" % html.escape(section["title"]))
        parts += ["<p>%s</p>" % html.escape(p) for p in section["paragraphs"]]
    for signer in doc["signers"]:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "signature.svg")
            subprocess.run([tool, "render", os.path.join(root, "Benchmarks", "Fixtures", "signatures", signer["ink"]),
                            "-o", out, "--fit", "--width", "300", "--height", "90"], check=True)
            svg = open(out).read()
        parts.append("<div class='sig'>%s<div class='line'><span>%s, %s</span><span>%s</span></div></div>"
                     % (svg, html.escape(signer["name"]), html.escape(signer["role"]), signer["date"]))
    parts.append("</body></html>\n")
    with open(os.path.join(here, "consent.html"), "w") as f:
        f.write("".join(parts))


if __name__ == "__main__":
    sys.exit(main())
