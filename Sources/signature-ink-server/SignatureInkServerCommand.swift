// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation
import Logging
import SignatureInkConsent
import SignatureInkForms
import SignatureInkRender
import SignatureInkServer
import SignatureInkStore
import NIOCore
import ServiceLifecycle

@main
struct SignatureInkServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signature-ink-server",
        abstract: "Serve the signature form cell and consent pages, render stroke files over HTTP, and keep every consent.",
        subcommands: [ServeCommand.self, ExportCommand.self, VerifyStoreCommand.self],
        defaultSubcommand: ServeCommand.self)
}

/// Where the store is, shared by every subcommand.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The folder of the consent store (SQLite); created when missing.", valueName: "dir"))
    var data = "signature-ink-data"

    @Option(help: ArgumentHelp("""
        Keep the store in PostgreSQL instead, shared by every server given the same database; its tables are created \
        when missing (default: the environment's SIGNATURE_INK_DATABASE). A URL without a password takes the \
        environment's PGPASSWORD; either keeps the password out of the process list.
        """, valueName: "postgres://user[:password]@host[:port]/database"))
    var database: String?

    /// The location given, with where it was given: the PostgreSQL URL of `--database` or of the environment, or else
    /// the folder of `--data`.
    var location: (value: String, givenBy: String) {
        if let database { return (database, "--database") }
        if let url = ProcessInfo.processInfo.environment["SIGNATURE_INK_DATABASE"], !url.isEmpty { return (url, "SIGNATURE_INK_DATABASE") }
        return (data, "--data")
    }

    /// Opens the store, or fails naming it (a URL without its password) and where it was given.
    func open() async throws -> ConsentStore {
        let location = location
        do {
            return try await ConsentStore.open(location.value)
        } catch {
            throw ValidationError("\(location.givenBy): \(error)")
        }
    }
}

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the pages and the API (the default).",
        discussion: """
            Stops gracefully on SIGINT or SIGTERM: requests in flight are answered first. LOG_LEVEL sets the log level. \
            Every signed consent and saved signature is kept in the store (--data) before it is answered.
            """)

    @Option(help: "The address to bind.")
    var host = "127.0.0.1"

    @Option(help: "The port.")
    var port = 8080

    @Option(name: .customLong("max-body"), help: "Largest request body in bytes; larger ones get 413 before they are read.")
    var maxBody = 1 << 20

    @Option(name: .customLong("max-samples"), help: "Most samples in one signature; more get 422.")
    var maxSamples = 100_000

    @Option(name: .customLong("idle-timeout"), help: "Seconds an idle connection stays open.")
    var idleTimeout = 30

    @Option(name: .customLong("request-timeout"), help: "Seconds a request body may take to arrive; a slower one gets 408.")
    var requestTimeout = 10

    @Option(help: "Threads that decode, render and sign, apart from the event loops (default: the number of cores).")
    var workers = System.coreCount

    @Option(help: "Requests that may wait for a worker; one more gets 503 with Retry-After at once (default: twice the workers).")
    var queue: Int?

    @Option(name: .customLong("work-timeout"), help: "Seconds a request may wait for and use a worker; a longer one is stopped and gets 503.")
    var workTimeout = 5

    @Option(name: .customLong("shutdown-grace"), help: "Seconds SIGTERM or SIGINT leaves requests in flight to finish before they are stopped.")
    var shutdownGrace = 5

    @Option(name: .customLong("max-work"), help: "Work budget of one render in work units (about 3 ns and a byte each); a costlier one gets 422.")
    var maxWork = ServerConfiguration.defaultRenderLimits.maxWork

    @Option(name: .customLong("consent-document"), help: "The consent document of the consent pages (default: the sample study consent).")
    var consentDocument: String?

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("consent-cache-mb"),
            help: "MiB of memory for consents read by GET /consents/{id}, all of each but its withdrawal, which is read every time (0: none).")
    var consentCacheMB = 64

    @Flag(name: .customLong("no-store"), help: "Keep nothing: consents and signatures are answered but not kept, and the store's routes answer 404.")
    var noStore = false

    @Flag(name: .customLong("secure-cookies"),
          help: "Mark the device and session cookies Secure (sent over HTTPS only): use it when clients reach the server through TLS, such as a reverse proxy.")
    var secureCookies = false

    @Option(name: .customLong("admin-token-file"),
            help: ArgumentHelp("A file whose first line is the administrator's token (16 bytes or more), which the store's routes require as Authorization: Bearer TOKEN; without it they answer 401.", valueName: "file"))
    var adminTokenFile: String?

    @Option(name: .customLong("seal-key"), help: ArgumentHelp("""
        Seal every consent PDF with this private key (PEM: P-256, P-384, P-521 or RSA): an Audit trail page with the \
        client's address and user agent, the record inside the PDF, a certification signature; needs --seal-cert.
        """, valueName: "key.pem"))
    var sealKey: String?

    @Option(name: .customLong("seal-cert"), help: ArgumentHelp("The certificate of --seal-key (PEM).", valueName: "cert.pem"))
    var sealCert: String?

    @Option(name: .customLong("seal-chain"), help: ArgumentHelp("The intermediate certificates between --seal-cert and its root (PEM).", valueName: "chain.pem"))
    var sealChain: String?

    func validate() throws {
        if (sealKey == nil) != (sealCert == nil) { throw ValidationError("a seal needs both --seal-key and --seal-cert") }
        if sealChain != nil && sealKey == nil { throw ValidationError("--seal-chain needs --seal-key and --seal-cert") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0...65535") }
        guard (1...(256 << 20)).contains(maxBody) else { throw ValidationError("--max-body must be in 1...268435456") }
        guard maxSamples > 0, idleTimeout > 0, requestTimeout > 0, workers > 0, workTimeout > 0, maxWork > 0 else {
            throw ValidationError("--max-samples, --idle-timeout, --request-timeout, --workers, --work-timeout and --max-work must be positive")
        }
        guard (queue ?? 0) >= 0, shutdownGrace >= 0 else { throw ValidationError("--queue and --shutdown-grace must be >= 0") }
        guard (0...65536).contains(consentCacheMB) else { throw ValidationError("--consent-cache-mb must be in 0...65536") }
    }

    func run() async throws {
        // Each consent PDF and render frees what the next one needs again; the heap keeps it (HeapReuse).
        HeapReuse.keepFreedMemory()
        // Consents and captions are set on every worker at once; without it, one worker at a time sets text.
        do { try ProjectFonts.openEveryFace() } catch { FileHandle.standardError.write(Data("warning: \(error)\n".utf8)) }
        var logger = Logger(label: "signature-ink-server")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
        var document: ConsentDocument?
        if let path = consentDocument {
            do {
                document = try ConsentDocument(json: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            } catch {
                throw ValidationError("--consent-document \(path): \(error)")
            }
        }
        var token: AdminToken?
        if let adminTokenFile {
            do { token = try AdminToken(file: adminTokenFile) } catch { throw ValidationError("--admin-token-file \(error)") }
        }
        var seal: PDFSigningIdentity?
        if let sealKey, let sealCert {
            func text(_ path: String) throws -> String { try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8) }
            do {
                seal = try PDFSigningIdentity(keyPEM: try text(sealKey), certificatePEM: try text(sealCert), chainPEM: try sealChain.map(text))
            } catch {
                throw ValidationError("--seal-key \(sealKey): \(error)")
            }
        }
        let kept = noStore ? nil : try await store.open()
        var limits = ServerConfiguration.defaultRenderLimits
        limits.maxWork = maxWork
        var configuration = ServerConfiguration(host: host, port: port, maxBody: maxBody, maxSamples: maxSamples, idleTimeout: idleTimeout,
                                                requestTimeout: requestTimeout, renderLimits: limits, workers: workers, queueLength: queue,
                                                workTimeout: workTimeout, shutdownGrace: shutdownGrace,
                                                consentAnswerBytes: consentCacheMB << 20, secureCookies: secureCookies)
        configuration.seal = seal
        let app = try SignatureInkServer.application(configuration: configuration, consentDocument: document, store: kept,
                                                     adminToken: token, logger: logger)
        // SIGTERM or SIGINT: no new connections; requests in flight have the grace to finish, then the server's
        // task is cancelled, which closes every connection and so stops the work still running (HangUpHandler).
        var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = .seconds(shutdownGrace)
        group.maximumCancellationDuration = .seconds(2)
        try await ServiceGroup(configuration: group).run()
        await kept?.close()
    }
}

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every event of the store as NDJSON, oldest first, one event a line.",
        discussion: "Each line has the event's sequence, kind, id, recordedAt, content (JSON), and its three SHA-256 digests.")

    @OptionGroup var store: StoreOptions

    @Option(help: "Start after this event (0 for all).")
    var after: Int64 = 0

    @Option(name: .shortAndLong, help: ArgumentHelp("The NDJSON file (default: standard output).", valueName: "file.ndjson"))
    var output: String?

    func run() async throws {
        let kept = try await store.open()
        let handle: FileHandle
        var temporary: String?
        if let output {
            temporary = output + ".partial"
            guard FileManager.default.createFile(atPath: temporary!, contents: nil), let file = FileHandle(forWritingAtPath: temporary!) else {
                throw ValidationError("--output \(output): cannot be written")
            }
            handle = file
        } else {
            handle = .standardOutput
        }
        var cursor = after
        var count = 0
        do {
            while true {
                let events = try await kept.events(after: cursor, limit: ConsentQuery.maxLimit)
                guard let last = events.last else { break }
                try handle.write(contentsOf: events.flatMap(\.exportLine))
                cursor = last.sequence
                count += events.count
            }
            if let output, let temporary {
                try handle.synchronize()
                try handle.close()
                // rename(2): the finished file replaces any earlier one at once, and a failed export leaves none.
                guard rename(temporary, output) == 0 else {
                    throw ValidationError("--output \(output): cannot be written: \(String(cString: strerror(errno)))")
                }
            }
        } catch {
            if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
            await kept.close()
            FileHandle.standardError.write(Data("error: \(kept.location): \(error)\n".utf8))
            throw ExitCode.failure
        }
        await kept.close()
        if let output { print("\(output): \(count) event\(count == 1 ? "" : "s")") }
    }
}

struct VerifyStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-store",
        abstract: "Walk the store's hash chain and check every event, document, record and PDF.",
        discussion: """
            Exit status 0 when everything matches, printing the number of events and the last one's SHA-256 (keep it \
            elsewhere: a later run that does not reach it means events were cut off); 1 naming the first event that \
            does not match.
            """)

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let kept = try await store.open()
        let verification: StoreVerification
        do {
            verification = try await kept.verify()
        } catch {
            await kept.close()
            FileHandle.standardError.write(Data("error: \(kept.location): \(error)\n".utf8))
            throw ExitCode.failure
        }
        await kept.close()
        if let failure = verification.failure {
            FileHandle.standardError.write(Data("error: \(kept.location): \(failure)\n".utf8))
            throw ExitCode.failure
        }
        print("ok: \(verification.events) event\(verification.events == 1 ? "" : "s"), head \(verification.head)")
    }
}
