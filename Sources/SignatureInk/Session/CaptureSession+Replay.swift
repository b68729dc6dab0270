// SPDX-License-Identifier: Apache-2.0

extension CaptureSession {
    /// Replays a signature's strokes through the session as pointer events, instantly: down, moves, up for each
    /// stroke, timed as recorded. An inactive session is activated first.
    /// - Throws: ``Refusal`` when the session is saved.
    public mutating func replay(_ signature: Signature) throws(Refusal) {
        if state == .inactive { try activate() }
        for stroke in signature.strokes {
            try handle(CaptureSession.events(of: stroke))
            try lift()
        }
    }

    /// Replays a signature at its recorded timing: before each sample, waits until that sample's time.
    /// - Parameters:
    ///   - signature: the strokes to replay.
    ///   - speed: playback speed, > 0; default 1 (real time), 2 plays twice as fast.
    ///   - sleep: waits the given number of milliseconds, such as `{ try await Task.sleep(for: .milliseconds($0)) }`.
    public mutating func replay(_ signature: Signature, speed: Double = 1,
                                sleep: (_ milliseconds: Double) async throws -> Void) async throws {
        if state == .inactive { try activate() }
        var clock = signature.samples.first?.t ?? 0
        let pace = speed > 0 && speed.isFinite ? speed : 1
        for stroke in signature.strokes {
            for event in CaptureSession.events(of: stroke) {
                if event.sample.t > clock {
                    try await sleep((event.sample.t - clock) / pace)
                    clock = event.sample.t
                }
                try handle(event)
            }
            try lift()
        }
    }

    /// The pointer events that draw one stroke, before its pen-up: down at its first sample and a move for each
    /// of the others. ``lift(pointer:)`` ends it without repeating the last sample.
    static func events(of stroke: ArraySlice<InkSample>) -> [PointerEvent] {
        guard let first = stroke.first else { return [] }
        var events = [PointerEvent(.down, sample: first)]
        events.reserveCapacity(stroke.count)
        for s in stroke.dropFirst() { events.append(PointerEvent(.move, sample: s)) }
        return events
    }
}
