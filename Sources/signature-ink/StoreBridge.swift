// SPDX-License-Identifier: Apache-2.0
import SignatureInkConsent
import SignatureInkStore

/// The consent store from the command line's synchronous commands: the store's calls are `async`, and the tool's
/// main thread waits for each one on a semaphore while the call runs on Swift's cooperative threads.
enum StoreBridge {
    /// Keeps a signed consent in the store at `location`, and gives its identifier.
    /// - Throws: ``StoreError``, in which case nothing was kept.
    static func keep(_ signed: ConsentSubmission.Signed, in location: String) throws(StoreError) -> String {
        try wait {
            let store = try await ConsentStore.open(location)
            do {
                let kept = try await store.keep(signed.record, pdf: signed.pdf, pages: signed.pageCount,
                                                provenance: Provenance(client: "signature-ink consent sign"))
                await store.close()
                return kept.id
            } catch {
                await store.close()
                throw error
            }
        }
    }

    /// Runs `work` to its end and gives its result, blocking the calling (non-cooperative) thread meanwhile.
    private static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws(StoreError) -> T {
        switch Blocking.run(work) {
        case let .success(value): return value
        case let .failure(error): throw error as? StoreError ?? .database("\(error)")
        }
    }
}
