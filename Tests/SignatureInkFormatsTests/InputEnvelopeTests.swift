// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import SignatureInk
import SignatureInkFormats

@Suite struct InputEnvelopeTests {
    let native = #"{"format":"signature-ink","version":1,"canvas":{"width":120,"height":60},"channels":["x","y","t"],"strokes":[[[10,30,0],[110,30,16]]]}"#
    let signaturePad = #"[{"penColor":"black","points":[{"x":10,"y":10,"time":1523730548448},{"x":60,"y":40,"time":1523730548470}]}]"#

    func read(_ line: String) throws(InputEnvelope.Failure) -> InputEnvelope? {
        try InputEnvelope.read(Data(line.utf8))
    }

    func failure(_ line: String) -> InputEnvelope.Failure? {
        do {
            _ = try read(line)
            return nil
        } catch {
            return error
        }
    }

    @Test func aStrokeFileIsNotAnEnvelope() throws {
        // A native document names "signature-ink" but has no "signature" member; its own extra members (an "id", a
        // "signature" alone) do not make it an envelope, since both names are needed.
        let withID = native.replacingOccurrences(of: #""version":1"#, with: #""version":1,"id":"x7""#)
        let withSignature = native.replacingOccurrences(of: #""version":1"#, with: #""version":1,"signature":"x""#)
        for line in [native, signaturePad, withID, withSignature, #"{"signature":\#(native)}"#, "{}", "  [1]"] {
            #expect(try read(line) == nil, "\(line)")
        }
        // Each of them still decodes, or fails, as a stroke file.
        #expect(try InkDecoder().decode(Data(withID.utf8)).signature.samples.count == 2)
    }

    @Test func aStringIDIsKeptAsWritten() throws {
        let envelope = try #require(try read(#"{"id":"a\u0041-\"7\"","signature":\#(native)}"#))
        #expect(envelope.id.kind == .string)
        #expect(envelope.id.json == #""a\u0041-\"7\"""#)
        let reread = try JSONSerialization.jsonObject(with: Data(envelope.id.json.utf8), options: .fragmentsAllowed)
        #expect(reread as? String == "aA-\"7\"")
        #expect(envelope.signature == Data(native.utf8))
        #expect(!envelope.signatureIsText)
    }

    @Test func anIntegerIDIsKeptDigitForDigitInEitherOrder() throws {
        let digits = "-123456789012345678901234567890"
        let envelope = try #require(try read(#"{ "signature" : \#(signaturePad) , "id" : \#(digits) }"#))
        #expect(envelope.id.kind == .integer)
        #expect(envelope.id.json == digits)
        let direct = try InkDecoder().decode(Data(signaturePad.utf8)).signature
        #expect(try InkDecoder().decode(envelope.signature).signature == direct)
    }

    @Test func aKeySpelledWithEscapesStillCounts() throws {
        let envelope = try #require(try read(#"{"\u0069d":5,"sig\u006eature":\#(native)}"#))
        #expect(envelope.id.json == "5")
        #expect(envelope.signature == Data(native.utf8))
    }

    @Test func aSignatureGivenAsTextIsTheFileItself() throws {
        for name in ["inkml-difference-coded.inkml", "svc2004-task1-crlf.txt"] {
            let file = try TestFiles.fixture(name)
            let text = String(decoding: file, as: UTF8.self)
            let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [text], options: []), as: UTF8.self)
                .dropFirst().dropLast()
            let envelope = try #require(try read(#"{"id":"\#(name)","signature":\#(quoted)}"#))
            #expect(envelope.signatureIsText)
            #expect(envelope.signature == file, "\(name)")
        }
    }

    @Test(arguments: [("null", "found null"), ("1.5", "found the number 1.5"), ("1e3", "found the number 1e3"),
                      ("true", "found true or false"), ("{\"k\":1}", "found an object"), ("[1]", "found an array")])
    func anIDOfAnotherTypeIsRefusedWithoutAnID(id: String, phrase: String) throws {
        let error = try #require(failure(#"{"id":\#(id),"signature":\#(native)}"#))
        #expect(error.id == nil)
        guard case let .field(path, message) = error.error else {
            Issue.record("expected a field error, got \(error.error)")
            return
        }
        #expect(path == "id")
        #expect(message.contains("expected a string or an integer"))
        #expect(message.hasSuffix(phrase))
    }

    @Test func anUnknownMemberIsNamedAndTheIDKept() throws {
        let error = try #require(failure(#"{"id":"r-9","signature":\#(native),"signedAt":"2026-11-25"}"#))
        #expect(error.id?.json == #""r-9""#)
        #expect(error.description.hasPrefix("signedAt: not an envelope member"))
        let twice = try #require(failure(#"{"id":1,"signature":\#(native),"id":2}"#))
        #expect(twice.id?.json == "1")
        #expect(twice.description.hasPrefix("id: given twice"))
    }

    @Test func aSignatureOfAnotherTypeIsRefusedWithTheID() throws {
        let error = try #require(failure(#"{"id":3,"signature":42}"#))
        #expect(error.id?.json == "3")
        #expect(error.description.hasPrefix("signature: expected a stroke document"))
    }

    @Test func aDamagedLineAfterBothNamesFailsWithTheIDAndThePosition() throws {
        let truncated = #"{"id":"t","signature":\#(native.dropLast(2))"#
        let error = try #require(failure(truncated))
        #expect(error.id?.json == #""t""#)
        #expect(error.error == .syntax(line: 1, column: truncated.count + 1, message: "invalid JSON: unexpected end of file"))
        // A member after the signature is checked too, as JSON.
        let badTail = #"{"signature":\#(native),"id":7,}"#
        let tail = try #require(failure(badTail))
        #expect(tail.id?.json == "7")
        #expect(tail.error == .syntax(line: 1, column: badTail.count, message: "invalid JSON: unexpected character '}'"))
    }

    @Test func aDamagedLineBeforeBothNamesIsLeftToTheStrokeDecoders() throws {
        #expect(try read(#"{"id":"t" "signature":\#(native)}"#) == nil)
        #expect(try read(#"{"signature":[1,}"#) == nil)
    }

    @Test func aDamagedLineIsReportedAsDamagedBeforeAWrongMember() throws {
        let line = #"{"id":null,"signature":{"format":"signature-ink",,}}"#
        let error = try #require(failure(line))
        let column = try #require(line.range(of: ",,")).upperBound.utf16Offset(in: line)
        #expect(error.error == .syntax(line: 1, column: column, message: "invalid JSON: unexpected character ','"))
    }

    @Test func anErrorInTheSignatureIsPlacedInTheLine() throws {
        let bad = native.replacingOccurrences(of: "[110,30,16]", with: "[110,30,-16]")
        let line = #"{"id":"é-1","signature":\#(bad)}"#
        let envelope = try #require(try read(line))
        do {
            _ = try InkDecoder().decode(envelope.signature)
            Issue.record("a negative time decoded")
        } catch {
            guard case let .field(path, _) = envelope.located(error) else {
                Issue.record("expected a field error, got \(error)")
                return
            }
            #expect(path.hasPrefix("signature.strokes[0]"))
        }
        // A syntax error in the signature: its column counted in characters from the line's start ("é" is one).
        let broken = native.replacingOccurrences(of: "[110,30,16]", with: "[110,30 16]")
        let brokenLine = #"{"id":"é-1","signature":\#(broken)}"#
        let brokenEnvelope = try #require(try read(brokenLine))
        do {
            _ = try InkDecoder().decode(brokenEnvelope.signature)
            Issue.record("the broken signature decoded")
        } catch {
            // The same message as for the bare document, at the column of "16" in the line.
            guard case let .syntax(_, _, message) = error else {
                Issue.record("expected a syntax error, got \(error)")
                return
            }
            let column = brokenLine.distance(from: brokenLine.startIndex, to: try #require(brokenLine.range(of: "30 16")).lowerBound) + 4
            #expect(brokenEnvelope.located(error) == .syntax(line: 1, column: column, message: message))
        }
    }

    @Test func anErrorInASignatureGivenAsTextKeepsTheTextsOwnPosition() throws {
        let line = #"{"id":1,"signature":"[\n[{\"x\":1,}]]"}"#
        let envelope = try #require(try read(line))
        do {
            _ = try InkDecoder().decode(envelope.signature)
            Issue.record("the broken signature decoded")
        } catch {
            let own = error.description
            #expect(own.hasPrefix("line 2, column"))
            #expect(envelope.located(error) == .field(path: "signature", message: own))
        }
    }
}
