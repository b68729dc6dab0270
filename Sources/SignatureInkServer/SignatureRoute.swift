// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import SignatureInk
import SignatureInkFormats
import SignatureInkRender
import SignatureInkStore

/// `POST /signatures`: the form cell's Save.
enum SignatureRoute {
    struct Saved: Encodable, Sendable {
        /// The signature's identifier in the store, or `nil` when the server keeps nothing.
        var id: String?
        var format = "signature-ink"
        /// The stored signature: the native document, as the server keeps it (lossless; its digest is `digest`).
        var signature: String
        var digest: String
        var savedAt: Double
        var strokes: Int
        var samples: Int
        var png: String
    }

    /// Decodes and draws `body`, on a worker; ``keep(_:store:client:)`` keeps it.
    /// - Throws: `APIError` 422 for a body that is no valid signature; `RenderError.stopped` when `stop` stopped it.
    static func save(_ body: [UInt8], configuration: ServerConfiguration, stop: RenderStop) throws -> Saved {
        let signature: Signature
        do {
            signature = try InkDecoder(limits: SignatureInkServer.limits(configuration)).decode(Data(body), as: .native).signature
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
        let record = SignatureRecord(signature: signature, savedAt: (Date().timeIntervalSince1970 * 1000).rounded())
        let png: [UInt8]
        do {
            png = try SignatureRenderer(options: RenderOptions(scale: 2).viewMode(), limits: configuration.renderLimits)
                .png(signature, stop: stop)
        } catch .stopped(let reason) {
            throw RenderError.stopped(reason)
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
        let stored: String
        do {
            stored = try NativeEncoder().encode(signature)
        } catch {
            throw APIError(.unprocessableContent, "\(error)")
        }
        return Saved(signature: stored, digest: record.digest, savedAt: record.savedAt, strokes: signature.strokeCount,
                     samples: signature.samples.count, png: "data:image/png;base64," + Data(png).base64EncodedString())
    }

    /// Keeps a saved signature in the store and answers with it, once committed.
    /// - Throws: `APIError` 503 when the store fails (nothing was kept).
    static func keep(_ saved: Saved, store: ConsentStore?, client: String?) async throws -> Response {
        var saved = saved
        if let store {
            saved.id = try await StoreRoutes.run {
                try await store.keep(signature: saved.signature, digest: saved.digest, savedAt: saved.savedAt,
                                     provenance: Provenance(client: client)).id
            }
        }
        return try .json(saved)
    }
}
