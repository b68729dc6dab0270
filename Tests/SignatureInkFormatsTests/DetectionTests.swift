// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import SignatureInk
import SignatureInkFormats

@Suite struct DetectionTests {
    @Test(arguments: [("signature-pad", InkFormat.signaturePad), ("hwrt", .strokeList), ("wacom-uim", .uim)])
    func detectsEveryRealFile(folder: String, format: InkFormat) throws {
        let files = try TestFiles.realInk(folder)
        #expect(!files.isEmpty)
        for url in files {
            #expect(InkFormat.detect(try Data(contentsOf: url)) == format, "\(url.lastPathComponent)")
        }
    }

    @Test(arguments: [("svc2004-task2.txt", InkFormat.svc2004), ("svc2004-task1-crlf.txt", .svc2004),
                      ("inkml-difference-coded.inkml", .inkml), ("inkml-no-format-bom.inkml", .inkml),
                      ("inkml-inksource-context.inkml", .inkml)])
    func detectsFixtures(name: String, format: InkFormat) throws {
        #expect(InkFormat.detect(try TestFiles.fixture(name)) == format)
    }

    @Test func detectsTheNativeFormat() throws {
        let s = Signature(strokes: [[InkSample(x: 1, y: 2, t: 0)]])
        #expect(InkFormat.detect(try InkEncoder().encode(s, as: .native)) == .native)
    }

    @Test(arguments: [
        ("\u{FEFF}  [[{\"x\":1,\"y\":2,\"time\":3}]]", InkFormat.strokeList),
        ("[]", .signaturePad),
        ("\n[ {\"points\": []} ]", .signaturePad),
        ("<?xml version=\"1.0\"?><ink xmlns=\"http://www.w3.org/2003/InkML\"/>", .inkml),
        ("<inkml:ink xmlns:inkml=\"http://www.w3.org/2003/InkML\"></inkml:ink>", .inkml),
        ("3\n1 2 3 1\n", .svc2004),
        ("0\n", .svc2004),
    ])
    func detectsShapes(text: String, format: InkFormat) {
        #expect(InkFormat.detect(Data(text.utf8)) == format)
    }

    @Test(arguments: ["", "   ", "hello", "{\"a\": 1}", "[1, 2]", "<svg/>", "12 13\n", "3\nx y t\n"])
    func detectsNothingInOtherContent(text: String) {
        #expect(InkFormat.detect(Data(text.utf8)) == nil)
    }

    @Test func explainsUnknownContent() {
        guard case let .unknownFormat(message) = decodeError(Data("hello".utf8)) else {
            Issue.record("expected unknownFormat")
            return
        }
        #expect(message.contains("signature-pad") && message.contains("inkml") && message.contains("svc2004"))
        guard case let .unknownFormat(riff) = decodeError(Data("RIFF\u{0}\u{0}\u{0}\u{0}UINK".utf8)) else {
            Issue.record("expected unknownFormat")
            return
        }
        #expect(riff.contains("UIM 3.0 JSON"))
    }

    @Test func theAskedFormatOverridesDetection() throws {
        // A stroke list read as signature_pad is a field error, not a silent success.
        let data = try TestFiles.realInk("hwrt", "97705.json")
        let error = try #require(decodeError(data, as: .signaturePad))
        #expect(hasPosition(error))
    }

    @Test func readWriteAbilitiesAreAsDocumented() {
        #expect(InkFormat.allCases.filter(\.canEncode) == [.native, .inkml, .signaturePad, .strokeList])
        #expect(InkFormat(rawValue: "signature-pad") == .signaturePad)
        #expect(InkFormat(rawValue: "stroke-list") == .strokeList)
    }
}
