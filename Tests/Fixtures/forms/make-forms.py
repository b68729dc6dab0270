#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the PDF forms the form-signing tests read. Run once (needs `pip install pikepdf`); the PDFs are committed.

    python3 make-forms.py        (from this folder)

Each form has text set in Helvetica (pdftotext reads it back) and AcroForm fields whose widgets sit at known
rectangles, so the tests can check that the ink lands inside them and nowhere else:

- simple.pdf: two Letter pages, an empty signature field `Signature1` on page 1 and a filled text field `Name`.
- nested.pdf: three pages; the field `signatures` carries /FT /Sig for its kids `customer` (page 1, whose crop box is
  offset from its media box) and `courier` (page 2, rotated 90 degrees), whose widget is a kid of its own; page 3
  holds a text field.
- objstm.pdf: simple.pdf written with object streams and a compressed cross-reference stream.
- signed.pdf: a signature field `Approval` that already carries a signature dictionary (/V with /ByteRange and
  /Contents), and an empty signature field `Witness`.
- two-signers.pdf: a receipt with two empty signature fields on page 1, `Customer` and `Courier`, for a second
  digital signature that keeps the first valid.
- encrypted.pdf: simple.pdf encrypted with AES-256 and the user password `secret`.
- damaged.pdf: simple.pdf cut short in the middle of its objects.
- ten-pages.pdf: ten pages of text with an empty signature field on the last, for the signing benchmark.
- rotated.pdf: four pages turned 0, 90, 180 and 270 degrees, the second and fourth by an intermediate node of the
  page tree (/Rotate 90 and /Rotate -90, inherited), the third by its own /Rotate 180; each page has a crop box
  offset from its media box and an empty signature field `Sign0`, `Sign90`, `Sign180`, `Sign270` that reads as
  216 x 72 points, wider than tall, on the page as turned.
- need-appearances.pdf: simple.pdf whose AcroForm says /NeedAppearances true, as many form generators write.
- corrupt-content.pdf: simple.pdf whose first page's content stream is Flate data cut short (the cross-reference
  table is intact): a reader sees part of the page, and a rewrite that decodes it would lose the rest.
- bad-length.pdf: simple.pdf with the /Length of its first stream 5 bytes too long (no byte moved), which qpdf
  mends by looking for `endstream`.
- bad-xref.pdf: simple.pdf with a comment line of 12 bytes added after its header, so that every offset in its
  cross-reference table is 12 bytes short (its startxref moved with it), which qpdf mends by rebuilding the table.
"""
import os
import re
import zlib
import pikepdf
from pikepdf import Array, Dictionary, Name, String

here = os.path.dirname(os.path.abspath(__file__))


def font(pdf):
    return pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica,
                                        Encoding=Name.WinAnsiEncoding))


def page(pdf, lines, size=(612, 792), rotate=0, crop=None):
    body = "BT /F1 12 Tf 72 %d Td 16 TL " % (size[1] - 90)
    for line in lines:
        body += "(%s) ' " % line.replace("(", "\\(").replace(")", "\\)")
    body += "ET"
    p = pikepdf.Page(Dictionary(Type=Name.Page, MediaBox=Array([0, 0, size[0], size[1]]),
                                Resources=Dictionary(Font=Dictionary(F1=font(pdf))),
                                Contents=pdf.make_stream(body.encode("latin-1"))))
    if rotate:
        p.obj.Rotate = rotate
    if crop:
        p.obj.CropBox = Array(crop)
    pdf.pages.append(p)
    return pdf.pages[-1]


def widget(pdf, pg, rect, **fields):
    annotation = pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Widget, Rect=Array(rect), F=4, P=pg.obj,
                                              **fields))
    if "/Annots" not in pg.obj:
        pg.obj.Annots = Array()
    pg.obj.Annots.append(annotation)
    return annotation


def acroform(pdf, fields):
    pdf.Root.AcroForm = Dictionary(Fields=Array(fields), DA=String("/Helv 0 Tf 0 g"),
                                   DR=Dictionary(Font=Dictionary(Helv=font(pdf))))


def simple():
    pdf = pikepdf.new()
    p1 = page(pdf, ["Delivery note 4711", "Received in good order.", "Signature of the receiver:"])
    page(pdf, ["Terms and conditions", "Goods remain ours until paid in full."])
    sig = widget(pdf, p1, [72, 500, 288, 572], FT=Name.Sig, T=String("Signature1"))
    name = widget(pdf, p1, [320, 500, 540, 520], FT=Name.Tx, T=String("Name"), V=String("Ada Lovelace"))
    acroform(pdf, [sig, name])
    return pdf


def nested():
    pdf = pikepdf.new()
    p1 = page(pdf, ["Courier hand-over", "Customer signature:"], crop=[36, 36, 576, 756])
    p2 = page(pdf, ["Courier signature, on a page turned on its side:"], rotate=90)
    p3 = page(pdf, ["Notes"])
    parent = pdf.make_indirect(Dictionary(FT=Name.Sig, T=String("signatures"), Kids=Array()))
    customer = widget(pdf, p1, [100, 400, 316, 472], T=String("customer"), Parent=parent)
    courier = pdf.make_indirect(Dictionary(T=String("courier"), Parent=parent, Kids=Array()))
    courier_widget = widget(pdf, p2, [300, 200, 372, 416], Parent=courier)
    courier.Kids = Array([courier_widget])
    parent.Kids = Array([customer, courier])
    notes = widget(pdf, p3, [72, 600, 540, 700], FT=Name.Tx, T=String("notes"), V=String("Fragile"))
    acroform(pdf, [parent, notes])
    return pdf


def signed():
    pdf = pikepdf.new()
    p1 = page(pdf, ["Contract 2026-17", "Approved by:", "Witness:"])
    value = pdf.make_indirect(Dictionary(Type=Name.Sig, Filter=Name("/Adobe.PPKLite"),
                                         SubFilter=Name("/adbe.pkcs7.detached"), ByteRange=Array([0, 100, 200, 300]),
                                         Contents=String(bytes(64)), M=String("D:20261124120000Z")))
    approval = widget(pdf, p1, [72, 560, 288, 620], FT=Name.Sig, T=String("Approval"), V=value)
    witness = widget(pdf, p1, [72, 460, 288, 520], FT=Name.Sig, T=String("Witness"))
    acroform(pdf, [approval, witness])
    pdf.Root.AcroForm.SigFlags = 3
    return pdf


def two_signers():
    pdf = pikepdf.new()
    p1 = page(pdf, ["Receipt 2026-0815", "Customer:", "Courier:"])
    customer = widget(pdf, p1, [72, 560, 288, 620], FT=Name.Sig, T=String("Customer"))
    courier = widget(pdf, p1, [72, 460, 288, 520], FT=Name.Sig, T=String("Courier"))
    acroform(pdf, [customer, courier])
    return pdf


def ten_pages():
    pdf = pikepdf.new()
    for n in range(1, 11):
        page(pdf, ["Service agreement, page %d of 10" % n] + ["Clause %d.%d: the parties agree to the terms set out "
                                                              "here." % (n, k) for k in range(1, 30)])
    sig = widget(pdf, pdf.pages[9], [72, 60, 288, 120], FT=Name.Sig, T=String("CustomerSignature"))
    acroform(pdf, [sig])
    return pdf


def rotated():
    pdf = pikepdf.new()
    helvetica = font(pdf)
    root = pdf.Root.Pages
    root.Kids = Array()
    fields = []
    # Each widget reads 216 x 72 on the turned page: tall in the page's own space when it is turned a quarter.
    for turn, parent_turn in [(0, None), (None, 90), (180, None), (None, -90)]:
        degrees = turn if turn is not None else parent_turn % 360
        body = "BT /F1 12 Tf 72 700 Td (Page turned %d degrees) Tj ET" % degrees
        pg = pdf.make_indirect(Dictionary(Type=Name.Page, MediaBox=Array([0, 0, 612, 792]),
                                          CropBox=Array([20, 30, 592, 772]),
                                          Resources=Dictionary(Font=Dictionary(F1=helvetica)),
                                          Contents=pdf.make_stream(body.encode("latin-1"))))
        if turn:
            pg.Rotate = turn
        if parent_turn is None:
            pg.Parent = root
            root.Kids.append(pg)
        else:
            node = pdf.make_indirect(Dictionary(Type=Name.Pages, Kids=Array([pg]), Count=1, Rotate=parent_turn,
                                                Parent=root))
            pg.Parent = node
            root.Kids.append(node)
        rect = [100, 300, 316, 372] if degrees % 180 == 0 else [300, 200, 372, 416]
        annotation = pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Widget, Rect=Array(rect), F=4, P=pg,
                                                  FT=Name.Sig, T=String("Sign%d" % degrees)))
        pg.Annots = Array([annotation])
        fields.append(annotation)
    root.Count = 4
    acroform(pdf, fields)
    return pdf


def need_appearances():
    pdf = simple()
    pdf.Root.AcroForm.NeedAppearances = True
    return pdf


def corrupt_content():
    pdf = simple()
    first = pdf.pages[0].obj
    data = zlib.compress(first.Contents.read_bytes() + b" " * 400)
    first.Contents.write(data[: len(data) // 2], filter=Name.FlateDecode)
    return pdf


def save(pdf, name, **options):
    pdf.save(os.path.join(here, name), deterministic_id=True, **options)


def main():
    save(simple(), "simple.pdf", object_stream_mode=pikepdf.ObjectStreamMode.disable)
    save(nested(), "nested.pdf", object_stream_mode=pikepdf.ObjectStreamMode.disable)
    save(simple(), "objstm.pdf", object_stream_mode=pikepdf.ObjectStreamMode.generate)
    save(signed(), "signed.pdf", object_stream_mode=pikepdf.ObjectStreamMode.disable)
    save(two_signers(), "two-signers.pdf", object_stream_mode=pikepdf.ObjectStreamMode.disable)
    save(ten_pages(), "ten-pages.pdf", object_stream_mode=pikepdf.ObjectStreamMode.disable)
    simple().save(os.path.join(here, "encrypted.pdf"), encryption=pikepdf.Encryption(user="secret", owner="owner", R=6),
                  static_id=True)
    save(rotated(), "rotated.pdf", object_stream_mode=pikepdf.ObjectStreamMode.disable)
    save(need_appearances(), "need-appearances.pdf", object_stream_mode=pikepdf.ObjectStreamMode.disable)
    save(corrupt_content(), "corrupt-content.pdf", object_stream_mode=pikepdf.ObjectStreamMode.disable,
         compress_streams=False, stream_decode_level=pikepdf.StreamDecodeLevel.none)
    data = open(os.path.join(here, "simple.pdf"), "rb").read()
    length = re.search(rb"/Length (\d+)", data)
    wrong = b"/Length %d" % (int(length.group(1)) + 5)
    assert len(wrong) == len(length.group(0))
    with open(os.path.join(here, "bad-length.pdf"), "wb") as f:
        f.write(data[: length.start()] + wrong + data[length.end():])
    after_header = data.index(b"\n", data.index(b"\n") + 1) + 1
    padded = data[:after_header] + b"%" + b" " * 10 + b"\n" + data[after_header:]
    start = padded.rindex(b"startxref\n") + len(b"startxref\n")
    end = padded.index(b"\n", start)
    with open(os.path.join(here, "bad-xref.pdf"), "wb") as f:
        f.write(padded[:start] + b"%d" % (int(padded[start:end]) + 12) + padded[end:])
    with open(os.path.join(here, "damaged.pdf"), "wb") as f:
        f.write(data[: len(data) // 2])


if __name__ == "__main__":
    main()
