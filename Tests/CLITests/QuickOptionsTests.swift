// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import Testing

/// `sign FORM ...` is read without ArgumentParser (for start-up time); the same command with a limit at its default
/// value (``parsed``), which only ArgumentParser reads, goes through ArgumentParser. Both must write the same bytes
/// and say the same.
@Suite struct QuickSignTests {
    /// A limit at its default: a command line with it takes the parsed path.
    static let parsed = ["--max-input-bytes", "67108864"]

    /// The same `sign` both ways, each into its own output: (quick, parsed, quick's bytes, parsed's bytes).
    static func both(_ arguments: [String], in dir: TemporaryDirectory) throws
        -> (CLIRunner.Result, CLIRunner.Result, Data?, Data?) {
        let quickOut = dir.path("quick.pdf"), parsedOut = dir.path("parsed.pdf")
        let quick = try CLIRunner.run(["sign"] + arguments + ["-o", quickOut])
        let parsed = try CLIRunner.run(["sign"] + arguments + Self.parsed + ["--output", parsedOut])
        return (quick, parsed, FileManager.default.contents(atPath: quickOut), FileManager.default.contents(atPath: parsedOut))
    }

    /// The option sets people give, every option among them, some with `=`.
    static let optionSets: [[String]] = [
        ["--field", "Signature1"],
        ["--field=Signature1", "--name", "Ada Lovelace", "--date", "2026-11-25T00:30:00+01:00"],
        ["--page", "1", "--rect", "72,100,216,72", "--view-mode", "--name=Ada Lovelace"],
        ["--field", "Signature1", "--flatten", "--date=2026-11-25"],
        ["--incremental", "--field", "Signature1"],
    ]

    @Test(arguments: optionSets)
    func signingWritesWhatTheParsedCommandWrites(options: [String]) throws {
        let dir = try TemporaryDirectory()
        let (quick, parsed, a, b) = try Self.both([SignCommandTests.form("simple.pdf"), "--ink", SignCommandTests.ink] + options,
                                                  in: dir)
        #expect(quick.status == 0 && parsed.status == 0, "\(quick.stderr) | \(parsed.stderr)")
        #expect(a != nil && a == b)
        #expect(quick.stderr == parsed.stderr)
    }

    /// What the request refuses, and lines the quick path leaves to the parser: the same status and words both ways,
    /// and no output.
    static let refusals: [[String]] = [
        ["--field", "Signature1", "--page", "1"], ["--page", "1", "--rect", "1,2,3"], ["--page", "x", "--rect", "1,2,3,4"],
        ["--field", "Signature1", "--date", "tomorrow"], ["--field", "Signature1", "--field", "Other"], ["--bogus"],
        ["--field", "Signature1", "--key", "k.pem"], ["--field", "Signature1", "--chain", "c.pem"],
        ["--field", "Signature1", "--flatten=yes"], ["--field"], ["--field", "NoSuchField"],
    ]

    @Test(arguments: refusals)
    func refusalsAreTheParsersOwn(options: [String]) throws {
        let dir = try TemporaryDirectory()
        let (quick, parsed, a, _) = try Self.both([SignCommandTests.form("simple.pdf"), "--ink", SignCommandTests.ink] + options,
                                                  in: dir)
        #expect(quick.status != 0 && quick.status == parsed.status, "\(quick.stderr)")
        // The parsed path's output file name differs in a message that names it; nothing else may.
        #expect(quick.stderr == parsed.stderr.replacingOccurrences(of: "parsed.pdf", with: "quick.pdf"),
                "\(quick.stderr) | \(parsed.stderr)")
        #expect(a == nil)
    }

    @Test func listingTheFieldsAndABrokenFormAreTheSameBothWays() throws {
        for form in ["nested.pdf", "bad-xref.pdf", "encrypted.pdf", "missing.pdf"] {
            let quick = try CLIRunner.run(["sign", SignCommandTests.form(form), "--list-fields"])
            let parsed = try CLIRunner.run(["sign", SignCommandTests.form(form), "--list-fields"] + Self.parsed)
            #expect(quick.status == parsed.status && quick.stdout == parsed.stdout && quick.stderr == parsed.stderr,
                    "\(form): \(quick.stderr)")
        }
    }
}

/// `consent [sign] DOCUMENT ...` is read without ArgumentParser too; with a limit at its default it goes through
/// ArgumentParser. Both must write the same PDF and say the same.
@Suite struct QuickConsentTests {
    /// The sample consent signed by both signers, into `name`.pdf and `name`.json in `dir`, with `extra` options.
    static func signing(_ dir: TemporaryDirectory, _ name: String, sub: Bool = false, extra: [String] = []) -> [String] {
        let short = TestData.sampleStrokes.appendingPathComponent("short-name.json").path
        return ["consent"] + (sub ? ["sign"] : []) + [ConsentCommandTests.document,
                "--sign", "participant=\(ConsentCommandTests.participantInk)", "--sign=Investigator=\(short)",
                "--name", "participant=Ada Lovelace", "--name", "investigator=Charles Babbage",
                "--date", "2026-11-25T14:30:00+01:00", "-o", dir.path(name + ".pdf"), "--record", dir.path(name + ".json")]
            + extra
    }

    /// Option sets, the last one given twice (ArgumentParser keeps the last; the quick path leaves it to the parser).
    static let optionSets: [[String]] = [
        ["--sharing", "investigatorOnly"], ["--sharing=broadly", "--page-size", "letter", "--not-now", "newsletter"],
        ["--sharing", "investigatorOnly", "--sharing", "broadly"],
    ]

    @Test(arguments: optionSets, [false, true])
    func signingWritesWhatTheParsedCommandWrites(options: [String], sub: Bool) throws {
        let dir = try TemporaryDirectory()
        let quick = try CLIRunner.run(Self.signing(dir, "quick", sub: sub, extra: options))
        let parsed = try CLIRunner.run(Self.signing(dir, "parsed", sub: sub, extra: options + QuickSignTests.parsed))
        #expect(quick.status == 0 && parsed.status == 0, "\(quick.stderr) | \(parsed.stderr)")
        let a = FileManager.default.contents(atPath: dir.path("quick.pdf"))
        #expect(a != nil && a == FileManager.default.contents(atPath: dir.path("parsed.pdf")))
        #expect(quick.stdout == parsed.stdout.replacingOccurrences(of: "parsed.", with: "quick."), "\(quick.stdout)")
    }

    /// What the request refuses, and lines left to the parser: the same status and words both ways, and no file.
    static let refusals: [[String]] = [
        ["--sharing", "nobody"], ["--page-size", "a3"], ["--date", "soon"], ["--name", "Ada"], ["--seal-key", "k.pem"],
        ["--seal-chain", "c.pem"], ["--bogus"], ["--deny", "newsletter"],
        ["--sharing"],
    ]

    @Test(arguments: refusals)
    func refusalsAreTheParsersOwn(options: [String]) throws {
        let dir = try TemporaryDirectory()
        let quick = try CLIRunner.run(Self.signing(dir, "quick", extra: options))
        let parsed = try CLIRunner.run(Self.signing(dir, "parsed", extra: options + QuickSignTests.parsed))
        #expect(quick.status != 0 && quick.status == parsed.status, "\(quick.stderr)")
        #expect(quick.stderr == parsed.stderr.replacingOccurrences(of: "parsed.", with: "quick."),
                "\(quick.stderr) | \(parsed.stderr)")
        #expect(try dir.files().isEmpty)
    }

    @Test func theOtherSubcommandsAndMissingFilesAreTheParsers() throws {
        let dir = try TemporaryDirectory()
        let withoutRecord = try CLIRunner.run(["consent", ConsentCommandTests.document, "-o", dir.path("x.pdf")])
        #expect(withoutRecord.status == 2 && withoutRecord.stderr.contains("--record"), "\(withoutRecord.stderr)")
        let help = try CLIRunner.run(["consent", "preview", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE"))
    }
}

/// The options the quick reader knows are exactly those ArgumentParser declares: `--help` lists each request option
/// under its name, and every long option it lists is a request option or one of the input options the quick reader
/// leaves to the parser.
@Suite struct QuickOptionNamesTests {
    /// The long options a help text declares: the first long name on each line that starts with an option.
    static func longOptions(_ help: String) -> Set<String> {
        var names = Set<String>()
        for line in help.split(separator: "\n") where line.drop(while: { $0 == " " }).hasPrefix("-") {
            let words = line.split(whereSeparator: { " ,<>".contains($0) })
            if let long = words.first(where: { $0.hasPrefix("--") }) { names.insert(String(long.dropFirst(2))) }
        }
        return names
    }

    static let inputOptions: Set = ["input-format", "max-input-bytes", "max-strokes", "max-stroke-samples", "max-samples",
                                    "max-coordinate", "help", "version"]

    @Test(arguments: [(["sign", "--help"], ["list-fields", "ink", "field", "page", "rect", "name", "date", "view-mode",
                                           "flatten", "incremental", "key", "cert", "chain", "output"]),
                      (["consent", "sign", "--help"], ["sign", "name", "type", "date", "deny", "not-now", "sharing",
                                                       "page-size", "output", "record", "seal-key", "seal-cert",
                                                       "seal-chain", "store"])])
    func helpListsTheRequestsOptionsAndNoOthers(command: [String], options: [String]) throws {
        let help = try CLIRunner.run(command)
        #expect(help.status == 0)
        #expect(Self.longOptions(help.stdout).subtracting(Self.inputOptions) == Set(options), "\(help.stdout)")
    }
}
