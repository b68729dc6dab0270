// SPDX-License-Identifier: Apache-2.0
import SignatureInkRender

/// A PAdES baseline B-B digital signature (ETSI EN 319 142-1) to put into a PDF: who signs, and when.
///
/// The signature dictionary has `/Filter /Adobe.PPKLite`, `/SubFilter /ETSI.CAdES.detached`, the signing time in
/// `/M`, and a `/ByteRange` over the whole file except its own `/Contents`, which holds a detached CMS SignedData
/// (see ``PDFSigningIdentity``). Every PDF reader that checks signatures (Acrobat, poppler's `pdfsig`, pyHanko)
/// verifies it.
///
/// ECDSA signatures take a fresh random number each time, so two signings of the same file with an ECDSA key
/// differ inside `/Contents` and nowhere else; RSA signatures (PKCS #1 v1.5) are the same each time.
public struct PDFDigitalSignature: Sendable {
    /// Who signs.
    public var identity: PDFSigningIdentity
    /// When, in milliseconds since 1970-01-01T00:00:00Z.
    public var millisecondsSince1970: Double
    /// The signer's UTC offset in minutes, written with the time (`D:20261125143000+01'00'`), -1439...1439.
    public var utcOffsetMinutes: Int

    /// A signature by `identity` at the given time.
    /// - Parameters:
    ///   - identity: the key and certificates.
    ///   - millisecondsSince1970: the signing time.
    ///   - utcOffsetMinutes: the signer's UTC offset in minutes; default 0 (written as `Z`).
    public init(identity: PDFSigningIdentity, millisecondsSince1970: Double, utcOffsetMinutes: Int = 0) {
        self.identity = identity
        self.millisecondsSince1970 = millisecondsSince1970
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// The time as a PDF date string's text (ISO 32000-2, 7.9.4): `D:20261125143000+01'00'`, or `...Z` in UTC.
    var pdfDate: String {
        let offset = Swift.max(-1439, Swift.min(1439, utcOffsetMinutes))
        let local = (try? TimestampFormat(pattern: "'D:'yyyyMMddHHmmss"))?
            .string(millisecondsSince1970: millisecondsSince1970, utcOffsetMinutes: offset) ?? "D:19700101000000"
        guard offset != 0 else { return local + "Z" }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return local + (offset < 0 ? "-" : "+") + two(abs(offset) / 60) + "'" + two(abs(offset) % 60) + "'"
    }
}
