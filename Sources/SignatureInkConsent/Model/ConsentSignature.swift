// SPDX-License-Identifier: Apache-2.0
public import SignatureInk

/// One signer's signature on a consent document: the slot, the printed name, the drawn ink (or the name typed in
/// its place) and the date.
public struct ConsentSignature: Sendable, Hashable {
    /// How a signature was given.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Drawn: ink.
        case drawn
        /// Typed: the signer typed their name instead of drawing (``ConsentSignature/typedSignature``).
        case typed
        /// Neither: the slot asks for no signature.
        case none
    }

    /// The identifier of the ``SignatureSlot`` signed.
    public var slot: String
    /// The printed name as the signer gave it ("Given Family"); empty when the slot needs none.
    public var name: String
    /// The drawn signature, or `nil` when the slot needs none or the signer typed.
    public var signature: Signature?
    /// The name the signer typed in place of drawing, or `nil` (drawn, or no signature). A person who cannot draw
    /// may type; a slot may require a drawn signature (``SignatureSlot/requiresDrawnSignature``).
    public var typedSignature: String?
    /// When it was signed, and in which time zone the date is printed.
    public var date: ConsentDate

    /// Most characters in a printed name.
    public static let maxNameLength = 200

    /// Creates a signature.
    /// - Parameters:
    ///   - slot: the slot's identifier.
    ///   - name: the printed name; surrounding white space is removed.
    ///   - signature: the ink, or `nil`.
    ///   - typedSignature: the name typed in place of the ink, or `nil` (the default); surrounding white space is
    ///     removed.
    ///   - date: when it was signed.
    public init(slot: String, name: String, signature: Signature?, typedSignature: String? = nil, date: ConsentDate) {
        self.slot = slot
        self.name = name.trimmingWhitespace()
        self.signature = signature
        self.typedSignature = typedSignature?.trimmingWhitespace()
        self.date = date
    }

    /// Whether the signature was drawn, typed, or not given.
    public var kind: Kind { typedSignature != nil ? .typed : signature != nil ? .drawn : .none }

    /// `text` trimmed, as the typed signature of `slot`: the one check the document, the walk-through and a submission
    /// make of it.
    /// - Throws: ``ConsentError/invalidSignature(field:message:)`` where the slot requires a drawn signature, or
    ///   ``ConsentError/invalidSignature(field:message:)`` and ``ConsentError/limitExceeded(field:limit:actual:)`` as
    ///   for a name; ``ConsentError/missingSignature(slot:)`` when nothing is typed.
    static func typed(_ text: String, for slot: SignatureSlot) throws(ConsentError) -> String {
        let field = "typed signature of '\(slot.identifier)'"
        if slot.requiresDrawnSignature {
            throw .invalidSignature(field: field, message: "signature slot '\(slot.identifier)' requires a drawn signature")
        }
        let typed = text.trimmingWhitespace()
        if typed.isEmpty { throw .missingSignature(slot: slot.identifier) }
        return try Self.typed(typed, field: field)
    }

    /// `text` trimmed, as a typed signature given outside a consent (the signature form cell's): the limits of a
    /// typed signature in a consent, checked by the same rule.
    /// - Parameters:
    ///   - text: the name as typed.
    ///   - field: what to call it in an error, such as `typed`.
    /// - Returns: the name without surrounding white space.
    /// - Throws: ``ConsentError/limitExceeded(field:limit:actual:)`` over ``maxNameLength`` characters,
    ///   ``ConsentError/invalidSignature(field:message:)`` for a control character or nothing but white space.
    public static func typed(_ text: String, field: String) throws(ConsentError) -> String {
        let typed = text.trimmingWhitespace()
        try validate(name: typed, field: field)
        if typed.isEmpty { throw .invalidSignature(field: field, message: "must not be empty") }
        return typed
    }

    /// Throws unless `name` is at most ``maxNameLength`` characters with no control characters.
    static func validate(name: String, field: String) throws(ConsentError) {
        let count = name.unicodeScalars.count
        guard count <= maxNameLength else { throw .limitExceeded(field: field, limit: maxNameLength, actual: count) }
        if let bad = name.unicodeScalars.first(where: \.isControl) {
            throw .invalidSignature(field: field, message: "control character U+\(String(bad.value, radix: 16, uppercase: true)) in the name")
        }
    }
}

extension String {
    /// The string without leading and trailing white space and line breaks.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
