// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation
import SignatureInkConsent
import SignatureInkStore

/// Keeps consents signed by `signature-ink consent` in a consent store.
///
/// `signature-ink consent --store` runs `keep` once its PDF and record are written to their temporary files. The
/// store's databases (GRDB, PostgresNIO and SwiftNIO) and Foundation, which they need, live in this executable alone:
/// in the command-line tool they were 58 MB of its 83 MB (stripped), and their static initialisers (CoreFoundation's,
/// ICU's calendars, Foundation's classes) and the larger binary made every render in a new process 0.3-0.5 ms slower.
@main
struct SignatureInkStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signature-ink-store",
        abstract: "Keep consents signed by `signature-ink consent` in a consent store.",
        subcommands: [KeepCommand.self])
}

struct KeepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keep",
        abstract: "Keep a signed consent PDF and its record in a consent store, and print the consent's identifier.",
        discussion: """
            The record must be the one `signature-ink consent` wrote with the PDF: the PDF's SHA-256 and the \
            document's are checked against it, and the store keeps both files byte for byte, committed before this \
            command answers. On any error nothing is kept, the message goes to standard error and the status is 1.
            """)

    @Option(help: ArgumentHelp("""
        The consent store: a folder (SQLite; created when missing) or a PostgreSQL URL; a URL without a password takes \
        the environment's PGPASSWORD.
        """, valueName: "dir|postgres://user@host/database"))
    var store: String

    @Option(help: ArgumentHelp("The consent record (JSON).", valueName: "record.json"))
    var record: String

    @Option(help: ArgumentHelp("The signed PDF the record describes.", valueName: "consent.pdf"))
    var pdf: String

    @Option(help: "The PDF's page count (at least 1).")
    var pages: Int

    @Option(help: "Where the consent came from, kept with it as its provenance.")
    var client = "signature-ink-store keep"

    /// The largest PDF read: a consent document at its limits makes a PDF of a few megabytes.
    static let maxPDFBytes = 256 << 20

    func run() async throws {
        let recordBytes = try Self.read(record, limit: ConsentRecord.maxBytes)
        let parsed: ConsentRecord
        do { parsed = try ConsentRecord(json: recordBytes) } catch { throw Self.failure(record, "\(error)") }
        let pdfBytes = try Self.read(pdf, limit: Self.maxPDFBytes)
        let opened: ConsentStore
        do { opened = try await ConsentStore.open(store) } catch { throw Self.failure(store, "\(error)") }
        do {
            let kept = try await opened.keep(parsed, pdf: pdfBytes, pages: pages, provenance: Provenance(client: client))
            await opened.close()
            print(kept.id)
        } catch {
            await opened.close()
            throw Self.failure(store, "\(error)")
        }
    }

    /// Reads the file at `path`, refusing one larger than `limit` before reading it.
    private static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let size: Int
        do { size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0 } catch {
            throw failure(path, "cannot be read")
        }
        guard size <= limit else { throw failure(path, "is \(size) bytes, more than the \(limit) allowed") }
        guard let data = FileManager.default.contents(atPath: path) else { throw failure(path, "cannot be read") }
        return Array(data)
    }

    /// Writes `error: WHERE: MESSAGE` to standard error and gives the failing exit status.
    private static func failure(_ place: String, _ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("error: \(place): \(message)\n".utf8))
        return .failure
    }
}
