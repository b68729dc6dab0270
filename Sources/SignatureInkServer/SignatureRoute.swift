// SPDX-License-Identifier: Apache-2.0
import Foundation
import Hummingbird
import SignatureInk
import SignatureInkConsent
import SignatureInkFormats
import SignatureInkRender
import SignatureInkStore

/// `POST /signatures`: the form cell's Save, of a drawn signature (the native document) or of a name typed in its
/// place (`{"typed": "Ada Lovelace"}`).
enum SignatureRoute {
    struct Saved: Encodable, Sendable {
        /// The signature's identifier in the store, or `nil` when the server keeps nothing.
        var id: String?
        var format = "signature-ink"
        /// `drawn`, or `typed` for a name typed in place of drawing.
        var kind: ConsentSignature.Kind
        /// The stored signature: the native document, as the server keeps it (lossless; its digest is `digest`);
        /// `nil` for a typed one.
        var signature: String?
        /// The name as typed, without surrounding white space; `nil` for a drawn one.
        var typedSignature: String?
        /// SHA-256 of the canonical samples, or of a typed name's UTF-8 text.
        var digest: String
        var savedAt: Double
        var strokes: Int?
        var samples: Int?
        var png: String?
    }

    /// The body of a typed signature: `{"typed": text}` and no other field.
    struct TypedBody: Decodable {
        var typed: String

        init(from decoder: any Decoder) throws {
            typed = try StrictFields(decoder, ["typed"]).value("typed")
        }
    }

    /// Whether a body is an object with a `typed` field, whatever else it has (which ``TypedBody`` then refuses).
    private struct TypedProbe: Decodable {
        var typed: Bool

        init(from decoder: any Decoder) throws {
            typed = try decoder.container(keyedBy: StrictFields.Key.self).contains(StrictFields.Key(stringValue: "typed"))
        }
    }

    /// The largest body read as a typed signature: 200 characters of 12 bytes each (two `\u` escapes) and room for
    /// space; a longer body is read as ink, and no native document is looked at twice.
    static let maxTypedBody = 16 * 1024

    /// Decodes and draws `body`, on a worker; ``keep(_:store:client:)`` keeps it.
    /// - Throws: `APIError` 422 for a body that is no valid signature; `RenderError.stopped` when `stop` stopped it.
    static func save(_ body: [UInt8], configuration: ServerConfiguration, stop: RenderStop) throws -> Saved {
        if body.count <= maxTypedBody, (try? JSONDecoder().decode(TypedProbe.self, from: Data(body)))?.typed == true {
            return try saveTyped(body)
        }
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
        return Saved(kind: .drawn, signature: stored, digest: record.digest, savedAt: record.savedAt, strokes: signature.strokeCount,
                     samples: signature.samples.count, png: "data:image/png;base64," + Data(png).base64EncodedString())
    }

    /// A typed signature, checked as a consent's typed signature is (`ConsentSignature.typed(_:field:)`).
    /// - Throws: `APIError` 422 for another field, a name that is not a string, empty, too long or with a control
    ///   character.
    static func saveTyped(_ body: [UInt8]) throws -> Saved {
        let typed: String
        do {
            typed = try ConsentSignature.typed(try JSONDecoder().decode(TypedBody.self, from: Data(body)).typed, field: "typed")
        } catch let error as ConsentError {
            throw APIError(.unprocessableContent, "\(error)")
        } catch {
            throw APIError(.unprocessableContent, BodyError.describe(error))
        }
        return Saved(kind: .typed, typedSignature: typed, digest: HexDigest.sha256(Array(typed.utf8)),
                     savedAt: (Date().timeIntervalSince1970 * 1000).rounded())
    }

    /// Keeps a saved signature in the store and answers with it, once committed.
    /// - Throws: `APIError` 503 when the store fails (nothing was kept).
    /// - Parameter provenance: the client, and the signed-in user and device who own the signature, if any.
    static func keep(_ saved: Saved, store: ConsentStore?, provenance: Provenance) async throws -> Response {
        var saved = saved
        if let store {
            saved.id = try await StoreRoutes.run {
                if let typed = saved.typedSignature {
                    return try await store.keep(typedSignature: typed, digest: saved.digest, savedAt: saved.savedAt, provenance: provenance).id
                }
                return try await store.keep(signature: saved.signature ?? "", digest: saved.digest, savedAt: saved.savedAt,
                                            provenance: provenance).id
            }
        }
        return try .json(saved)
    }
}
