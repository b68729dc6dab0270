// SPDX-License-Identifier: Apache-2.0
import Dispatch
import SignatureInk
import SignatureInkForms

/// A signature to sign with: two strokes.
let ink = Signature(strokes: [[InkSample(x: 0, y: 10, t: 0), InkSample(x: 40, y: 0, t: 20), InkSample(x: 80, y: 12, t: 40)],
                              [InkSample(x: 10, y: 20, t: 80), InkSample(x: 70, y: 22, t: 100)]])

/// A root for checking seals: any certificate will do, since what is fuzzed is the reading, not the trust.
let root = """
    -----BEGIN CERTIFICATE-----
    MIIBfDCCASOgAwIBAgIUBdBfyy3csJGT3CWKqKCJJ6dqCIowCgYIKoZIzj0EAwIw
    FDESMBAGA1UEAwwJRnV6eiBSb290MB4XDTI2MTEyNjIyMjgxN1oXDTM2MTEyMzIy
    MjgxN1owFDESMBAGA1UEAwwJRnV6eiBSb290MFkwEwYHKoZIzj0CAQYIKoZIzj0D
    AQcDQgAEf/JKUEBEhZrCxAbrErQY6CObjIOwGXKDps9zWNyLX91j232VUqhjLBfc
    hfLhzMWmlTmGEllycTE098O66Ur5I6NTMFEwHQYDVR0OBBYEFHP1fGWmvizWFTPv
    6omfQ4VDhI4BMB8GA1UdIwQYMBaAFHP1fGWmvizWFTPv6omfQ4VDhI4BMA8GA1Ud
    EwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDRwAwRAIgZujvwO9ayyOBG/QVmmxhMmO7
    yp5p0Lr+HMTMYdHMFzcCIF4PxIcMp2XMaNzw2S+gqtDImDdEuV18ZEPHJANaAqeV
    -----END CERTIFICATE-----
    """

/// ``PDFSeal/verify(_:name:trustedRootsPEM:)`` of `input`, waited for: it is `async` for its chain check.
func verifySeal(_ input: [UInt8]) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        _ = try? await PDFSeal.verify(input, name: "fuzz.pdf", trustedRootsPEM: root)
        done.signal()
    }
    done.wait()
}

/// libFuzzer entry point: reads the input as a PDF form (qpdf, no repair), walks its field tree, and signs its first
/// empty signature field both ways; and reads it as a sealed PDF, its signature (CMS) and the files it carries. Any
/// failure must be a thrown `PDFFormError` or a named problem, never a crash or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard count <= 1 << 20 else { return 0 }
    let input = bytes.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    verifySeal(input)
    guard let form = try? PDFForm(bytes: input, name: "fuzz.pdf") else { return 0 }
    if let field = form.emptySignatureFields.first {
        _ = try? form.sign(.field(field.name), ink: ink)
        _ = try? form.sign(.field(field.name), ink: ink, options: FormSigningOptions(incremental: true))
    }
    return 0
}
