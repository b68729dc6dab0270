// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs the built `signature-ink` binary as a user would.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The binary SwiftPM built beside the test bundle.
    static let binary: URL = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("signature-ink")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return exe.deletingLastPathComponent().appendingPathComponent("signature-ink")
    }()

    /// `signature-ink-store`, which SwiftPM built beside `signature-ink`.
    static var keeper: URL { binary.deletingLastPathComponent().appendingPathComponent("signature-ink-store") }

    /// Runs the binary (or `executable`) with `arguments`, in `directory`, with `stdin`, and with the test's
    /// environment plus `environment`.
    static func run(_ arguments: [String], in directory: URL? = nil, stdin: Data? = nil,
                    environment: [String: String] = [:], executable: URL = binary) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // Both pipes are drained at once, so a child that fills one while we read the other cannot stall.
        let outFD = out.fileHandleForReading.fileDescriptor, errFD = err.fileHandleForReading.fileDescriptor
        let collected = Collected()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { collected.setOut(readAll(outFD)) }
        DispatchQueue.global().async(group: group) { collected.setErr(readAll(errFD)) }
        if let stdin { try input.fileHandleForWriting.write(contentsOf: stdin) }
        try input.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        let (o, e) = collected.both
        return Result(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                      stderr: String(decoding: e, as: UTF8.self))
    }
}

/// Reads a descriptor to its end, retrying reads a signal interrupted (Foundation's readers trap on those).
private func readAll(_ fd: Int32) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n > 0 { data.append(contentsOf: buffer[0..<n]) } else if n < 0 && errno == EINTR { continue } else { break }
    }
    return data
}

/// The two outputs of a child, filled from two threads.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data(), err = Data()
    func setOut(_ d: Data) { lock.lock(); out = d; lock.unlock() }
    func setErr(_ d: Data) { lock.lock(); err = d; lock.unlock() }
    var both: (Data, Data) { lock.lock(); defer { lock.unlock() }; return (out, err) }
}

/// A fresh temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("signature-ink-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        let p = path(name)
        try FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}
