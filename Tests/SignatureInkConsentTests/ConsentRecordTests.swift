// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import Testing

@Suite struct ConsentRecordTests {
    static func record() throws -> (ConsentRecord, [UInt8]) {
        let signed = try ConsentFixtures.signedSample()
        let pdf = try signed.pdf()
        let record = try ConsentRecord(signed: signed, decisions: [.init(form: "study", decision: .allowed),
                                                                   .init(form: "newsletter", decision: .denied)],
                                       sharing: .broadly, pageSize: .a4, pdf: pdf)
        return (record, pdf)
    }

    @Test func theRecordCarriesEveryDigestAndVerifies() throws {
        let (record, pdf) = try Self.record()
        #expect(record.documentDigest == (try ConsentFixtures.sample()).digest)
        #expect(record.pdfSHA256 == HexDigest.sha256(pdf))
        #expect(record.signers.map(\.name) == ["Ada Lovelace", "Charles Babbage"])
        #expect(record.signers.map(\.date) == ["2026-11-25T14:30:00+01:00", "2026-11-25T14:30:00+01:00"])
        #expect(record.signers[0].signatureDigest == SignatureRecord.digest(of: try ConsentFixtures.ink()))
        #expect(record.verify(pdf: pdf).isEmpty)
        let again = try ConsentRecord(json: record.json)
        #expect(again == record)
        #expect(again.verify(pdf: pdf).isEmpty)
    }

    @Test func everyTamperingIsNamed() throws {
        let (record, pdf) = try Self.record()
        var changedPDF = pdf
        changedPDF[changedPDF.count / 2] ^= 1
        #expect(record.verify(pdf: changedPDF).map(\.field) == ["pdfSHA256"])

        var otherDocument = record
        otherDocument.document = otherDocument.document.replacingOccurrences(of: "twenty minutes", with: "two minutes")
        #expect(otherDocument.verify(pdf: pdf).map(\.field) == ["documentDigest"])

        var otherInk = record
        let native = try #require(otherInk.signers[1].signature)
        // The first sample's x, one unit to the right.
        let start = try #require(native.range(of: "\"strokes\":[\n[["))
        let end = try #require(native[start.upperBound...].firstIndex(of: ","))
        let x = try #require(Double(native[start.upperBound..<end]))
        otherInk.signers[1].signature = native.replacingCharacters(in: start.upperBound..<end, with: String(x + 1))
        #expect(otherInk.signers[1].signature != native)
        #expect(otherInk.verify(pdf: pdf).map(\.field) == ["signers[1].signatureDigest"])

        var noDigest = record
        noDigest.signers[0].signatureDigest = nil
        #expect(noDigest.verify(pdf: pdf).map(\.field) == ["signers[0]"])
    }

    @Test func aBrokenRecordIsRefusedNamingTheField() {
        #expect(throws: ConsentError.self) { _ = try ConsentRecord(json: Array("{}".utf8)) }
        do { _ = try ConsentRecord(json: Array("{}".utf8)) } catch { #expect("\(error)".contains("required field is missing")) }
    }
}
