// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import Testing

@Suite struct SignCommandTests {
    static func form(_ name: String) -> String { TestData.repositoryRoot.appendingPathComponent("Tests/Fixtures/forms/\(name)").path }
    static var ink: String { TestData.sampleStrokes.appendingPathComponent("long-name.json").path }

    @Test func listsTheSignatureFields() throws {
        let r = try CLIRunner.run(["sign", Self.form("nested.pdf"), "--list-fields"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            signatures.customer\tpage 1\t100,400,216,72\tempty
            signatures.courier\tpage 2\t300,200,72,216\tempty
            2 signature fields, 2 empty

            """)
        let signed = try CLIRunner.run(["sign", Self.form("signed.pdf"), "--list-fields"])
        #expect(signed.stdout.contains("Approval\tpage 1\t72,560,216,60\tdigitally signed"))
    }

    @Test func signsAFieldAndTheSameCommandGivesTheSameFile() throws {
        let dir = try TemporaryDirectory()
        let arguments = ["sign", Self.form("simple.pdf"), "--ink", Self.ink, "--field", "Signature1", "--name", "Ada Lovelace",
                         "--date", "2026-11-25T00:30:00+01:00", "-o", dir.path("signed.pdf")]
        let r = try CLIRunner.run(arguments)
        #expect(r.status == 0, "\(r.stderr)")
        let first = try Data(contentsOf: URL(fileURLWithPath: dir.path("signed.pdf")))
        #expect(try PDFCheck.qpdfProblems(Array(first)) == nil)
        // The date is printed in its own offset: 25 November, though it was still the 24th in UTC.
        #expect(try PDFCheck.text(Array(first), page: 1).contains("2026-11-25"))
        #expect(try CLIRunner.run(arguments).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("signed.pdf"))) == first)
        let listed = try CLIRunner.run(["sign", dir.path("signed.pdf"), "--list-fields"])
        #expect(listed.stdout.contains("Signature1\tpage 1\t72,500,216,72\tread-only"))
    }

    @Test func incrementalKeepsTheSignedBytes() throws {
        let dir = try TemporaryDirectory()
        let refused = try CLIRunner.run(["sign", Self.form("signed.pdf"), "--ink", Self.ink, "--field", "Witness", "-o", dir.path("a.pdf")])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("digitally signed ('Approval')"))
        #expect(try dir.files().isEmpty)
        let r = try CLIRunner.run(["sign", Self.form("signed.pdf"), "--ink", Self.ink, "--field", "Witness", "--incremental", "-o", dir.path("b.pdf")])
        #expect(r.status == 0, "\(r.stderr)")
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.form("signed.pdf")))
        let signed = try Data(contentsOf: URL(fileURLWithPath: dir.path("b.pdf")))
        #expect(signed.prefix(original.count) == original)
    }

    static let mistakes: [([String], Int32, String)] = [
        (["--field", "Nope"], 1, "simple.pdf: no field is named 'Nope'; its signature fields are 'Signature1'"),
        (["--page", "5", "--rect", "10,10,50,50"], 1, "page 5 does not exist; the form has 2 pages"),
        (["--page", "1", "--rect", "500,700,200,200"], 1, "page 1: the rectangle 500,700,200,200 is not inside the page's visible area (its media box), 0,0,612,792"),
        (["--page", "1", "--rect", "1,2,3"], 2, "--rect: '1,2,3' must be four numbers x,y,w,h"),
        (["--field", "Signature1", "--page", "1", "--rect", "1,2,30,40"], 2, "give either --field or --page with --rect, not both"),
        (["--field", "Signature1", "--date", "yesterday"], 2, "--date: 'yesterday' is not an ISO 8601 date"),
        (["--page", "1", "--rect", "10,10,100,100", "--incremental"], 1, "an incremental update fills a signature field's appearance"),
    ]

    @Test(arguments: mistakes.indices)
    func mistakesAreNamedAndLeaveNoFile(_ index: Int) throws {
        let (extra, status, message) = Self.mistakes[index]
        let dir = try TemporaryDirectory()
        let r = try CLIRunner.run(["sign", Self.form("simple.pdf"), "--ink", Self.ink] + extra + ["-o", dir.path("out.pdf")])
        #expect(r.status == status, "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(try dir.files().isEmpty)
    }

    @Test(arguments: [("encrypted.pdf", "the PDF is encrypted"), ("damaged.pdf", "not a readable PDF"),
                      ("bad-length.pdf", "the PDF is damaged: a stream's /Length does not reach its endstream (object 8 0, at byte 1009); it was not signed")])
    func unreadableFormsAreNamed(_ name: String, _ message: String) throws {
        let dir = try TemporaryDirectory()
        let r = try CLIRunner.run(["sign", Self.form(name), "--ink", Self.ink, "--field", "Signature1", "-o", dir.path("out.pdf")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(name): \(message)"), "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "\(name):").count == 2, "the file is named once: \(r.stderr)")
        #expect(try dir.files().isEmpty)
    }
}
