// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation
import Logging
import SignatureInkConsent
import SignatureInkServer
import NIOCore
import ServiceLifecycle

@main
struct SignatureInkServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signature-ink-server",
        abstract: "Serve the signature form cell and consent pages, and render stroke files over HTTP.",
        discussion: "Stops gracefully on SIGINT or SIGTERM: requests in flight are answered first. LOG_LEVEL sets the log level.")

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

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0...65535") }
        guard (1...(256 << 20)).contains(maxBody) else { throw ValidationError("--max-body must be in 1...268435456") }
        guard maxSamples > 0, idleTimeout > 0, requestTimeout > 0, workers > 0, workTimeout > 0, maxWork > 0 else {
            throw ValidationError("--max-samples, --idle-timeout, --request-timeout, --workers, --work-timeout and --max-work must be positive")
        }
        guard (queue ?? 0) >= 0, shutdownGrace >= 0 else { throw ValidationError("--queue and --shutdown-grace must be >= 0") }
    }

    func run() async throws {
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
        var limits = ServerConfiguration.defaultRenderLimits
        limits.maxWork = maxWork
        let configuration = ServerConfiguration(host: host, port: port, maxBody: maxBody, maxSamples: maxSamples, idleTimeout: idleTimeout,
                                                requestTimeout: requestTimeout, renderLimits: limits, workers: workers, queueLength: queue,
                                                workTimeout: workTimeout, shutdownGrace: shutdownGrace)
        let app = try SignatureInkServer.application(configuration: configuration, consentDocument: document, logger: logger)
        // SIGTERM or SIGINT: no new connections; requests in flight have the grace to finish, then the server's
        // task is cancelled, which closes every connection and so stops the work still running (HangUpHandler).
        var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = .seconds(shutdownGrace)
        group.maximumCancellationDuration = .seconds(2)
        try await ServiceGroup(configuration: group).run()
    }
}
