// SPDX-License-Identifier: Apache-2.0
import Dispatch
import FoundationEssentials
import SignatureInkForms
import Synchronization

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

/// Checks a sealed PDF from the command line's synchronous commands: the chain check of swift-certificates is
/// `async`, and the tool's main thread waits for it on a semaphore.
enum SealCheck {
    /// ``PDFSeal/verify(_:name:trustedRootsPEM:)`` of `pdf` against `roots`.
    /// - Throws: ``InputFailure`` naming the PDF when it has no seal or is not a PDF.
    static func run(_ pdf: [UInt8], name: String, roots: String) throws(InputFailure) -> PDFSealVerification {
        let result = Mutex<Result<PDFSealVerification, PDFFormError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let outcome: Result<PDFSealVerification, PDFFormError>
            do throws(PDFFormError) {
                outcome = .success(try await PDFSeal.verify(pdf, name: name, trustedRootsPEM: roots))
            } catch {
                outcome = .failure(error)
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        switch result.withLock({ $0! }) {
        case let .success(report): return report
        case let .failure(error): throw InputFailure(path: name, reason: "\(error)".replacingOccurrences(of: "\(name): ", with: ""))
        }
    }
}
