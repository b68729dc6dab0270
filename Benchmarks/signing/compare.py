#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What a digital signature costs, ours beside pyHanko, in one run on the same files and keys. Prints medians in ms.

- ours, in one process (`seal-timing --rounds N`): the sample study consent signed without and with a seal (Audit
  trail page, record attached, certification signature), a new submission each time (names and time change, as in a
  batch), the seal alone on the unsealed PDF with each key, and the ten-page form's
  field signed with ink alone and with ink and a key; RSA-2048 and P-256 keys it makes and writes for the peer.
- pyHanko, in one process: the same unsealed consent PDF certified (FILL_FORMS) into a new invisible field with the
  same record embedded, and the same form's field signed (PAdES, no appearance), with the same keys.

Usage (from the repository root, after `cd Benchmarks && swift build -c release --product seal-timing`; needs
`pip install pyhanko`):
    python3 Benchmarks/signing/compare.py [ROUNDS]      (default 30)
"""
import io, json, os, statistics, subprocess, sys, tempfile, time

from pyhanko.pdf_utils import embed, generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.sign import fields, signers
from pyhanko.sign.fields import MDPPerm, SigSeedSubFilter
from importlib.metadata import version

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from wholeruns import bin_path  # noqa: E402

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 30
form = os.path.join(root, "Tests", "Fixtures", "forms", "ten-pages.pdf")
timing = os.path.join(bin_path(os.path.join(root, "Benchmarks"), ["-c", "release"]), "seal-timing")


def median_ms(work):
    """The median of `rounds` runs of `work` after one to warm up, in ms."""
    times = []
    for _ in range(rounds + 1):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times[1:])


def pyhanko_sign(pdf, signer, field, certify=False, record=None):
    """pyHanko's PAdES signature of `pdf` (bytes) into `field`: a certification with the record embedded, or not."""
    writer = IncrementalPdfFileWriter(io.BytesIO(pdf))
    if record is not None:
        data = embed.EmbeddedFileObject.from_file_data(writer, record, mime_type="application/json")
        embed.embed_file(writer, embed.FileSpec(file_spec_string="consent-record.json", file_name="consent-record.json",
                                                embedded_data=data, description="The consent record",
                                                af_relationship=generic.NameObject("/Data")))
    meta = signers.PdfSignatureMetadata(field_name=field, certify=certify, docmdp_permissions=MDPPerm.FILL_FORMS,
                                        subfilter=SigSeedSubFilter.PADES)
    out = io.BytesIO()
    signers.PdfSigner(meta, signer=signer,
                      new_field_spec=fields.SigFieldSpec(field) if certify else None).sign_pdf(writer, output=out)
    return out.getvalue()


with tempfile.TemporaryDirectory() as tmp:
    ours = json.loads(subprocess.run([timing, "--rounds", str(rounds), "--write", tmp], check=True, capture_output=True,
                                     text=True).stdout)
    consent = open(os.path.join(tmp, "consent.pdf"), "rb").read()
    form_bytes = open(form, "rb").read()
    record = b"{}" * 4000  # a record of the usual size (about 8 KB)
    peer = {}
    for name, prefix in [("rsa2048", "rsa"), ("p256", "p256")]:
        signer = signers.SimpleSigner.load(os.path.join(tmp, f"{prefix}-key.pem"), os.path.join(tmp, f"{prefix}-cert.pem"))
        peer[f"certify_{name}"] = median_ms(lambda: pyhanko_sign(consent, signer, "Seal", certify=True, record=record))
        peer[f"form_field_{name}"] = median_ms(lambda: pyhanko_sign(form_bytes, signer, "CustomerSignature"))

print(f"ours (seal-timing, one process, medians of {rounds}):")
print(f"  consent {ours['consent']:.2f} ms; sealed RSA-2048 {ours['consent_sealed_rsa2048']:.2f} ms "
      f"(+{ours['consent_sealed_rsa2048'] - ours['consent']:.2f}), P-256 {ours['consent_sealed_p256']:.2f} ms "
      f"(+{ours['consent_sealed_p256'] - ours['consent']:.2f}); the seal alone RSA-2048 {ours['seal_alone_rsa2048']:.2f} ms, "
      f"P-256 {ours['seal_alone_p256']:.2f} ms")
print(f"  form field, ink {ours['form_ink']:.2f} ms; ink and RSA-2048 key {ours['form_ink_rsa2048']:.2f} ms "
      f"(+{ours['form_ink_rsa2048'] - ours['form_ink']:.2f}), P-256 {ours['form_ink_p256']:.2f} ms "
      f"(+{ours['form_ink_p256'] - ours['form_ink']:.2f})")
print(f"pyHanko {version('pyhanko')} (one process, medians of {rounds}):")
print(f"  certify the unsealed consent with the record embedded: RSA-2048 {peer['certify_rsa2048']:.2f} ms, "
      f"P-256 {peer['certify_p256']:.2f} ms")
print(f"  sign the form's field (no appearance): RSA-2048 {peer['form_field_rsa2048']:.2f} ms, P-256 {peer['form_field_p256']:.2f} ms")
print(f"pyHanko / ours, the seal alone: RSA-2048 {peer['certify_rsa2048'] / ours['seal_alone_rsa2048']:.1f}x, "
      f"P-256 {peer['certify_p256'] / ours['seal_alone_p256']:.1f}x; "
      f"pyHanko's field signature / what our key adds (RSA-2048): "
      f"{peer['form_field_rsa2048'] / max(ours['form_ink_rsa2048'] - ours['form_ink'], 0.001):.1f}x")
