// SPDX-License-Identifier: Apache-2.0
import SignatureInkConsent

/// libFuzzer entry point: reads the input as a consent document; when it is one, reads every text's markup and
/// lays the document out. Any failure must be a thrown `ConsentError`, never a crash or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = bytes.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    // Small limits keep each run short; the checks are the same at any size.
    let limits = ConsentLimits(maxBytes: 64 << 10, maxSections: 40, maxFieldLength: 4000, maxTotalText: 20_000)
    guard let document = try? ConsentDocument(json: input, limits: limits) else { return 0 }
    for section in document.sections { _ = ConsentMarkup.parse(section.content) }
    _ = try? document.pageCount()
    var flow = ConsentFlow(document: document)
    // Walk the forms with Allow and Next until the review; every refusal must leave the flow where it was.
    for _ in 0..<200 where !flow.step.isFinished {
        let before = flow.step
        guard let event = flow.offeredEvents.first(where: { $0 == .next || $0 == .allow || $0 == .share(.broadly) }) else { break }
        do { try flow.send(event) } catch { precondition(flow.step == before, "a refused event changed the flow") }
    }
    return 0
}
