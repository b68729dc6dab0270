// SPDX-License-Identifier: Apache-2.0

/// The life cycle of a signature field, as the design guides describe it: inactive, active (drawing), signed,
/// saved, with Cancel, Clear, Save, Re-enter Signature, and undo and redo by stroke.
///
/// ```
/// inactive --activate--> active --first ink--> signed --save--> saved
///     ^                    |  ^                  |  |              |
///     +------cancel--------+  +------clear-------+  |              |
///     +------------------------cancel---------------+              |
///                          ^ <-------------- reenter --------------+  (or inactive, by configuration)
/// ```
///
/// The session is a value with no UI in it, so every front end behaves the same and tests run headless. An event
/// that does not apply in the current state is refused with a ``Refusal`` and changes nothing.
///
/// The session records the samples of the drawing pointer as delivered, re-timed from the signature's first
/// sample: a signature record keeps what the device said. Only what cannot be stored is touched: a sample with a
/// non-finite position is dropped, a non-finite time becomes the previous sample's, a non-finite pressure or
/// angle becomes `nil` and pressure is clamped to 0...1. The same samples also feed a ``StrokeBuilder``, whose
/// repairs (duplicates, backwards times, wild points) shape the drawn ink only. Strokes outside the canvas are
/// kept; the renderer clips them.
public struct CaptureSession: Sendable {
    /// Where the signature field is in its life cycle.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Nothing can be drawn; a "Tap to Sign" scrim is shown.
        case inactive
        /// The drawing area is live and has no ink; Cancel is offered.
        case active
        /// There is ink; Clear and Save are enabled.
        case signed
        /// The signature is saved and read-only, shown in view mode; Re-enter Signature is offered.
        case saved
    }

    /// What a user or front end can do.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// Tap to sign: make the drawing area live.
        case activate
        /// Put ink down with a pointer.
        case draw
        /// Leave without saving, discarding the unsaved ink.
        case cancel
        /// Remove all ink and start over.
        case clear
        /// Freeze the ink into a saved record.
        case save
        /// Re-enter Signature: discard the saved one and sign again.
        case reenter
        /// Remove the last stroke.
        case undo
        /// Put back the last removed stroke.
        case redo
    }

    /// Why an event was refused. A refused event changes nothing.
    public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The action does not apply in this state.
        case notAvailable(Action, in: State)
        /// There is no stroke to undo.
        case nothingToUndo
        /// There is no undone stroke to redo.
        case nothingToRedo
        /// Undo, redo, clear or save while a stroke is being drawn.
        case strokeInProgress
        /// The ink is not enough to be a signature.
        case tooSmall(SignatureMinimums.Shortfall)

        /// The reason in words, for a UI or a log.
        public var description: String {
            switch self {
            case let .notAvailable(action, state): return "\(action.rawValue) is not available while \(state.rawValue)"
            case .nothingToUndo: return "there is no stroke to undo"
            case .nothingToRedo: return "there is no stroke to redo"
            case .strokeInProgress: return "a stroke is being drawn"
            case let .tooSmall(shortfall): return "not a signature yet: \(shortfall)"
            }
        }
    }

    /// Settings of a signature field.
    public struct Configuration: Sendable, Hashable {
        /// The drawing area; `nil` when unknown.
        public var canvas: Canvas?
        /// The pen; default ``PenStyle/default``.
        public var style: PenStyle
        /// The ink colour; default black.
        public var penColor: Color
        /// Whether the form needs a signature here (the asterisk); default `false`.
        public var isRequired: Bool
        /// How much ink makes a signature; default ``SignatureMinimums/default``.
        public var minimums: SignatureMinimums
        /// Where Re-enter Signature leads: ``State/active`` (the default, as the signature capture inline guide
        /// says) or ``State/inactive`` (the inline form cell).
        public var reenterState: State
        /// Unix time in milliseconds of the zero of the clock pointer samples are timed with, or `nil` when that
        /// clock's relation to calendar time is unknown. Use 0 when samples carry Unix time already.
        public var clockEpoch: Double?
        /// How faulty pointer input is repaired.
        public var repair: InputRepair

        /// Creates a configuration; every argument defaults to the documented default.
        public init(canvas: Canvas? = nil, style: PenStyle = .default, penColor: Color = .black,
                    isRequired: Bool = false, minimums: SignatureMinimums = .default,
                    reenterState: State = .active, clockEpoch: Double? = nil, repair: InputRepair = .default) {
            self.canvas = canvas
            self.style = style
            self.penColor = penColor
            self.isRequired = isRequired
            self.minimums = minimums
            self.reenterState = reenterState == .inactive ? .inactive : .active
            self.clockEpoch = clockEpoch
            self.repair = repair
        }
    }

    /// The settings this session was created with.
    public let configuration: Configuration
    /// The current state.
    public private(set) var state: State = .inactive
    /// The finished strokes of the unsaved signature (or of the saved one, in ``State/saved``).
    public private(set) var signature: Signature
    /// The saved record, in ``State/saved`` only.
    public private(set) var record: SignatureRecord?

    private var builder: StrokeBuilder
    /// The samples of the stroke being drawn, as delivered.
    private var current: [InkSample] = []
    private var undone: [[InkSample]] = []
    /// The caller's clock reading at the signature's first sample.
    private var clockOrigin: Double?

    /// Creates an inactive session.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.signature = Signature(canvas: configuration.canvas)
        self.builder = StrokeBuilder(style: configuration.style, repair: configuration.repair)
    }

    // MARK: What is possible now

    /// Whether there is ink: a finished stroke or one being drawn.
    public var hasInk: Bool { !signature.isEmpty || builder.isDrawing }

    /// Whether a stroke is being drawn.
    public var isDrawing: Bool { builder.isDrawing }

    /// Whether the field is valid for submitting a form: a required signature only once saved.
    public var isValid: Bool { !configuration.isRequired || state == .saved }

    /// The first minimum the current ink falls short of, or `nil` when it is enough to save.
    public var shortfall: SignatureMinimums.Shortfall? { configuration.minimums.shortfall(of: signature) }

    /// The actions a UI should show as enabled now. Save is enabled whenever there is ink; if the ink is too
    /// small, saving is refused with the reason, which the UI can show.
    public var enabledActions: Set<Action> {
        var actions: Set<Action> = []
        switch state {
        case .inactive: actions = [.activate]
        case .active, .signed:
            actions = [.draw, .cancel]
            if !isDrawing {
                if hasInk { actions.formUnion([.clear, .save]) }
                if !signature.isEmpty { actions.insert(.undo) }
                if !undone.isEmpty { actions.insert(.redo) }
            }
        case .saved: actions = [.reenter]
        }
        return actions
    }

    /// Whether `action` is enabled now.
    public func isEnabled(_ action: Action) -> Bool { enabledActions.contains(action) }

    // MARK: Life cycle

    /// Inactive -> active: the drawing area goes live.
    public mutating func activate() throws(Refusal) {
        try require(.activate)
        state = .active
    }

    /// Active or signed -> inactive, discarding the unsaved ink and the undo history.
    public mutating func cancel() throws(Refusal) {
        try require(.cancel)
        discardInk()
        state = .inactive
    }

    /// Signed -> active: removes all ink. Not undoable.
    public mutating func clear() throws(Refusal) {
        guard state == .signed else { throw .notAvailable(.clear, in: state) }
        guard !isDrawing else { throw .strokeInProgress }
        discardInk()
        state = .active
    }

    /// Signed -> saved: freezes the ink into a ``SignatureRecord``.
    /// - Parameter time: the save time in milliseconds since the Unix epoch (passed in, so tests and replays
    ///   are deterministic).
    /// - Returns: the record, also kept in ``record``.
    /// - Throws: ``Refusal/tooSmall(_:)`` when the ink falls short of the minimums.
    @discardableResult
    public mutating func save(at time: Double) throws(Refusal) -> SignatureRecord {
        guard state == .signed else { throw .notAvailable(.save, in: state) }
        guard !isDrawing else { throw .strokeInProgress }
        if let shortfall { throw .tooSmall(shortfall) }
        var saved = signature
        if let epoch = configuration.clockEpoch, let origin = clockOrigin { saved.startTime = epoch + origin }
        let made = SignatureRecord(signature: saved, style: configuration.style, penColor: configuration.penColor,
                                   savedAt: time)
        signature = saved
        record = made
        undone.removeAll()
        state = .saved
        return made
    }

    /// Saved -> active (or inactive, by ``Configuration/reenterState``): clears the saved signature.
    public mutating func reenter() throws(Refusal) {
        try require(.reenter)
        record = nil
        discardInk()
        state = configuration.reenterState
    }

    /// Removes the last finished stroke; it can be redone until new ink is drawn.
    public mutating func undo() throws(Refusal) {
        guard state == .active || state == .signed else { throw .notAvailable(.undo, in: state) }
        guard !isDrawing else { throw .strokeInProgress }
        guard let stroke = signature.removeLastStroke() else { throw .nothingToUndo }
        undone.append(stroke)
        if signature.isEmpty { state = .active }
    }

    /// Puts back the last undone stroke.
    public mutating func redo() throws(Refusal) {
        guard state == .active || state == .signed else { throw .notAvailable(.redo, in: state) }
        guard !isDrawing else { throw .strokeInProgress }
        guard let stroke = undone.popLast() else { throw .nothingToRedo }
        signature.appendStroke(stroke)
        state = .signed
    }

    // MARK: Pointer input

    /// Feeds one pointer event. Its sample's `t` is the caller's clock in milliseconds (any origin); the
    /// session re-times samples from the signature's first one.
    /// - Returns: whether the event was used; an event of a second pointer while one draws is ignored.
    /// - Throws: ``Refusal/notAvailable(_:in:)`` when the field is not live (inactive or saved).
    @discardableResult
    public mutating func handle(_ event: PointerEvent) throws(Refusal) -> Bool {
        guard state == .active || state == .signed else { throw .notAvailable(.draw, in: state) }
        var event = event
        // The first sample of a new signature sets time zero; undone strokes keep theirs for redo.
        if event.phase == .down, !builder.isDrawing, signature.isEmpty, builder.samples.isEmpty {
            clockOrigin = event.sample.t
        }
        event.sample.t -= clockOrigin ?? event.sample.t
        let used = builder.handle(event)
        guard used else { return false }
        switch event.phase {
        case .down:
            undone.removeAll()
            current.removeAll(keepingCapacity: true)
            record(event.sample)
            state = .signed
        case .move:
            record(event.sample)
        case .up:
            // The stroke joins the signature; the builder keeps its geometry until the next pen-down, so a live
            // view can still fetch the stroke's last piece.
            record(event.sample)
            signature.appendStroke(current)
            current.removeAll(keepingCapacity: true)
        case .cancel:
            current.removeAll(keepingCapacity: true)
        }
        if !hasInk { state = .active }
        return true
    }

    /// Ends the stroke of `pointer` without a new sample, for platforms whose pen-up carries no position (and for
    /// replays, whose last sample already came as a move).
    /// - Returns: whether a stroke of that pointer was in progress.
    @discardableResult
    public mutating func lift(pointer: Int = 0) throws(Refusal) -> Bool {
        guard state == .active || state == .signed else { throw .notAvailable(.draw, in: state) }
        guard builder.end(nil, pointer: pointer) else { return false }
        signature.appendStroke(current)
        current.removeAll(keepingCapacity: true)
        if !hasInk { state = .active }
        return true
    }

    /// Feeds a batch of coalesced move samples of the drawing pointer (the points a platform gathered between two
    /// frames), in time order.
    /// - Returns: whether the batch was used.
    @discardableResult
    public mutating func handle(coalesced samples: [InkSample], pointer: Int = 0) throws(Refusal) -> Bool {
        guard state == .active || state == .signed else { throw .notAvailable(.draw, in: state) }
        let origin = clockOrigin ?? 0
        var batch = samples.map { s -> InkSample in var s = s; s.t -= origin; return s }
        // Stable by time, as the builder orders them; a non-finite time sorts last.
        batch = batch.indices.sorted { i, j in
            let a = batch[i].t.isFinite ? batch[i].t : .infinity, b = batch[j].t.isFinite ? batch[j].t : .infinity
            return a < b || (a == b && i < j)
        }.map { batch[$0] }
        guard builder.add(coalesced: batch, pointer: pointer) else { return false }
        for s in batch { record(s) }
        return true
    }

    /// Keeps a delivered sample, touching only what cannot be stored.
    private mutating func record(_ sample: InkSample) {
        guard sample.x.isFinite, sample.y.isFinite else { return }
        var s = sample
        if !s.t.isFinite { s.t = current.last?.t ?? 0 }
        if let p = s.pressure { s.pressure = p.isFinite ? Swift.min(1, Swift.max(0, p)) : nil }
        if let a = s.altitude, !a.isFinite { s.altitude = nil }
        if let a = s.azimuth, !a.isFinite { s.azimuth = nil }
        current.append(s)
    }

    /// Feeds several pointer events in order, such as one frame's coalesced moves.
    /// - Returns: how many were used.
    @discardableResult
    public mutating func handle<S: Sequence>(_ events: S) throws(Refusal) -> Int where S.Element == PointerEvent {
        var used = 0
        for e in events where try handle(e) { used += 1 }
        return used
    }

    /// Appends the smoothed geometry of the stroke being drawn added since the last call, for a live view.
    /// - Returns: whether anything was added.
    @discardableResult
    public mutating func appendNewGeometry(to path: inout Path) -> Bool { builder.appendNewGeometry(to: &path) }

    // MARK: Helpers

    private func require(_ action: Action) throws(Refusal) {
        guard isEnabled(action) else {
            if state == .active || state == .signed, isDrawing, action != .cancel { throw .strokeInProgress }
            throw .notAvailable(action, in: state)
        }
    }

    private mutating func discardInk() {
        signature = Signature(canvas: configuration.canvas)
        builder.reset()
        current.removeAll(keepingCapacity: true)
        undone.removeAll()
        clockOrigin = nil
    }
}
