// SPDX-License-Identifier: Apache-2.0
import InkTestSupport
import SignatureInk
import Testing

/// Draws a stroke of `n` samples along a line, starting at clock time `t0` (ms), 10 ms apart.
private func stroke(from a: Point, to b: Point, samples n: Int = 12, t0: Double, pointer: Int = 0) -> [PointerEvent] {
    (0..<n).map { i in
        let f = n == 1 ? 0 : Double(i) / Double(n - 1)
        let s = InkSample(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f, t: t0 + Double(i) * 10)
        return PointerEvent(i == 0 ? .down : i == n - 1 ? .up : .move, pointer: pointer, sample: s)
    }
}

@Suite struct CaptureSessionTests {
    typealias Session = CaptureSession

    /// A session in each state, with ink where the state has it.
    func session(in state: Session.State, configuration: Session.Configuration = .init()) throws -> Session {
        var s = Session(configuration: configuration)
        if state == .inactive { return s }
        try s.activate()
        if state == .active { return s }
        try s.handle(stroke(from: Point(10, 10), to: Point(200, 60), t0: 1000))
        if state == .signed { return s }
        try s.save(at: 1_763_800_000_000)
        return s
    }

    @Test func theLifeCycleOfTheGuides() throws {
        var s = Session()
        #expect(s.state == .inactive)
        #expect(s.enabledActions == [.activate])
        try s.activate()
        #expect(s.state == .active)
        #expect(s.enabledActions == [.draw, .cancel])  // Clear and Save disabled without ink
        try s.handle(stroke(from: Point(10, 10), to: Point(200, 60), t0: 5000))
        #expect(s.state == .signed)
        #expect(s.enabledActions == [.draw, .cancel, .clear, .save, .undo])
        try s.clear()
        #expect(s.state == .active && s.signature.isEmpty)
        try s.handle(stroke(from: Point(10, 10), to: Point(200, 60), t0: 9000))
        let record = try s.save(at: 42)
        #expect(s.state == .saved)
        #expect(s.enabledActions == [.reenter])
        #expect(s.record == record)
        #expect(record.savedAt == 42)
        #expect(record.signature.samples.count == 12)
        #expect(record.signature.samples.first?.t == 0)  // re-timed from the first sample
        try s.reenter()
        #expect(s.state == .active)
        #expect(s.record == nil && s.signature.isEmpty)
    }

    @Test func cancelDiscardsTheUnsavedInk() throws {
        for state in [Session.State.active, .signed] {
            var s = try session(in: state)
            try s.cancel()
            #expect(s.state == .inactive)
            #expect(s.signature.isEmpty && !s.hasInk)
        }
    }

    @Test func reenterCanLandInInactive() throws {
        var s = try session(in: .saved, configuration: .init(reenterState: .inactive))
        try s.reenter()
        #expect(s.state == .inactive)
    }

    @Test(arguments: Session.State.allCases)
    func everyEventThatDoesNotApplyIsRefusedAndChangesNothing(state: Session.State) throws {
        let before = try session(in: state)
        let actions: [(Session.Action, (inout Session) throws(Session.Refusal) -> Void)] = [
            (.activate, { (s) throws(Session.Refusal) in try s.activate() }),
            (.cancel, { (s) throws(Session.Refusal) in try s.cancel() }),
            (.clear, { (s) throws(Session.Refusal) in try s.clear() }),
            (.save, { (s) throws(Session.Refusal) in try s.save(at: 1) }),
            (.reenter, { (s) throws(Session.Refusal) in try s.reenter() }),
            (.undo, { (s) throws(Session.Refusal) in try s.undo() }),
            (.redo, { (s) throws(Session.Refusal) in try s.redo() }),
            (.draw, { (s) throws(Session.Refusal) in try s.handle(PointerEvent(.down, sample: InkSample(x: 1, y: 1, t: 99_999))) }),
        ]
        var refused = 0
        for (action, perform) in actions where !before.isEnabled(action) {
            var s = before
            #expect(throws: Session.Refusal.self, "\(action) in \(state)") { try perform(&s) }
            #expect(s.state == before.state && s.signature == before.signature && s.record == before.record)
            #expect(s.enabledActions == before.enabledActions)
            refused += 1
        }
        #expect(refused == Session.Action.allCases.count - before.enabledActions.count)
    }

    @Test func refusalsSayWhy() throws {
        var s = try session(in: .inactive)
        #expect(throws: Session.Refusal.notAvailable(.save, in: .inactive)) { try s.save(at: 0) }
        #expect(Session.Refusal.notAvailable(.save, in: .inactive).description == "save is not available while inactive")
        try s.activate()
        #expect(throws: Session.Refusal.nothingToUndo) { try s.undo() }
        #expect(throws: Session.Refusal.nothingToRedo) { try s.redo() }
        try s.handle(PointerEvent(.down, sample: InkSample(x: 1, y: 1, t: 0)))
        #expect(throws: Session.Refusal.strokeInProgress) { try s.save(at: 0) }
        #expect(throws: Session.Refusal.strokeInProgress) { try s.undo() }
        #expect(s.isEnabled(.cancel))
    }

    @Test func undoAndRedoByStroke() throws {
        var s = try session(in: .active)
        for k in 0..<3 {
            try s.handle(stroke(from: Point(10, Double(20 * k)), to: Point(200, Double(20 * k + 5)), t0: Double(1000 * k)))
        }
        let three = s.signature
        #expect(three.strokeCount == 3)
        try s.undo()
        try s.undo()
        #expect(s.signature.strokeCount == 1)
        #expect(s.isEnabled(.redo))
        try s.redo()
        #expect(s.signature.strokeCount == 2)
        try s.redo()
        #expect(s.signature == three)
        #expect(!s.isEnabled(.redo))
        // Undoing everything leaves no ink: back to active, Clear and Save disabled.
        try s.undo(); try s.undo(); try s.undo()
        #expect(s.state == .active)
        #expect(!s.isEnabled(.save) && !s.isEnabled(.clear) && s.isEnabled(.redo))
        try s.redo()
        #expect(s.state == .signed)
        // New ink drops what could be redone.
        try s.handle(stroke(from: Point(0, 0), to: Point(50, 50), t0: 9000))
        #expect(!s.isEnabled(.redo))
    }

    @Test func aSecondPointerIsIgnored() throws {
        var s = try session(in: .active)
        var events = stroke(from: Point(10, 10), to: Point(200, 10), t0: 0)
        let intruder = stroke(from: Point(0, 100), to: Point(100, 100), t0: 5, pointer: 7)
        events.insert(contentsOf: intruder, at: 3)
        let used = try s.handle(events)
        #expect(used == 12)
        #expect(s.signature.strokeCount == 1)
        #expect(s.signature.samples.allSatisfy { $0.y == 10 })
    }

    @Test func strokesOutsideTheCanvasAreKept() throws {
        var s = try session(in: .active, configuration: .init(canvas: Canvas(width: 100, height: 50)))
        try s.handle(stroke(from: Point(-40, -10), to: Point(300, 80), t0: 0))
        #expect(s.signature.samples.count == 12)
        #expect(s.signature.bounds == Rect(minX: -40, minY: -10, maxX: 300, maxY: 80))
    }

    static let tooLittle: [(samples: [InkSample], reason: String)] = {
        let dot: [InkSample] = [InkSample(x: 5, y: 5, t: 0)]
        let short: [InkSample] = (0..<12).map { InkSample(x: Double($0), y: 0, t: Double($0) * 10) }
        let tick: [InkSample] = (0..<12).map { InkSample(x: 10 + Double($0 % 2) * 9, y: 0, t: Double($0) * 10) }
        let quick: [InkSample] = (0..<12).map { InkSample(x: Double($0) * 10, y: 0, t: Double($0)) }
        return [(dot, "tooFewSamples"), (short, "tooLittleInk"), (tick, "tooSmall"), (quick, "tooQuick")]
    }()

    @Test(arguments: tooLittle)
    func tooLittleInkIsNotASignature(samples: [InkSample], reason: String) throws {
        var s = try session(in: .active)
        try s.replay(Signature(strokes: [samples]))
        #expect(s.state == .signed)
        #expect(s.isEnabled(.save))
        do {
            try s.save(at: 0)
            Issue.record("saved \(samples.count) samples")
        } catch {
            guard case let .tooSmall(shortfall) = error else { Issue.record("\(error)"); return }
            #expect("\(shortfall)".isEmpty == false)
            #expect(String(describing: shortfall).contains("needed"))
            #expect(Mirror(reflecting: shortfall).children.first?.label == reason)
        }
        #expect(s.state == .signed)
    }

    @Test func aRequiredSignatureIsValidOnlyOnceSaved() throws {
        let required = Session.Configuration(isRequired: true)
        for state in Session.State.allCases {
            #expect(try session(in: state, configuration: required).isValid == (state == .saved))
            #expect(try session(in: state).isValid)
        }
    }

    @Test func samplesAreRetimedAndTheClockEpochGivesTheStartTime() throws {
        var s = try session(in: .active, configuration: .init(clockEpoch: 1_700_000_000_000))
        try s.handle(stroke(from: Point(0, 0), to: Point(100, 0), t0: 2500))
        try s.handle(stroke(from: Point(0, 20), to: Point(100, 20), t0: 4000))
        let record = try s.save(at: 0)
        #expect(record.signature.startTime == 1_700_000_002_500)
        #expect(record.signature.samples.first?.t == 0)
        #expect(record.signature.strokes[1].first?.t == 1500)
    }

    @Test func theRecordKeepsWhatTheDeviceSentAndOnlyDropsWhatCannotBeStored() throws {
        var s = try session(in: .active)
        let a = InkSample(x: 10, y: 10, t: 100, pressure: 0.5)
        try s.handle(PointerEvent(.down, sample: a))
        try s.handle(PointerEvent(.move, sample: a))  // an exact duplicate
        try s.handle(PointerEvent(.move, sample: InkSample(x: 20, y: 10, t: 90, pressure: 1.5)))  // backwards, too hard
        try s.handle(PointerEvent(.move, sample: InkSample(x: .nan, y: 10, t: 120)))  // cannot be stored
        try s.handle(coalesced: [InkSample(x: 40, y: 10, t: 140, azimuth: .infinity), InkSample(x: 30, y: 10, t: 130)])
        try s.lift()
        let samples = s.signature.samples
        #expect(samples.map(\.x) == [10, 10, 20, 30, 40])
        #expect(samples.map(\.t) == [0, 0, -10, 30, 40])
        #expect(samples[2].pressure == 1)
        #expect(samples[4].azimuth == nil)
        #expect(s.state == .signed && !s.isDrawing)
    }

    @Test func theLiveViewGetsGeometryAsItIsDrawn() throws {
        var s = try session(in: .active)
        var path = Path()
        var pieces = 0
        for event in stroke(from: Point(0, 0), to: Point(200, 50), t0: 0) {
            try s.handle(event)
            if s.appendNewGeometry(to: &path) { pieces += 1 }
        }
        #expect(pieces > 3)
        let bounds = try #require(path.controlBounds)
        #expect(bounds.minX < 1 && bounds.maxX > 199)
    }

    @Test func replayAtRecordedTimingWaitsBetweenSamples() async throws {
        let original = try session(in: .signed).signature
        var s = Session()
        var waited = 0.0
        try await s.replay(original, speed: 2) { waited += $0 }
        #expect(s.signature == original)
        #expect(abs(waited - original.duration / 2) < 1e-9)
    }
}
