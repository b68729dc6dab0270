// SPDX-License-Identifier: Apache-2.0
import SignatureInkConsent
import SignatureInkFormats

extension ConsentStore {
    /// Walks the whole log, oldest first, and stops at the first event that does not match.
    ///
    /// For each event it checks that its position follows the one before; that its content's SHA-256, its link to
    /// the event before and its own SHA-256 are what its bytes give; that the columns the database keeps beside it to
    /// find it (a consent's document and signers, the consent a withdrawal names) are what its content says; that a
    /// document's identifier is its digest; that a consent's document comes before it and its record verifies against
    /// its kept PDF (`ConsentRecord.verify(pdf:)`: the document's, each signature's and the PDF's SHA-256) and its record
    /// text as returned at signing is the record it keeps; and that a withdrawal names an earlier consent not withdrawn
    /// before, and an enrolment or a revocation an earlier user; and that a retirement names a digest and a reason the
    /// store accepts, under the identifier of its digest, and an earlier user as the administrator if any.
    ///
    /// What it proves and what it does not: a row changed by hand, an event removed or inserted in the middle, or a
    /// PDF changed, is found. Events cut off the end, or a whole chain rewritten by someone who recomputes every
    /// digest, are found only against a ``StoreVerification/head`` kept elsewhere before.
    /// - Returns: how many events were checked, the last one's digest, and the first failure if any.
    /// - Throws: a database error; never for what it finds, which is ``StoreVerification/failure``.
    public func verify() async throws(StoreError) -> StoreVerification {
        var previous: ChainHead?
        var documents: [String: String] = [:]
        var consents: Set<String> = []
        var withdrawn: Set<String> = []
        var users: Set<String> = []
        var checked: Int64 = 0
        while true {
            let rows = try await database.rows(kind: nil, after: previous?.sequence ?? 0, limit: ConsentQuery.maxLimit)
            if rows.isEmpty { break }
            for row in rows {
                let event = row.event
                func failed(_ message: String) -> StoreVerification {
                    StoreVerification(events: checked, head: previous?.sha256 ?? StoreEvent.genesis,
                                      failure: .init(sequence: event.sequence, id: event.id, message: message))
                }
                let expected = (previous?.sequence ?? 0) + 1
                if event.sequence != expected {
                    return failed("comes after event \(expected - 1): \(event.sequence - expected) event(s) are missing before it")
                }
                let contentDigest = HexDigest.sha256(event.content)
                if contentDigest != event.contentSHA256 {
                    return failed("its content's SHA-256 is \(contentDigest), the event says \(event.contentSHA256)")
                }
                let link = previous?.sha256 ?? StoreEvent.genesis
                if event.previousSHA256 != link {
                    return failed("it links to \(event.previousSHA256), but the event before it is \(link)")
                }
                let digest = HexDigest.sha256(event.header)
                if digest != event.sha256 {
                    return failed("its SHA-256 is \(digest), the event says \(event.sha256)")
                }
                let index: EventIndex
                do {
                    index = try EventIndex(of: event)
                } catch {
                    return failed("its content cannot be read: \(error)")
                }
                if index != row.index {
                    return failed("the columns kept beside it (\(row.index)) are not what its content says (\(index))")
                }
                switch event.kind {
                case .document:
                    if event.id != contentDigest { return failed("a document's identifier must be its SHA-256, \(contentDigest)") }
                    documents[event.id] = String(decoding: event.content, as: UTF8.self)
                case .consent:
                    if let problem = try await check(consent: event, documents: documents) { return failed(problem) }
                    consents.insert(event.id)
                case .withdrawal:
                    guard let subject = index.subject, consents.contains(subject) else {
                        return failed("it withdraws '\(index.subject ?? "")', which is no earlier consent")
                    }
                    guard withdrawn.insert(subject).inserted else { return failed("it withdraws '\(subject)' a second time") }
                case .signature:
                    break
                case .user:
                    users.insert(event.id)
                case .enrolment, .revocation:
                    guard let user = index.user, users.contains(user) else {
                        return failed("it names the user '\(index.user ?? "")', who is no earlier user")
                    }
                case .retirement:
                    if let problem = Self.check(retirement: event, users: users) { return failed(problem) }
                }
                previous = ChainHead(sequence: event.sequence, sha256: event.sha256)
                checked += 1
            }
        }
        return StoreVerification(events: checked, head: previous?.sha256 ?? StoreEvent.genesis, failure: nil)
    }

    /// What is wrong with a retirement's event, or `nil`: its content must be one the store accepts, its identifier
    /// `retirement-` and its document's digest, and the administrator it names an earlier user.
    private static func check(retirement event: StoreEvent, users: Set<String>) -> String? {
        guard let content = try? CanonicalJSON.decode(RetirementContent.self, event.content, event: event.id) else {
            return "its content is no retirement"
        }
        if let problem = content.problem { return "its content is not a retirement the store accepts: \(problem)" }
        if event.id != retirementID(content.document) { return "a retirement's identifier must be \(retirementID(content.document))" }
        if let user = content.provenance.user, !users.contains(user) { return "it names the user '\(user)', who is no earlier user" }
        return nil
    }

    /// What is wrong with a consent's event, or `nil`.
    private func check(consent event: StoreEvent, documents: [String: String]) async throws(StoreError) -> String? {
        guard let content = try? CanonicalJSON.decode(ConsentContent.self, event.content, event: event.id) else {
            return "its content is no consent"
        }
        var record = content.record
        guard let document = documents[record.documentDigest.lowercased()] else {
            return "its document \(record.documentDigest) is no earlier event"
        }
        record.document = document
        guard let pdf = try await database.blob(sha256: record.pdfSHA256.lowercased()) else {
            return "its PDF (SHA-256 \(record.pdfSHA256)) is missing"
        }
        let problems = record.verify(pdf: pdf)
        if !problems.isEmpty { return problems.map(\.description).joined(separator: "; ") }
        guard let digest = content.recordSHA256 else { return nil }
        guard let json = try await database.blob(sha256: digest) else { return "its record text (SHA-256 \(digest)) is missing" }
        let actual = HexDigest.sha256(json)
        if actual != digest { return "its record text's SHA-256 is \(actual), the consent says \(digest)" }
        guard var returned = try? ConsentRecord(json: json) else { return "its record text is no consent record" }
        returned.document = ""
        return returned == content.record ? nil : "its record text is not the record it keeps"
    }
}
