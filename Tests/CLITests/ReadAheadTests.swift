// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import Testing

/// A batch opens its next inputs ahead of the workers (`ReadAhead`): the outputs, the errors and the descriptors
/// the process holds must be as if each input were opened in its turn.
@Suite struct ReadAheadTests {
    /// A short signature, different for each `n`.
    static func signature(_ n: Int) -> String {
        let a = 10 + n % 40, b = 50 - n % 40
        return #"{"format":"signature-ink","version":1,"canvas":{"width":120,"height":60},"channels":["x","y","t"],"#
            + #""strokes":[[[10,\#(a),0],[60,30,8],[110,\#(b),16]]]}"#
    }

    @Test func aBatchHoldsOnlyAFewDescriptorsHoweverManyInputs() throws {
        // 200 inputs with 32 descriptors allowed: one left open per input would run out a fifth of the way in.
        let dir = try TemporaryDirectory()
        for n in 0..<200 { _ = try dir.write(String(format: "in/%03d.json", n), Self.signature(n)) }
        for jobs in ["1", "2"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n 32 && exec \"$0\" render \"$1\" --out-dir \"$2\" --jobs \"$3\" --quiet",
                                 CLIRunner.binary.path, dir.path("in"), dir.path("out-\(jobs)"), jobs]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "--jobs \(jobs): \(text)")
            let made = try FileManager.default.contentsOfDirectory(atPath: dir.path("out-\(jobs)"))
            #expect(made.filter { $0.hasSuffix(".png") }.count == 200)
        }
        // Read ahead or not, each output is that input's own render.
        for n in [0, 1, 7, 8, 9, 100, 199] {
            let name = String(format: "%03d", n)
            let single = try CLIRunner.run(["render", dir.path("in/\(name).json"), "-o", dir.path("single-\(name).png")])
            #expect(single.status == 0, "\(single.stderr)")
            let expected = try Data(contentsOf: URL(fileURLWithPath: dir.path("single-\(name).png")))
            for jobs in ["1", "2"] {
                #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("out-\(jobs)/\(name).png"))) == expected,
                        "\(name) with --jobs \(jobs)")
            }
        }
    }

    @Test func aPipeAmongTheInputsIsReadInItsTurn() throws {
        // Opening a FIFO ahead without O_NONBLOCK would wait for its writer, and closing it again would leave the
        // writer with nobody to read: the signature sent through it must arrive whole when its turn comes.
        let dir = try TemporaryDirectory()
        let first = try dir.write("a.json", Self.signature(1)), last = try dir.write("c.json", Self.signature(3))
        let fifo = dir.path("b.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        let text = Self.signature(2)
        // A writer left without a reader gets EPIPE rather than a signal that would end the test process.
        signal(SIGPIPE, SIG_IGN)
        let writerThread = WriterThreadID()
        let writer = Thread {
            // "/proc/thread-self" links to "PID/task/TID".
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            writerThread.set(pid_t(link.split(separator: "/").last.map(String.init) ?? "") ?? 0)
            let fd = open(fifo, O_WRONLY)
            guard fd >= 0 else { return }
            _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
            close(fd)
        }
        writer.start()
        // The writer must already be waiting in `open` when the tool starts, as a program feeding a pipe would be:
        // only then does a reader that opens and closes the pipe early release it too soon.
        #expect(writerThread.waitsForAReader(), "the writer never reached open")
        // Should the tool wait for a writer that is gone, a writer that sends nothing releases it after a while,
        // so that the test fails instead of hanging.
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) {
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        let r = try CLIRunner.run(["render", first, fifo, last, "--out-dir", dir.path("out"), "--jobs", "1"])
        // Releases the writer if the tool never opened the pipe.
        let unblock = open(fifo, O_RDONLY | O_NONBLOCK)
        if unblock >= 0 { close(unblock) }
        #expect(r.status == 0, "\(r.stderr)")
        let plain = try dir.write("plain/b.json", text)
        let single = try CLIRunner.run(["render", plain, "-o", dir.path("b-single.png")])
        #expect(single.status == 0, "\(single.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("out/b.png")))
                == Data(contentsOf: URL(fileURLWithPath: dir.path("b-single.png"))))
    }

    @Test func errorsReadTheSameAsWithoutReadingAhead() throws {
        // A missing file and a file too large are each opened ahead (or not) and read in their turn; the messages
        // are those of a single render.
        let dir = try TemporaryDirectory()
        let good = try dir.write("good.json", Self.signature(0))
        let big = try dir.write("big.json", String(repeating: " ", count: 2_000) + Self.signature(0))
        let inputs = [good, dir.path("missing.json"), big, good.replacingOccurrences(of: "good", with: "good2")]
        _ = try dir.write("good2.json", Self.signature(5))
        let r = try CLIRunner.run(["render"] + inputs + ["--out-dir", dir.path("out"), "--jobs", "1",
                                                         "--max-input-bytes", "1000"])
        #expect(r.status == 1)
        for input in [dir.path("missing.json"), big] {
            let single = try CLIRunner.run(["render", input, "-o", dir.path("single.png"), "--max-input-bytes", "1000"])
            let line = try #require(single.stderr.split(separator: "\n").first { $0.hasPrefix(input) })
            #expect(r.stderr.contains(line), "\(r.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: dir.path("out/good.png")))
        #expect(FileManager.default.fileExists(atPath: dir.path("out/good2.png")))
    }
}

/// The kernel thread ID of the test's pipe writer, and whether it is waiting for a reader.
private final class WriterThreadID: @unchecked Sendable {
    private let lock = NSLock()
    private var tid: pid_t = 0

    func set(_ value: pid_t) { lock.lock(); tid = value; lock.unlock() }

    /// Waits up to 10 s until the writer sleeps in the kernel waiting for the pipe's other end.
    func waitsForAReader() -> Bool {
        for _ in 0..<1000 {
            lock.lock()
            let id = tid
            lock.unlock()
            if id != 0, let state = try? String(contentsOfFile: "/proc/self/task/\(id)/wchan", encoding: .utf8),
               state.hasPrefix("wait_for_partner") { return true }
            usleep(10_000)
        }
        return false
    }
}
