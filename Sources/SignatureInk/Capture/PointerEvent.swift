// SPDX-License-Identifier: Apache-2.0

/// One pointer event as a platform delivers it: a phase, the pointer it came from and a sample.
public struct PointerEvent: Sendable, Hashable {
    /// Where in a stroke the event falls.
    public enum Phase: Sendable, Hashable {
        /// The pen touched the surface: a stroke begins.
        case down
        /// The pen moved while touching.
        case move
        /// The pen lifted: the stroke ends with this sample.
        case up
        /// The platform cancelled the touch (for example a palm was detected): the stroke is discarded.
        case cancel
    }

    /// The event's phase.
    public var phase: Phase
    /// The platform's identifier of the pointer (touch, pen or mouse); any value, compared for equality.
    public var pointer: Int
    /// Where and when, in canvas units and milliseconds on the signature's clock.
    public var sample: InkSample

    /// Creates an event.
    /// - Parameters:
    ///   - phase: down, move, up or cancel.
    ///   - pointer: the pointer's identifier; default 0.
    ///   - sample: the sample.
    public init(_ phase: Phase, pointer: Int = 0, sample: InkSample) {
        self.phase = phase
        self.pointer = pointer
        self.sample = sample
    }
}
