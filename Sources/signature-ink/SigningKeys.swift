// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import SignatureInkForms

/// Reads the PEM files of a digital signature: `sign --key/--cert/--chain` and `consent sign --seal-key/--seal-cert/
/// --seal-chain`.
enum SigningKeys {
    /// The identity in `key`, `certificate` and, when given, `chain`.
    /// - Throws: ``InputFailure`` naming the file that cannot be read, or the key when the files do not make an
    ///   identity (a key that is not the certificate's, a kind of key PAdES readers do not check).
    static func identity(key: String, certificate: String, chain: String?) throws(InputFailure) -> PDFSigningIdentity {
        func text(_ path: String) throws(InputFailure) -> String {
            String(decoding: try InputLoader(limits: .default).readBounded(path), as: UTF8.self)
        }
        let keyPEM = try text(key), certificatePEM = try text(certificate), chainPEM = try chain.map(text)
        do {
            return try PDFSigningIdentity(keyPEM: keyPEM, certificatePEM: certificatePEM, chainPEM: chainPEM)
        } catch {
            throw InputFailure(path: key, reason: "\(error)")
        }
    }
}

/// Checks a sealed PDF from the command line's synchronous commands (the chain check of swift-certificates is
/// `async`).
enum SealCheck {
    /// ``PDFSeal/verify(_:name:trustedRootsPEM:)`` of `pdf` against `roots`.
    /// - Throws: ``InputFailure`` naming the PDF when it has no seal or is not a PDF.
    static func run(_ pdf: [UInt8], name: String, roots: String) throws(InputFailure) -> PDFSealVerification {
        switch Blocking.run({ try await PDFSeal.verify(pdf, name: name, trustedRootsPEM: roots) }) {
        case let .success(report): return report
        case let .failure(error): throw InputFailure(path: name, reason: "\(error)".replacing("\(name): ", with: ""))
        }
    }
}
