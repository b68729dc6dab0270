#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""PAdES signatures of `signature-ink sign --key` and `consent --seal-key`, proved valid by tools that did not
make them.

A throw-away PKI is made with the `openssl` command: a root CA, an intermediate CA it signs, and three signers the
intermediate signs, with P-256, P-384 and RSA-2048 keys (digitalSignature and nonRepudiation), their private keys
written as PKCS#8 and as SEC1 or PKCS#1. The tool signs five forms with them (a cross-reference table; object
streams and a cross-reference stream; a large government form, whose 12-point field takes no printed name or date;
a nested field; turned pages, signed by two signers one after the other), with the intermediate embedded by --chain
or not, and every signature is checked:

- by pyHanko, through the API `pyhanko sign validate --trust ROOT --trust-replace [--other-certs INTERMEDIATE]`
  uses: INTACT:TRUSTED,UNTOUCHED, and the first of two signers INTACT:TRUSTED,EXTENDED_WITH_FORM_FILLING,
  ACCEPTABLE_MODIFICATIONS once the second has signed;
- by poppler's pdfsig, against an NSS database that trusts the root: "Signature is Valid.", "Certificate is
  Trusted." and "Total document signed" (the first of two: "Not total document signed");
- by `openssl cms -verify` of the CMS in /Contents over the bytes /ByteRange names, anchored at the root;
- in the file, read with pikepdf (qpdf): /Filter /Adobe.PPKLite, /SubFilter /ETSI.CAdES.detached, /M a date;
  /ByteRange from byte 0 to the end of the signature's revision, leaving out exactly /Contents' hex string, which
  holds one DER object and zero padding; each signing an incremental update that keeps the bytes before it;
- in the CMS, read with asn1crypto: detached SignedData, one signer, the intermediate among its certificates exactly
  when --chain gave it, and signed attributes exactly content-type, message-digest (the digest of the signed bytes)
  and signing-certificate-v2 (the signer's certificate), as PAdES B-B asks: no signing-time.

Then two changes to the signed simple.pdf. One bit of its signed bytes flipped (a letter of a text field's value),
which pyHanko, pdfsig and openssl must all refuse. And an incremental update that draws on page 1, which leaves the
signed bytes intact: openssl still verifies them and pdfsig says what it says of the first of two signatures
("Signature is Valid.", "Not total document signed"), while pyHanko judges it
INTACT:TRUSTED,EXTENDED_WITH_OTHER,ILLEGAL_MODIFICATIONS, bottom line false.

The second signer of a file signs a field of its own with a certificate of its own. Not nested.pdf's
`signatures.courier`, whose widget is a kid of the field: pdfsig 22.12 reads no signature there ("The signature form
field is not signed.") and pyHanko 0.38 judges any signing of it an illegal modification of the earlier signature,
pyHanko's own signing too. Not the same certificate twice: pdfsig 22.12 trusts a certificate for the first
signature it validates with it, and reports "Unknown issue with Certificate or corrupted data." for the next.

Then the sealed consent: `signature-ink consent --seal-key` signs SampleStrokes/consent/study-consent.json for two
signers and seals it twice, with the RSA-2048 signer's key and --seal-chain, and with the P-256 signer's key and no
chain (the validators are given the intermediate as above; `consent verify` only as a second --trust certificate,
the one way its command line takes one). Each sealed PDF is checked:

- its seal, the field Seal, as every signature above (pikepdf, the CMS, openssl, pyHanko UNTOUCHED, pdfsig), and
  as a certification signature: an invisible widget (zero-size /Rect), /Reference naming /DocMDP with /P 2, the
  catalog's /Perms /DocMDP naming it; pyHanko reads it as certifying with MDPPerm.FILL_FORMS, docmdp_ok true.
  pdfsig 22.12 prints nothing of certification (none of its messages names it or DocMDP), so nothing is asked of it;
- the consent record inside, as pikepdf finds it (the catalog's /AF, one file spec, /AFRelationship /Data, listed in
  /Names /EmbeddedFiles as consent-record.json, /Subtype /application/json) and as pyHanko's reader finds it through
  /AF: JSON whose pdfSHA256 is the SHA-256 of the file before the seal's update (up to the %%EOF line of the revision
  before it, which pyHanko's cross-reference reading finds), while the --record file's is the SHA-256 of the sealed
  file, the two otherwise the same;
- its last page, by pdftotext: "Audit trail", each signer's name, "Review agreed", and "SHA-256 of its content:"
  the SHA-256 of the record inside with its pdfSHA256 value emptied (`"pdfSHA256" : ""`, the bytes the tool digests);
- `consent verify SEALED.pdf --trust ROOT` (exit 0, "the seal is intact and trusted"), `consent verify RECORD SEALED`
  (exit 0); the two changes above, a bit flipped in the link on page 1 and a drawing appended, with the same
  verdicts, and `consent verify` exiting 1 for them ("do not match the seal's message digest", "changed after it
  was sealed"), and for a root of another PKI ("does not chain to a trusted root").

Usage: python3 Tests/Signing/check_signatures.py SIGNATURE_INK_BINARY      (make test-signing runs it)
       python3 Tests/Signing/check_signatures.py --self-test-with-pyhanko
The second signs with pyHanko's PAdES signer instead of the tool, adding a commitment-type-indication, a signed
attribute PAdES allows and the tool must not write: every check passes on those files but the exact signed
attributes, which must fail there (and is reported ok when it does). It shows that the checks accept another
signer's valid signatures and that the attribute check can fail. It leaves out the sealed consents, which only the
tool makes.
Needs pyhanko, pikepdf and the openssl, pdfsig, pdftotext and certutil commands. Prints
`ok   CASE: CHECK (WHAT WAS SEEN)` or `FAIL CASE: CHECK: WHAT WAS SEEN` for each check, then the counts; exits 1 if any
check failed.
"""
import hashlib, json, logging, os, re, subprocess, sys, tempfile
from dataclasses import dataclass

import pikepdf
from asn1crypto import cms, pem
from pyhanko.keys import load_cert_from_pemder
from pyhanko.pdf_utils.generic import StreamObject
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign import signers
from pyhanko.sign.ades.api import CAdESSignedAttrSpec, GenericCommitment
from pyhanko.sign.diff_analysis import ModificationLevel
from pyhanko.sign.fields import MDPPerm, SigSeedSubFilter
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.pdf_embedded import read_certification_data
from pyhanko.sign.validation.status import SignatureCoverageLevel
from pyhanko_certvalidator import ValidationContext

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FORMS = os.path.join(root, "Tests", "Fixtures", "forms")
INK = os.path.join(root, "Tests", "Fixtures", "records", "short-name.record.json")
SAMPLES = os.path.join(root, "SampleStrokes")
DATE = "2026-11-25T14:30:00+01:00"
EXPECTED_ATTRIBUTES = ["content_type", "message_digest", "signing_certificate_v2"]
# A PDF date (ISO 32000-1, 7.9.4) as a signature's /M gives it: to the second, then the offset if any.
PDF_DATE = re.compile(r"D:\d{14}(Z|[+-]\d{2}'?\d{2}'?)?$")
passed = []
failures = []


def check(case, what, test):
    """Runs `test`, which returns (passed, what it saw), prints one line and returns whether it passed.

    An exception `test` raises is a failure.
    """
    try:
        ok, seen = test()
    except Exception as error:  # a check that cannot even look has failed, for the reason that stopped it
        ok, seen = False, f"{type(error).__name__}: {error}"
    if ok:
        print(f"ok   {case}: {what}" + (f" ({seen})" if seen else ""))
        passed.append(what)
    else:
        print(f"FAIL {case}: {what}: {seen}")
        failures.append(f"{case}: {what}")
    return ok


def run(command):
    """Runs a command, its output captured as text."""
    return subprocess.run(command, capture_output=True, text=True)


def run_or_stop(*command):
    """Runs a command that makes the test PKI or trust store; stops the program if it fails."""
    result = run(command)
    if result.returncode != 0:
        raise SystemExit(f"error: {' '.join(command)} failed: {result.stderr.strip()}")


# The extensions of each kind of certificate; `req` needs the first two sections to run without a prompt.
OPENSSL_CONFIG = """\
[req]
distinguished_name = subject
prompt = no
[subject]
CN = unused
[root_ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[intermediate_ca]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[signer]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
"""
# How `openssl genpkey` makes each kind of key.
KEY_OPTIONS = {
    "P-256": ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"],
    "P-384": ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"],
    "RSA-2048": ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"],
}
# The PEM label of each way of writing a private key.
KEY_LABELS = {"PKCS#8": "PRIVATE KEY", "SEC1": "EC PRIVATE KEY", "PKCS#1": "RSA PRIVATE KEY"}


class TestPKI:
    """A root CA, an intermediate CA and a signer of each key kind, made with `openssl` in `folder`, valid for two days.

    Each signer's private key is written twice: as PKCS#8, and as SEC1 (EC keys) or PKCS#1 (RSA keys). A second root
    CA, `other_root`, issues nothing: a root no signature here chains to.
    """

    def __init__(self, folder):
        os.makedirs(folder)
        self.folder = folder
        self.serial = 0
        self.config = self.path("openssl.cnf")
        with open(self.config, "w") as f:
            f.write(OPENSSL_CONFIG)
        self.root = self.certificate("root", "SignatureInk Test Root CA", "root_ca", self.path("root.key"), "P-256")
        self.intermediate = self.certificate("intermediate", "SignatureInk Test Intermediate CA", "intermediate_ca",
                                             self.path("intermediate.key"), "P-256", issuer="root")
        self.other_root = self.certificate("other-root", "SignatureInk Other Root CA", "root_ca",
                                           self.path("other-root.key"), "P-256")
        # OpenSSL 3.0's `cms -verify` has no -untrusted: an intermediate it is not given in the CMS comes from
        # -CAfile, where it is no trust anchor (the chain must still end at the self-signed root).
        self.root_and_intermediate = self.path("root-and-intermediate.pem")
        with open(self.root_and_intermediate, "w") as bundle:
            for certificate in (self.root, self.intermediate):
                with open(certificate) as f:
                    bundle.write(f.read())
        self.certificates = {}
        for kind in KEY_OPTIONS:
            self.certificates[kind] = self.certificate(kind.lower(), f"Ada Lovelace ({kind})", "signer",
                                                       self.key(kind, "PKCS#8"), kind, issuer="intermediate")
            other = "SEC1" if kind.startswith("P-") else "PKCS#1"
            rewrite = ["ec"] if other == "SEC1" else ["rsa", "-traditional"]
            run_or_stop("openssl", *rewrite, "-in", self.key(kind, "PKCS#8"), "-out", self.key(kind, other))
            for form in ("PKCS#8", other):
                with open(self.key(kind, form)) as f:
                    if not f.read().startswith(f"-----BEGIN {KEY_LABELS[form]}-----"):
                        raise SystemExit(f"error: openssl did not write the {kind} key as {form}")

    def path(self, name):
        return os.path.join(self.folder, name)

    def key(self, kind, form):
        """The file of the private key of the signer of `kind`, written as `form` (PKCS#8, SEC1 or PKCS#1)."""
        return self.path(f"{kind.lower()}.{form.replace('#', '').lower()}.key")

    def certificate(self, name, common_name, extensions, key, kind, issuer=None):
        """Makes a key of `kind` in `key` and the certificate NAME.pem for it, self-signed or signed by `issuer`."""
        run_or_stop("openssl", "genpkey", *KEY_OPTIONS[kind], "-out", key)
        subject = f"/O=SignatureInk tests/CN={common_name}"
        self.serial += 1
        serial = str(self.serial)
        certificate = self.path(name + ".pem")
        if issuer is None:
            run_or_stop("openssl", "req", "-new", "-x509", "-config", self.config, "-extensions", extensions,
                        "-key", key, "-subj", subject, "-days", "2", "-set_serial", serial, "-out", certificate)
        else:
            request = self.path(name + ".csr")
            run_or_stop("openssl", "req", "-new", "-config", self.config, "-key", key, "-subj", subject,
                        "-out", request)
            run_or_stop("openssl", "x509", "-req", "-in", request, "-CA", self.path(issuer + ".pem"),
                        "-CAkey", self.path(issuer + ".key"), "-set_serial", serial, "-days", "2",
                        "-extfile", self.config, "-extensions", extensions, "-out", certificate)
        return certificate


def der_certificate(path):
    """The DER bytes of the one PEM certificate in `path`."""
    with open(path, "rb") as f:
        return pem.unarmor(f.read())[2]


def nss_database(folder, pki, with_intermediate):
    """An NSS database in `folder`, for pdfsig, trusting the root to issue signers; the intermediate too if asked."""
    os.makedirs(folder)
    database = "sql:" + folder
    run_or_stop("certutil", "-N", "-d", database, "--empty-password")
    run_or_stop("certutil", "-A", "-d", database, "-n", "root", "-t", "CT,C,C", "-i", pki.root)
    if with_intermediate:
        run_or_stop("certutil", "-A", "-d", database, "-n", "intermediate", "-t", ",,", "-i", pki.intermediate)
    return database


@dataclass
class Signing:
    """One signer's turn: the field, the kind of key, and how its private key file is written."""
    field: str
    key: str
    key_form: str
    printed: bool = True  # a name and a date under the ink, which need a field at least 24 points tall


@dataclass
class Case:
    """A form signed by one or more signers in turn, each output the next one's input."""
    form: str
    signings: list
    chain: bool  # whether --chain embeds the intermediate in the CMS

    @property
    def label(self):
        keys = " then ".join(f"{s.key} {s.key_form}" for s in self.signings)
        return f"{self.form} ({keys}, {'chain' if self.chain else 'no chain'})"


# Six signings in all, a few seconds.
CASES = [
    Case("simple.pdf", [Signing("Signature1", "P-256", "SEC1")], chain=True),
    Case("objstm.pdf", [Signing("Signature1", "P-384", "PKCS#8")], chain=False),
    Case("va21-0966.pdf", [Signing("F[0].#subform[1].Digital_Signature[0]", "RSA-2048", "PKCS#1", printed=False)],
         chain=False),
    Case("nested.pdf", [Signing("signatures.customer", "P-256", "PKCS#8")], chain=True),
    Case("rotated.pdf", [Signing("Sign0", "P-384", "SEC1"), Signing("Sign90", "RSA-2048", "PKCS#8")], chain=True),
]
# The case whose output is tampered with, and a string in its signed bytes (the text field's value) to flip a bit of.
TAMPERED_FORM = "simple.pdf"
TAMPERED_TEXT = b"(Ada Lovelace)"


def tool_signer(binary):
    """Signing with `signature-ink sign --key`: the record's ink, with a name and a date under it where they fit."""
    def sign(form, signing, pki, chain, output):
        """Signs `signing.field` of `form` into `output`; returns None, or what went wrong."""
        result = run([binary, "sign", form, "--field", signing.field, "--ink", INK,
                      "--key", pki.key(signing.key, signing.key_form), "--cert", pki.certificates[signing.key],
                      *(["--chain", pki.intermediate] if chain else []),
                      *(["--name", "Ada Lovelace", "--date", DATE] if signing.printed else []),
                      "-o", output])
        return None if result.returncode == 0 else f"exit {result.returncode}: {result.stderr.strip()}"
    return sign


def pyhanko_signer(form, signing, pki, chain, output):
    """Signs `signing.field` of `form` into `output` with pyHanko's PAdES signer; returns None, or what went wrong.

    The signature has a commitment-type-indication (proof of approval) beside pyHanko's PAdES signed attributes
    (content-type, message-digest, signing-certificate-v2, the tool's three): one attribute too many for the tool.
    """
    try:
        signer = signers.SimpleSigner.load(pki.key(signing.key, signing.key_form), pki.certificates[signing.key],
                                           ca_chain_files=[pki.intermediate] if chain else None)
        metadata = signers.PdfSignatureMetadata(
            field_name=signing.field, subfilter=SigSeedSubFilter.PADES,
            cades_signed_attr_spec=CAdESSignedAttrSpec(commitment_type=GenericCommitment.PROOF_OF_APPROVAL.asn1))
        with open(form, "rb") as source, open(output, "wb") as f:
            signers.sign_pdf(IncrementalPdfFileWriter(source), metadata, signer=signer, existing_fields_only=True,
                             output=f)
    except Exception as error:  # reported as the signing's failure
        return f"{type(error).__name__}: {error}"
    return None


def signature_dictionaries(path):
    """The signature dictionaries of the PDF's signed fields by full field name, read with pikepdf (qpdf)."""
    found = {}

    def walk(field, parent_name, inherited_type):
        name = ".".join(part for part in (parent_name, str(field.T) if "/T" in field else "") if part)
        field_type = field.get("/FT", inherited_type)
        if field_type == pikepdf.Name.Sig and "/V" in field:
            value = field.V
            found[name] = {"ByteRange": [int(n) for n in value.get("/ByteRange", [])],
                           "Contents": bytes(value.get("/Contents", b"")),
                           "Filter": str(value.get("/Filter", "")), "SubFilter": str(value.get("/SubFilter", "")),
                           "M": str(value.get("/M", ""))}
        for kid in field.get("/Kids", []):
            walk(kid, name, field_type)

    with pikepdf.open(path) as pdf:
        for field in pdf.Root.AcroForm.get("/Fields", []):
            walk(field, "", None)
    return found


def der_length(blob):
    """The length, header included, of the DER SEQUENCE at the start of `blob`; None if none starts there."""
    if len(blob) < 2 or blob[0] != 0x30:
        return None
    if blob[1] < 0x80:
        return 2 + blob[1]
    count = blob[1] & 0x7F
    if count == 0 or count > 4 or len(blob) < 2 + count:
        return None
    return 2 + count + int.from_bytes(blob[2:2 + count], "big")


class SignatureBytes:
    """What a signature's /ByteRange [a b c d] cuts from the file: the signed bytes, and /Contents' bytes and DER.

    Raises ValueError when the range is not four numbers or bytes b+1 to c-1 are not hex digits.
    """

    def __init__(self, data, byte_range):
        a, b, c, d = byte_range
        self.signed = data[a:a + b] + data[c:c + d]
        self.contents = bytes.fromhex(data[b + 1:c - 1].decode("ascii"))
        self.der = self.contents[:der_length(self.contents) or 0]


def check_dictionary(case, field, dictionary):
    """/Filter, /SubFilter and /M of the signature dictionary."""
    def test():
        seen = (dictionary["Filter"], dictionary["SubFilter"], dictionary["M"])
        return (seen[:2] == ("/Adobe.PPKLite", "/ETSI.CAdES.detached") and PDF_DATE.match(seen[2]) is not None,
                "/Filter %s /SubFilter %s /M %s" % seen)
    check(case, f"{field}: /Filter /Adobe.PPKLite, /SubFilter /ETSI.CAdES.detached, /M a PDF date", test)


def check_byte_range(case, field, data, dictionary, revision_length):
    """The signature's /ByteRange: from byte 0 to the end of its revision, leaving out exactly /Contents' <hex>."""
    def test():
        byte_range = dictionary["ByteRange"]
        if len(byte_range) != 4:
            return False, f"/ByteRange {byte_range} is not four numbers"
        a, b, c, d = byte_range
        hole = data[b:c]
        problems = []
        if a != 0:
            problems.append(f"starts at {a}, not 0")
        if not 0 < b < c <= len(data):
            problems.append(f"offsets {b} and {c} out of order or past the end ({len(data)} bytes)")
        if not re.fullmatch(rb"<[0-9A-Fa-f]*>", hole):
            problems.append(f"bytes {b} to {c} are not one hex string: {hole[:16]!r}...{hole[-16:]!r}")
        elif bytes.fromhex(hole[1:-1].decode("ascii")) != dictionary["Contents"]:
            problems.append("the hex string there is not the dictionary's /Contents")
        if not data[:b].rstrip().endswith(b"/Contents"):
            problems.append(f"what comes before byte {b} is not /Contents: {data[max(b - 20, 0):b]!r}")
        if c + d != revision_length:
            problems.append(f"ends at {c + d}, not at the end of its revision ({revision_length} bytes)")
        return not problems, "; ".join(problems) or f"[{a} {b} {c} {d}], {revision_length} bytes"
    check(case, f"{field}: /ByteRange is its revision but /Contents' hex string", test)


def openssl_verify(signature, trusted, folder, name):
    """`openssl cms -verify` of the signature's CMS over its signed bytes, -CAfile `trusted`.

    Returns its exit status and the first line it printed.
    """
    cms_file, content_file = os.path.join(folder, name + ".der"), os.path.join(folder, name + ".bin")
    with open(cms_file, "wb") as f:
        f.write(signature.der)
    with open(content_file, "wb") as f:
        f.write(signature.signed)
    result = run(["openssl", "cms", "-verify", "-inform", "DER", "-in", cms_file, "-content", content_file, "-binary",
                  "-CAfile", trusted, "-purpose", "any", "-out", os.devnull])
    return result.returncode, (result.stdout + result.stderr).strip().splitlines()[0]


def signed_data_and_signer(der):
    """The SignedData in a CMS ContentInfo, its first SignerInfo, and that signer's signed attributes by name."""
    content_info = cms.ContentInfo.load(der)
    if content_info["content_type"].native != "signed_data":
        raise ValueError(f"the CMS is {content_info['content_type'].native}, not signed data")
    signed_data = content_info["content"]
    signer = signed_data["signer_infos"][0]
    return signed_data, signer, {a["type"].native: a["values"][0] for a in signer["signed_attrs"]}


def check_cms(case, field, signature, pki, signing, chain, work, self_test):
    """The CMS in /Contents: its padding, `openssl cms -verify`, its structure and its signed attributes."""
    def padding():
        length = der_length(signature.contents)
        if length is None or length > len(signature.contents):
            return False, f"no whole DER SEQUENCE at the start ({signature.contents[:4].hex()}..., length {length})"
        rest = signature.contents[length:]
        return rest.count(0) == len(rest), f"{length} bytes of DER, {len(rest)} of padding"
    check(case, f"{field}: /Contents is one DER object, then zero bytes", padding)

    def verify():
        status, said = openssl_verify(signature, pki.root if chain else pki.root_and_intermediate, work, "cms")
        return status == 0 and said == "CMS Verification successful", f"exit {status}: {said}"
    check(case, f"{field}: openssl cms -verify over the signed bytes: CMS Verification successful", verify)

    def structure():
        signed_data, _, _ = signed_data_and_signer(signature.der)
        encapsulated = signed_data["encap_content_info"]
        certificates = [c.chosen.dump() for c in signed_data["certificates"]]
        wanted = [der_certificate(pki.certificates[signing.key])]
        if chain:
            wanted.append(der_certificate(pki.intermediate))
        problems = []
        if encapsulated["content_type"].native != "data" or encapsulated["content"].native is not None:
            problems.append("content not detached id-data")
        if len(signed_data["signer_infos"]) != 1:
            problems.append(f"{len(signed_data['signer_infos'])} signers")
        if sorted(certificates) != sorted(wanted):
            problems.append(f"{len(certificates)} certificates, not the {len(wanted)} wanted")
        return not problems, "; ".join(problems)
    check(case, f"{field}: detached SignedData, one signer, certificates the signer's"
          + (" and the intermediate" if chain else " alone"), structure)

    def exact_attributes():
        _, signer, _ = signed_data_and_signer(signature.der)
        types = [a["type"].native for a in signer["signed_attrs"]]
        return (sorted(types) == EXPECTED_ATTRIBUTES) != self_test, ", ".join(types)
    if self_test:
        what = f"{field}: signed attributes are not exactly the three (pyHanko's file, with a commitment type)"
    else:
        what = f"{field}: signed attributes exactly content-type, message-digest, signing-certificate-v2"
    check(case, what, exact_attributes)

    def message_digest():
        _, signer, attributes = signed_data_and_signer(signature.der)
        algorithm = signer["digest_algorithm"]["algorithm"].native
        return (attributes["content_type"].native == "data"
                and attributes["message_digest"].native == hashlib.new(algorithm, signature.signed).digest(),
                f"{algorithm}, content-type {attributes['content_type'].native}")
    check(case, f"{field}: message-digest the digest of the signed bytes, content-type id-data", message_digest)

    def signing_certificate():
        _, _, attributes = signed_data_and_signer(signature.der)
        named = attributes["signing_certificate_v2"]["certs"][0]
        algorithm = named["hash_algorithm"]["algorithm"].native
        certificate = der_certificate(pki.certificates[signing.key])
        return named["cert_hash"].native == hashlib.new(algorithm, certificate).digest(), f"by its {algorithm}"
    check(case, f"{field}: signing-certificate-v2 names the signer's certificate", signing_certificate)


def pyhanko_statuses(path, pki, chain):
    """pyHanko's validation of each signature in the file by field name: its status, or the error it raised.

    As `pyhanko sign validate --trust ROOT --trust-replace [--other-certs INTERMEDIATE]` does, without fetching
    revocation information (the test certificates name none).
    """
    statuses = {}
    with open(path, "rb") as f:
        try:
            signatures = PdfFileReader(f).embedded_regular_signatures
        except Exception as error:  # a file pyHanko cannot read: its error is all it says
            return {"(the file)": error}
        for embedded in signatures:
            context = ValidationContext(trust_roots=[load_cert_from_pemder(pki.root)],
                                        other_certs=[] if chain else [load_cert_from_pemder(pki.intermediate)])
            try:
                statuses[embedded.field_name] = validate_pdf_signature(embedded, signer_validation_context=context)
            except Exception as error:  # pyHanko's verdict on a signature it cannot validate
                statuses[embedded.field_name] = error
    return statuses


def pyhanko_said(status):
    """pyHanko's verdict in a line: its summary (what `pyhanko sign validate` prints) and the fields behind it."""
    if isinstance(status, Exception):
        return f"{type(status).__name__}: {status}"
    said = (f"{status.summary()}; modification level "
            f"{status.modification_level.name if status.modification_level else None}, docmdp_ok {status.docmdp_ok}, "
            f"bottom line {status.bottom_line}")
    if isinstance(status.diff_result, Exception):
        said += f"; {str(status.diff_result).splitlines()[0]}"
    return said


def pdfsig_reports(path, database):
    """What `pdfsig -nssdir DATABASE FILE` says of each signed field, by field name, one line each."""
    result = run(["pdfsig", "-nssdir", database, path])
    reports = {}
    for block in re.split(r"^Signature #\d+:\s*$", result.stdout, flags=re.MULTILINE)[1:]:
        name = re.search(r"- Signature Field Name: (.*)", block)
        if name and "The signature form field is not signed." not in block:
            verdicts = re.findall(r"- ((?:Not )?[Tt]otal document signed|(?:Signature|Certificate) Validation: .*)",
                                  block)
            reports[name.group(1).strip()] = " | ".join(verdicts)
    return reports


def pdfsig_said(report, last):
    """Whether a pdfsig report says valid and trusted, covering the file if the signature is the `last`."""
    verdicts = report.split(" | ")
    return ("Signature Validation: Signature is Valid." in verdicts
            and "Certificate Validation: Certificate is Trusted." in verdicts
            and ("Total document signed" if last else "Not total document signed") in verdicts)


def check_validators(case, path, signings, pki, databases, chain):
    """pyHanko and pdfsig on the final file: every signature valid and trusted; the earlier ones extended acceptably.

    Returns pyHanko's statuses by field name, as `pyhanko_statuses` gives them.
    """
    statuses = pyhanko_statuses(path, pki, chain)
    reports = pdfsig_reports(path, databases[chain])
    wanted = sorted(s.field for s in signings)
    check(case, "pyHanko and pdfsig find the signed fields, and no others", lambda: (
        sorted(statuses) == wanted and sorted(reports) == wanted,
        f"pyHanko {sorted(statuses)}, pdfsig {sorted(reports)}"))
    for index, signing in enumerate(signings):
        last = index == len(signings) - 1

        def pyhanko_test():
            status = statuses[signing.field]
            if isinstance(status, Exception) or not (status.intact and status.valid and status.trusted):
                return False, pyhanko_said(status)
            if last:
                extent = status.coverage == SignatureCoverageLevel.ENTIRE_FILE \
                    and status.modification_level == ModificationLevel.NONE
            else:
                extent = status.coverage == SignatureCoverageLevel.ENTIRE_REVISION \
                    and status.modification_level <= ModificationLevel.FORM_FILLING and status.docmdp_ok
            return extent and status.bottom_line, pyhanko_said(status)
        verdict = "UNTOUCHED" if last else "EXTENDED_WITH_FORM_FILLING,ACCEPTABLE_MODIFICATIONS"
        check(case, f"{signing.field}: pyHanko INTACT:TRUSTED,{verdict}", pyhanko_test)
        check(case, f"{signing.field}: pdfsig Signature is Valid., Certificate is Trusted., "
              + ("Total document signed" if last else "Not total document signed"),
              lambda: (pdfsig_said(reports[signing.field], last), reports[signing.field]))
    return statuses


def run_case(case, sign, pki, databases, work, self_test):
    """Signs the case's form with each signer in turn and checks every signature; returns the signed file, or None."""
    files = [os.path.join(FORMS, case.form)]
    for number, signing in enumerate(case.signings, start=1):
        output = os.path.join(work, f"{os.path.splitext(case.form)[0]}-{number}.pdf")
        error = sign(files[-1], signing, pki, case.chain, output)
        check(case.label, f"sign --field {signing.field}", lambda: (error is None, error))
        if error is not None:
            return None
        with open(files[-1], "rb") as before, open(output, "rb") as after:
            earlier, data = before.read(), after.read()
        check(case.label, f"{signing.field}: an incremental update, the {len(earlier)} bytes before it unchanged",
              lambda: (len(data) > len(earlier) and data.startswith(earlier), f"{len(data)} bytes"))
        files.append(output)

    with open(files[-1], "rb") as f:
        data = f.read()
    dictionaries = signature_dictionaries(files[-1])
    for signing, revision in zip(case.signings, files[1:]):
        check_signature(case.label, signing, data, dictionaries, os.path.getsize(revision), pki, case.chain, work,
                        self_test)
    check_validators(case.label, files[-1], case.signings, pki, databases, case.chain)
    return files[-1]


def check_signature(case, signing, data, dictionaries, revision_length, pki, chain, work, self_test):
    """What the file says of one signature: its dictionary, its /ByteRange (its revision `revision_length` bytes
    long) and the CMS in /Contents. `dictionaries` are the file's, as `signature_dictionaries` reads them."""
    dictionary = dictionaries.get(signing.field)
    if dictionary is None:
        check(case, f"{signing.field}: signed", lambda: (False, f"signed fields: {sorted(dictionaries)}"))
        return
    check_dictionary(case, signing.field, dictionary)
    check_byte_range(case, signing.field, data, dictionary, revision_length)
    try:
        signature = SignatureBytes(data, dictionary["ByteRange"])
    except ValueError as error:
        check(case, f"{signing.field}: the CMS and the signed bytes", lambda: (False, str(error)))
        return
    check_cms(case, signing.field, signature, pki, signing, chain, work, self_test)


def check_tampering(name, field, signed_path, text, pki, databases, chain, work):
    """A flipped bit in the signed `text` is refused; a drawing appended to page 1 is seen as such.

    `field` is the last signature of the file `signed_path`, whose checks are labelled `name`; `chain` says whether
    its CMS holds the intermediate. Returns the two changed files (flipped, drawn), or None if `text` is not signed.
    """
    trusted = pki.root if chain else pki.root_and_intermediate
    with open(signed_path, "rb") as f:
        data = bytearray(f.read())
    dictionary = signature_dictionaries(signed_path)[field]
    at = data.find(text) + 1  # the first letter of the string

    label = f"{name} with a flipped bit"
    if not check(label, f"the first letter of {text.decode()} is signed (byte {at})",
                 lambda: (0 < at < dictionary["ByteRange"][1], f"/ByteRange {dictionary['ByteRange']}")):
        return None
    data[at] ^= 0x20  # 'A' becomes 'a', 'h' 'H': the file reads as before
    flipped = os.path.splitext(signed_path)[0] + "-flipped.pdf"
    with open(flipped, "wb") as f:
        f.write(data)
    status = pyhanko_statuses(flipped, pki, chain).get(field)
    check(label, f"{field}: pyHanko INVALID, not intact", lambda: (
        isinstance(status, Exception) or not status.intact, pyhanko_said(status)))
    report = pdfsig_reports(flipped, databases[chain]).get(field, "")
    check(label, f"{field}: pdfsig does not say Signature is Valid.", lambda: (
        "Signature Validation:" in report and "Signature is Valid." not in report, report))

    def verify():
        status, said = openssl_verify(SignatureBytes(bytes(data), dictionary["ByteRange"]), trusted, work, "flipped")
        return status != 0 and said == "CMS Verification failure", f"exit {status}: {said}"
    check(label, f"{field}: openssl cms -verify: CMS Verification failure", verify)

    label = f"{name} with a drawing appended to page 1"
    drawn = os.path.splitext(signed_path)[0] + "-drawn.pdf"
    with open(signed_path, "rb") as source:
        writer = IncrementalPdfFileWriter(source)
        writer.add_stream_to_page(0, writer.add_object(StreamObject(stream_data=b"1 0 0 rg 72 72 144 36 re f")))
        with open(drawn, "wb") as f:
            writer.write(f)
    status = pyhanko_statuses(drawn, pki, chain).get(field)
    check(label, f"{field}: pyHanko INTACT:TRUSTED,EXTENDED_WITH_OTHER,ILLEGAL_MODIFICATIONS, bottom line false",
          lambda: (not isinstance(status, Exception) and status.intact and status.trusted
                   and status.modification_level == ModificationLevel.OTHER and status.docmdp_ok is False
                   and not status.bottom_line, pyhanko_said(status)))
    report = pdfsig_reports(drawn, databases[chain]).get(field, "")
    check(label, f"{field}: pdfsig Signature is Valid., Certificate is Trusted., Not total document signed",
          lambda: (pdfsig_said(report, last=False), report))

    def verify_drawn():
        with open(drawn, "rb") as f:
            signature = SignatureBytes(f.read(), dictionary["ByteRange"])
        status, said = openssl_verify(signature, trusted, work, "drawn")
        return status == 0 and said == "CMS Verification successful", f"exit {status}: {said}"
    check(label, f"{field}: openssl cms -verify: CMS Verification successful (the signed bytes are untouched)",
          verify_drawn)
    return flipped, drawn


CONSENT = os.path.join(SAMPLES, "consent", "study-consent.json")
# The consent's signers by slot: their ink (a file of SampleStrokes) and printed name.
CONSENT_SIGNERS = {"participant": ("long-name.json", "Ada Lovelace"),
                   "investigator": ("short-name.json", "Charles Babbage")}
RECORD_NAME = "consent-record.json"
# A string in the signed bytes of a sealed consent to flip a bit of: the link on page 1 to the study's page.
SEALED_TEXT = b"(https://example.org/signing-study)"


@dataclass
class Sealing:
    """The consent document signed by its two signers and sealed by the signer `seal` names, in the field Seal."""
    seal: Signing
    chain: bool  # whether --seal-chain embeds the intermediate in the CMS

    @property
    def label(self):
        return (f"{os.path.basename(CONSENT)} sealed ({self.seal.key} {self.seal.key_form}, "
                f"{'chain' if self.chain else 'no chain'})")


SEALINGS = [
    Sealing(Signing("Seal", "RSA-2048", "PKCS#8", printed=False), chain=True),
    Sealing(Signing("Seal", "P-256", "SEC1", printed=False), chain=False),
]


def before_update(path, field):
    """The bytes of the file before the incremental update that signed `field`: up to the end of the %%EOF line that
    ends the revision before it, found from that revision's cross-reference section as pyHanko reads the file."""
    with open(path, "rb") as f:
        data = f.read()
        f.seek(0)
        reader = PdfFileReader(f)
        embedded = next(s for s in reader.embedded_signatures if s.field_name == field)
        if embedded.signed_revision == 0:
            raise ValueError(f"{field} signs the file's first revision")
        start = reader.xrefs.get_startxref_for_revision(embedded.signed_revision - 1)
    end = re.compile(rb"%%EOF(\r\n|\r|\n)?").search(data, start)
    if end is None:
        raise ValueError(f"no %%EOF after the cross-reference section at byte {start}")
    return data[:end.end()]


def content_digest(record):
    """The SHA-256 the audit trail gives of a record: of its bytes with pdfSHA256's value emptied, as the tool
    digests it (the record written as the tool writes it, `"pdfSHA256" : "HEX"`)."""
    emptied, count = re.subn(rb'"pdfSHA256" : "[0-9a-f]*"', b'"pdfSHA256" : ""', record)
    if count != 1:
        raise ValueError(f"{count} pdfSHA256 members in the record's text")
    return hashlib.sha256(emptied).hexdigest()


def check_certification(case, path, field, status):
    """The signature of `field` certifies the file, allowing form filling (DocMDP /P 2), as pikepdf and pyHanko read
    it; `status` is pyHanko's validation of it."""
    def in_file():
        with pikepdf.open(path) as pdf:
            widget = next(f for f in pdf.Root.AcroForm.get("/Fields", []) if str(f.get("/T", "")) == field)
            value = widget.V
            left, bottom, right, top = (float(n) for n in widget.get("/Rect", [0, 0, 1, 1]))
            references = [r for r in value.get("/Reference", []) if r.get("/TransformMethod") == pikepdf.Name.DocMDP]
            permissions = [int(r.TransformParams.get("/P", 2)) for r in references if "/TransformParams" in r]
            certifying = pdf.Root.get("/Perms", {}).get("/DocMDP")
            problems = []
            if right != left or top != bottom:
                problems.append(f"a widget of {right - left} by {top - bottom} points")
            if permissions != [2]:
                problems.append(f"DocMDP references with /P {permissions}")
            if certifying is None or certifying.objgen != value.objgen:
                problems.append("the catalog's /Perms /DocMDP is not its signature dictionary")
            return not problems, "; ".join(problems) or f"/Rect [{left:g} {bottom:g} {right:g} {top:g}]"
    check(case, f"{field}: invisible, /Reference /TransformMethod /DocMDP /P 2, the catalog's /Perms /DocMDP",
          in_file)

    def pyhanko_reads():
        with open(path, "rb") as f:
            reader = PdfFileReader(f)
            embedded = next(s for s in reader.embedded_signatures if s.field_name == field)
            certification = read_certification_data(reader)
            level = embedded.docmdp_level
            author = certification is not None \
                and certification.author_sig.container_ref == embedded.sig_object.container_ref
        docmdp_ok = None if isinstance(status, Exception) else status.docmdp_ok
        return (level == MDPPerm.FILL_FORMS and author and certification.permission == MDPPerm.FILL_FORMS
                and docmdp_ok is True,
                f"docmdp_level {level}, the certification signature {'its' if author else 'not its'}, "
                f"docmdp_ok {docmdp_ok}")
    check(case, f"{field}: pyHanko: the certification signature, docmdp_level FILL_FORMS, docmdp_ok", pyhanko_reads)


def check_record_inside(case, path):
    """The consent record the PDF carries as an associated file, as pikepdf and pyHanko find it; returns its bytes,
    or None if pikepdf does not find it as it should be."""
    found = {}

    def pikepdf_finds():
        with pikepdf.open(path) as pdf:
            specs = list(pdf.Root.get("/AF", []))
            if len(specs) != 1:
                return False, f"{len(specs)} file specs in the catalog's /AF"
            spec = specs[0]
            names = list(pdf.attachments)
            attachment = pdf.attachments.get(RECORD_NAME)
            embedded = spec.EF.F
            problems = []
            if spec.get("/AFRelationship") != pikepdf.Name.Data:
                problems.append(f"/AFRelationship {spec.get('/AFRelationship')}")
            if str(spec.get("/UF", spec.get("/F", ""))) != RECORD_NAME:
                problems.append(f"named {spec.get('/UF', spec.get('/F', ''))}")
            if names != [RECORD_NAME] or attachment.obj.objgen != spec.objgen:
                problems.append(f"/Names /EmbeddedFiles lists {names}, not /AF's file spec as {RECORD_NAME}")
            if embedded.get("/Subtype") != pikepdf.Name("/application/json"):
                problems.append(f"/Subtype {embedded.get('/Subtype')}")
            found["record"] = embedded.read_bytes()
            return not problems, "; ".join(problems) or f"{len(found['record'])} bytes"
    if not check(case, f"pikepdf: /AF one file spec, /AFRelationship /Data, {RECORD_NAME} of /Names /EmbeddedFiles, "
                 "/Subtype /application/json", pikepdf_finds):
        return None

    def pyhanko_finds():
        with open(path, "rb") as f:
            spec = PdfFileReader(f).root["/AF"][0]
            data = spec["/EF"]["/F"].data
            seen = f"{spec['/AFRelationship']}, {spec['/EF']['/F']['/Subtype']}, {len(data)} bytes"
        return (spec["/AFRelationship"] == "/Data" and spec["/EF"]["/F"]["/Subtype"] == "/application/json"
                and data == found["record"], seen)
    check(case, "pyHanko's reader: the file spec of /AF, /Data, /application/json, the same bytes", pyhanko_finds)
    return found["record"]


def check_records(case, path, field, inside, record_path):
    """The record inside the PDF and the one beside it (--record): their pdfSHA256 (the one inside the digest of the
    file before `field` sealed it), and the rest the same."""
    with open(path, "rb") as f:
        data = f.read()
    with open(record_path, "rb") as f:
        beside = f.read()
    check(case, "the record inside is JSON", lambda: (isinstance(json.loads(inside), dict), ""))

    def inside_digest():
        unsealed = before_update(path, field)
        return (json.loads(inside).get("pdfSHA256") == hashlib.sha256(unsealed).hexdigest(),
                f"{json.loads(inside).get('pdfSHA256')}, the file before the seal {len(unsealed)} bytes")
    check(case, "the record inside: pdfSHA256 the SHA-256 of the file up to the seal's update", inside_digest)
    check(case, "the --record file: pdfSHA256 the SHA-256 of the sealed file", lambda: (
        json.loads(beside).get("pdfSHA256") == hashlib.sha256(data).hexdigest(),
        f"{json.loads(beside).get('pdfSHA256')}, the file {len(data)} bytes"))

    def same():
        first, second = json.loads(inside), json.loads(beside)
        first.pop("pdfSHA256", None)
        second.pop("pdfSHA256", None)
        differ = sorted(k for k in first.keys() | second.keys() if first.get(k) != second.get(k))
        return not differ, f"they differ in {', '.join(differ)}" if differ else ""
    check(case, "the two records the same but pdfSHA256", same)


def check_audit_trail(case, path, inside):
    """The last page: the audit trail, its signers and events, and the content digest of the record inside."""
    with pikepdf.open(path) as pdf:
        pages = len(pdf.pages)
    result = run(["pdftotext", "-f", str(pages), "-l", str(pages), path, "-"])
    text = " ".join(result.stdout.split())  # pdftotext breaks long lines
    wanted = ["Audit trail", *(name for _, name in CONSENT_SIGNERS.values()), "Review agreed"]
    missing = [w for w in wanted if w not in text]
    check(case, f"pdftotext, the last page (page {pages}): a line Audit trail, {', '.join(wanted[1:])}", lambda: (
        result.returncode == 0 and "Audit trail" in result.stdout.splitlines() and not missing,
        result.stderr.strip() if result.returncode else f"missing {', '.join(missing)}" if missing else ""))

    def digest():
        said = re.search(r"SHA-256 of its content: ([0-9a-f]{64})", text)
        return (said is not None and said.group(1) == content_digest(inside),
                said.group(1) if said else "no \"SHA-256 of its content: HEX\"")
    check(case, "the audit trail's SHA-256 of its content: the record inside with pdfSHA256 \"\"", digest)


def check_verify(case, binary, arguments, status, said):
    """`signature-ink consent verify ARGUMENTS` exits with `status`, saying `said` (on stdout when 0, else stderr)."""
    result = run([binary, "consent", "verify", *arguments])
    output = result.stdout if status == 0 else result.stderr
    printed = " | ".join((result.stdout + result.stderr).strip().splitlines())
    for folder in {os.path.dirname(a) for a in arguments} - {""}:  # the files by name, as in the check's own line
        printed = printed.replace(folder + os.sep, "")
    shown = " ".join(os.path.basename(a) for a in arguments)
    check(case, f"consent verify {shown}: exit {status}" + (f", \"{said}\"" if said else ""), lambda: (
        result.returncode == status and (said is None or said in output), f"exit {result.returncode}: {printed}"))


def run_sealing(sealing, binary, pki, databases, work):
    """Signs and seals the consent document; checks the seal, the record, the audit trail, `consent verify`, changes."""
    case, seal = sealing.label, sealing.seal
    stem = os.path.join(work, f"consent-{seal.key.lower()}")
    sealed, record = stem + ".pdf", stem + ".json"
    signers = []
    for role, (ink, name) in CONSENT_SIGNERS.items():
        signers += ["--sign", f"{role}={os.path.join(SAMPLES, ink)}", "--name", f"{role}={name}"]
    result = run([binary, "consent", CONSENT, *signers, "--date", DATE, "--sharing", "investigatorOnly",
                  "-o", sealed, "--record", record, "--seal-key", pki.key(seal.key, seal.key_form),
                  "--seal-cert", pki.certificates[seal.key],
                  *(["--seal-chain", pki.intermediate] if sealing.chain else [])])
    written = [f"{os.path.getsize(f)} bytes" if os.path.isfile(f) else "none" for f in (sealed, record)]
    if not check(case, "consent --seal-key: exit 0, the PDF and the record written", lambda: (
            result.returncode == 0 and "none" not in written,
            f"exit {result.returncode}{': ' + result.stderr.strip() if result.returncode else ''}; "
            f"PDF {written[0]}, record {written[1]}")):
        return

    with open(sealed, "rb") as f:
        data = f.read()
    check_signature(case, seal, data, signature_dictionaries(sealed), len(data), pki, sealing.chain, work, False)
    statuses = check_validators(case, sealed, [seal], pki, databases, sealing.chain)
    check_certification(case, sealed, seal.field, statuses.get(seal.field))
    inside = check_record_inside(case, sealed)
    if inside is not None:
        check_records(case, sealed, seal.field, inside, record)
        check_audit_trail(case, sealed, inside)

    # Without the chain in the CMS, the tool is given the intermediate the one way it takes one: as a trusted one.
    trusted = pki.root if sealing.chain else pki.root_and_intermediate
    check_verify(case, binary, [sealed, "--trust", trusted], 0, "the seal is intact and trusted")
    check_verify(case, binary, [record, sealed], 0, None)
    check_verify(case, binary, [sealed, "--trust", pki.other_root], 1, "does not chain to a trusted root")
    changed = check_tampering(case, seal.field, sealed, SEALED_TEXT, pki, databases, sealing.chain, work)
    if changed is not None:
        flipped, drawn = changed
        check_verify(f"{case} with a flipped bit", binary, [flipped, "--trust", trusted], 1,
                     "do not match the seal's message digest")
        check_verify(f"{case} with a drawing appended to page 1", binary, [drawn, "--trust", trusted], 1,
                     "changed after it was sealed")


def main():
    arguments = sys.argv[1:]
    if len(arguments) != 1:
        raise SystemExit("usage: check_signatures.py SIGNATURE_INK_BINARY")
    self_test = arguments[0] == "--self-test-with-pyhanko"
    if not self_test and not os.access(arguments[0], os.X_OK):
        raise SystemExit(f"error: {arguments[0]} is not an executable file")
    sign = pyhanko_signer if self_test else tool_signer(os.path.abspath(arguments[0]))
    # pyHanko logs the difference analysis it refuses, with a traceback; its verdict is in the checks' lines.
    logging.getLogger("pyhanko").setLevel(logging.CRITICAL)
    with tempfile.TemporaryDirectory(prefix="check-signatures-") as work:
        pki = TestPKI(os.path.join(work, "pki"))
        # With the chain embedded, pdfsig must do with the root alone; without, it knows the intermediate too.
        databases = {True: nss_database(os.path.join(work, "nss-root"), pki, with_intermediate=False),
                     False: nss_database(os.path.join(work, "nss-root-intermediate"), pki, with_intermediate=True)}
        for case in CASES:
            try:
                signed = run_case(case, sign, pki, databases, work, self_test)
                if case.form == TAMPERED_FORM and signed is not None:
                    check_tampering(case.form, case.signings[-1].field, signed, TAMPERED_TEXT, pki, databases,
                                    case.chain, work)
                elif case.form == TAMPERED_FORM:
                    check(case.label, "tampering", lambda: (False, "nothing was signed to tamper with"))
            except Exception as error:  # a file too broken to check further fails its case there
                check(case.label, "the checks go on to the end", lambda: (False, f"{type(error).__name__}: {error}"))
        for sealing in [] if self_test else SEALINGS:
            try:
                run_sealing(sealing, os.path.abspath(arguments[0]), pki, databases, work)
            except Exception as error:  # a file too broken to check further fails its case there
                check(sealing.label, "the checks go on to the end",
                      lambda: (False, f"{type(error).__name__}: {error}"))
    print(f"{len(passed)} passed, {len(failures)} failed")
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
