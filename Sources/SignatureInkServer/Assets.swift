// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The pages, scripts and styles the server serves, read once from the target's resources into memory.
///
/// A request names an asset by its file name and gets it only when it is one of these: no path is ever joined
/// to a folder, so nothing outside them can be read, whatever the request's path says (`..`, `%2e%2e`, `/`).
struct Assets: Sendable {
    struct Asset: Sendable {
        var bytes: [UInt8]
        var contentType: String
    }

    let files: [String: Asset]

    /// The served files and their types.
    static let names: [String: String] = [
        "index.html": "text/html; charset=utf-8", "form-cell.css": "text/css; charset=utf-8",
        "form-cell.js": "text/javascript; charset=utf-8", "consent.html": "text/html; charset=utf-8",
        "consent.js": "text/javascript; charset=utf-8", "openapi.yaml": "application/yaml; charset=utf-8",
        "study-consent.json": "application/json; charset=utf-8", "device.html": "text/html; charset=utf-8",
        "device.js": "text/javascript; charset=utf-8", "device.css": "text/css; charset=utf-8",
    ]

    /// Reads every asset from the bundle.
    /// - Throws: when one is missing (a broken build).
    static func load() throws -> Assets {
        var files: [String: Asset] = [:]
        for (name, type) in names {
            guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Public") else {
                throw APIError(.internalServerError, "the server's asset \(name) is missing")
            }
            files[name] = Asset(bytes: Array(try Data(contentsOf: url)), contentType: type)
        }
        return Assets(files: files)
    }

    subscript(name: String) -> Asset? { files[name] }
}
