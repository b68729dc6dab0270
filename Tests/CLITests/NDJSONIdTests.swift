// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInkFormats
import Testing

/// `render --ndjson` with lines that carry their record's id: `{"id": ..., "signature": ...}`.
@Suite struct NDJSONIdTests {
    let native = #"{"format":"signature-ink","version":1,"canvas":{"width":120,"height":60},"channels":["x","y","t"],"strokes":[[[10,30,0],[110,30,16]]]}"#
    let signaturePad = #"[{"penColor":"black","dotSize":0,"minWidth":0.5,"maxWidth":2.5,"velocityFilterWeight":0.7,"compositeOperation":"source-over","points":[{"x":10,"y":10,"time":1523730548448,"pressure":0},{"x":60,"y":40,"time":1523730548470,"pressure":0}]}]"#

    func render(_ lines: [String], _ flags: [String] = []) throws -> (status: Int32, results: [[String: Any]], text: [String]) {
        let r = try CLIRunner.run(["render", "--ndjson", "--jobs", "2"] + flags, stdin: Data(lines.joined(separator: "\n").utf8))
        let text = r.stdout.split(separator: "\n").map(String.init)
        let results = try text.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        return (r.status, results, text)
    }

    @Test func aStringIDIsRepeatedInTheResult() throws {
        let r = try render([#"{"id":"order-1187/ü","signature":\#(native)}"#, #"{"signature":\#(signaturePad),"id":"x"}"#])
        #expect(r.status == 0)
        #expect(r.results.map { $0["id"] as? String } == ["order-1187/ü", "x"])
        #expect(r.results.map { $0["line"] as? Int } == [1, 2])
        #expect(r.results.map { $0["status"] as? String } == ["ok", "ok"])
        // The image is the one the bare signature gives.
        let bare = try render([native, signaturePad])
        #expect(r.results.map { $0["sha256"] as? String } == bare.results.map { $0["sha256"] as? String })
        #expect(r.results.map { $0["data"] as? String } == bare.results.map { $0["data"] as? String })
    }

    @Test func anIntegerIDIsRepeatedAsWritten() throws {
        let big = "12345678901234567890123"
        let r = try render([#"{"id":7,"signature":\#(native)}"#, #"{"id":\#(big),"signature":\#(native)}"#, #"{"id":-3,"signature":\#(native)}"#])
        #expect(r.status == 0)
        #expect(r.text[0].hasPrefix(#"{"id":7,"line":1,"status":"ok","#))
        #expect(r.text[1].hasPrefix(#"{"id":\#(big),"line":2,"#))
        #expect(r.results[2]["id"] as? Int == -3)
    }

    @Test func aFailedLineCarriesItsIDAndItsError() throws {
        let negativeTime = native.replacingOccurrences(of: "[110,30,16]", with: "[110,30,-16]")
        let r = try render([
            #"{"id":"bad-time","signature":\#(negativeTime)}"#,
            #"{"id":"good","signature":\#(native)}"#,
            #"{"id":"cut","signature":\#(native.dropLast(3))"#,
            #"{"id":"prose","signature":"not a stroke file"}"#,
        ])
        #expect(r.status == 1)
        #expect(r.results.map { $0["id"] as? String } == ["bad-time", "good", "cut", "prose"])
        #expect(r.results.map { $0["status"] as? String } == ["failed", "ok", "failed", "failed"])
        let errors = r.results.map { $0["error"] as? String ?? "" }
        #expect(errors[0].hasPrefix("signature.strokes[0]"))
        #expect(errors[2].contains("unexpected end of file"))
        #expect(errors[3].hasPrefix("signature: the content matches no known stroke format"))
        #expect(r.results[1]["data"] is String)
        #expect(r.results[0]["data"] == nil)
    }

    @Test func aLineWithoutAnIDGetsTheResultItAlwaysHad() throws {
        let r = try render([native, "{broken", signaturePad])
        #expect(r.status == 1)
        #expect(r.results.allSatisfy { $0["id"] == nil })
        #expect(r.text[0].hasPrefix(#"{"line":1,"status":"ok","format":"png","data":""#))
        #expect(Set(r.results[0].keys) == ["line", "status", "format", "data", "bytes", "sha256"])
        #expect(r.text[1].hasPrefix(#"{"line":2,"status":"failed","error":"#))
        #expect(Set(r.results[1].keys) == ["line", "status", "error"])
        #expect(r.results[2]["line"] as? Int == 3)
    }

    @Test(arguments: [("null", "null"), ("2.5", "the number 2.5"), ("true", "true or false"), (#"{"n":1}"#, "an object")])
    func anIDOfAnotherTypeFailsItsLineNamingTheID(id: String, found: String) throws {
        let r = try render([#"{"id":\#(id),"signature":\#(native)}"#, #"{"id":"next","signature":\#(native)}"#])
        #expect(r.status == 1)
        #expect(r.results[0]["id"] == nil)
        #expect(r.results[0]["line"] as? Int == 1)
        #expect(r.results[0]["status"] as? String == "failed")
        #expect(r.results[0]["error"] as? String == "id: expected a string or an integer, found \(found)")
        #expect(r.results[1]["status"] as? String == "ok")
    }

    @Test func anUnknownEnvelopeMemberFailsItsLineRatherThanBeingDropped() throws {
        let r = try render([#"{"id":"m-1","signature":\#(native),"signer":"Ada"}"#])
        #expect(r.status == 1)
        #expect(r.results.count == 1)
        #expect(r.results[0]["id"] as? String == "m-1")
        #expect(r.results[0]["status"] as? String == "failed")
        let error = try #require(r.results[0]["error"] as? String)
        #expect(error.hasPrefix("signer: not an envelope member"))
        #expect(error.contains(#"only "id" and "signature""#))
    }

    @Test func aSignatureGivenAsAFilesTextRendersAsThatFile() throws {
        let dir = try TemporaryDirectory()
        let file = TestData.repositoryRoot.appendingPathComponent("Tests/SignatureInkFormatsTests/Fixtures/svc2004-task2.txt")
        let text = try String(contentsOf: file, encoding: .utf8)
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast()
        let r = try render([#"{"id":"svc","signature":\#(quoted)}"#], ["--out-dir", dir.path("out")])
        #expect(r.status == 0)
        let output = try #require(r.results.first?["output"] as? String)
        #expect(output.hasSuffix("000001.png"))
        let single = try CLIRunner.run(["render", file.path, "-o", dir.path("single.png")])
        #expect(single.status == 0, "\(single.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: URL(fileURLWithPath: dir.path("single.png"))))
        #expect(r.results[0]["id"] as? String == "svc")
    }
}
