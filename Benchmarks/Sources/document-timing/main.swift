// SPDX-License-Identifier: Apache-2.0
// Signs the benchmark consent document (Benchmarks/Fixtures/document/consent.json and signers.json, made by
// make-consent.py) as `signature-ink consent` does: reads the document, decodes the two signers' ink, applies the
// signatures to a copy, lays the PDF out with Pango (three A4 pages, vector signatures) and makes the consent record
// with its digests.
//
// Usage: document-timing OUT.pdf              one document, for timing a new process from outside
//        document-timing --rounds N          N documents in one process; prints the median per document
// With DOCUMENT_TIMING_FRESH=1 every paragraph of each document starts with the document's number ("r7 "), so that
// no text is the same from one document to the next and nothing laid out is reused: a batch of different documents.
// Without it the documents are the same, as when one document is signed for many signers.
// With SYSTEM_HEAP=1, glibc's allocator keeps its defaults instead of HeapReuse's (see below).
// Benchmarks/document/compare.py times both beside headless Chromium printing consent.html.
import Foundation
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkRender
import SignatureSet

// As the server and the command line's batches run (HeapReuse); SYSTEM_HEAP=1 keeps glibc's defaults, to compare.
if ProcessInfo.processInfo.environment["SYSTEM_HEAP"] != "1" { HeapReuse.keepFreedMemory() }

struct Signer: Decodable { var slot: String; var name: String; var date: String; var ink: String }

let folder = SignatureSet.folder.deletingLastPathComponent().appendingPathComponent("document")

/// With DOCUMENT_TIMING_FRESH=1, the document's text cut where each paragraph starts, once, so that numbering the
/// paragraphs costs a document no more than joining the pieces.
let paragraphStarts: [String]? = ProcessInfo.processInfo.environment["DOCUMENT_TIMING_FRESH"] != "1" ? nil
    : try String(contentsOf: folder.appendingPathComponent("consent.json"), encoding: .utf8)
        .replacingOccurrences(of: #""content": ""#, with: "\u{1}").replacingOccurrences(of: #"\n\n"#, with: "\u{2}")
        .split(separator: "\u{1}", omittingEmptySubsequences: false).map(String.init)
nonisolated(unsafe) var documents = 0

/// The signed PDF and its record, from the files on disk.
func render() throws -> (pdf: [UInt8], record: [UInt8]) {
    let json: [UInt8]
    if let paragraphStarts {
        documents += 1
        let tag = "r\(documents) "
        json = Array(paragraphStarts.joined(separator: #""content": ""# + tag).replacing("\u{2}", with: #"\n\n"# + tag).utf8)
    } else {
        json = Array(try Data(contentsOf: folder.appendingPathComponent("consent.json")))
    }
    var document = try ConsentDocument(json: json)
    let signers = try JSONDecoder().decode([Signer].self, from: Data(contentsOf: folder.appendingPathComponent("signers.json")))
    for signer in signers {
        let data = try Data(contentsOf: SignatureSet.folder.appendingPathComponent(signer.ink))
        let ink = try InkDecoder().decode(data).signature
        guard let date = ConsentDate(iso8601: signer.date) else { throw ConsentError.invalidSignature(field: "date", message: signer.date) }
        document = try document.signing(ConsentSignature(slot: signer.slot, name: signer.name, signature: ink, date: date))
    }
    let pdf = try document.pdf()
    let record = try ConsentRecord(signed: document, pageSize: .a4, pdf: pdf)
    return (pdf, record.json)
}

try WholeRuns.main("document-timing") { try render().pdf }
