// SPDX-License-Identifier: Apache-2.0
// Renders the benchmark consent document (Benchmarks/Fixtures/document/consent.json, made by make-consent.py) to
// PDF with PagedDocument: its text set by Pango, the two signatures as vector signature blocks.
//
// Usage: document-timing OUT.pdf              one document, for timing a new process from outside
//        document-timing --rounds N          N documents in one process; prints the median per document
// Benchmarks/document/compare.sh times both beside headless Chromium printing consent.html.
import Foundation
import SignatureInk
import SignatureInkFormats
import SignatureInkRender
import SignatureSet

struct ConsentFixture: Decodable {
    struct Section: Decodable { var title: String; var paragraphs: [String] }
    struct Signer: Decodable { var role: String; var name: String; var date: String; var ink: String }
    var title: String
    var sections: [Section]
    var signers: [Signer]
}

let folder = SignatureSet.folder.deletingLastPathComponent().appendingPathComponent("document")

/// The document's blocks: the title, each section's heading and paragraphs, and a signature block per signer.
func blocks() throws -> (title: String, blocks: [DocumentBlock]) {
    let fixture = try JSONDecoder().decode(ConsentFixture.self, from: Data(contentsOf: folder.appendingPathComponent("consent.json")))
    let body = TextFont(size: 11, language: "en")
    var out: [DocumentBlock] = [.heading(fixture.title, level: 1, bookmark: true)]
    for section in fixture.sections {
        out.append(.heading(section.title, level: 2, bookmark: true))
        out += section.paragraphs.map { .paragraph(Paragraph([TextRun($0)], font: body)) }
    }
    for signer in fixture.signers {
        let data = try Data(contentsOf: SignatureSet.folder.appendingPathComponent(signer.ink))
        let signature = try InkDecoder().decode(data).signature
        out.append(.paragraph(Paragraph([TextRun(signer.role, bold: true)], font: body)))
        out.append(.signature(SignatureBlock(signature: signature, signerName: signer.name, date: signer.date), height: 110))
    }
    return (fixture.title, out)
}

func render() throws -> [UInt8] {
    let (title, content) = try blocks()
    return try PagedDocument(blocks: content, title: title, creationDate: "2026-11-24T12:00:00Z").pdf()
}

var arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--rounds" {
    let rounds = max(1, Int(arguments.dropFirst().first ?? "") ?? 30)
    var times: [Double] = []
    var pages = 0
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        let pdf = try render()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        pages = pdf.count
    }
    times.sort()
    print("{\"rounds\": \(rounds), \"median_ms\": \(String(format: "%.3f", times[rounds / 2])), \"min_ms\": \(String(format: "%.3f", times[0])), \"bytes\": \(pages)}")
} else if let out = arguments.first {
    try Data(try render()).write(to: URL(fileURLWithPath: out))
} else {
    FileHandle.standardError.write(Data("usage: document-timing OUT.pdf | --rounds N\n".utf8))
    exit(64)
}
