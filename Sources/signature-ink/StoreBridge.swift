// SPDX-License-Identifier: Apache-2.0
import Glibc

/// The consent store from the command line: `consent --store` hands the consent it signed, as the temporary files of
/// its PDF and record, to `signature-ink-store keep`, found beside this executable or else on `PATH`.
///
/// The store's databases and Foundation live in that executable, not in this one: here they were 58 MB of 83 MB
/// (stripped), and their static initialisers and size made every command 0.3-0.5 ms slower to start (a render in a
/// new process takes 0.84-0.93 of the time without them; BENCHMARKS.md).
enum StoreBridge {
    /// The executable that keeps consents.
    static let keeper = "signature-ink-store"

    /// Keeps the consent whose PDF (of `pages` pages) and record are at `pdf` and `record` in the store at
    /// `location`, and gives its identifier.
    /// - Throws: ``InputFailure`` naming `location`, in which case nothing was kept.
    static func keep(pdf: String, record: String, pages: Int, in location: String) throws(InputFailure) -> String {
        guard let executable = findKeeper() else {
            throw InputFailure(path: location, reason: "keeping a consent needs \(keeper), which is neither beside "
                               + "\(ownExecutable() ?? "this executable") nor on PATH")
        }
        let arguments = [executable, "keep", "--store", location, "--record", record, "--pdf", pdf,
                         "--pages", String(pages), "--client", "signature-ink consent sign"]
        let (status, output) = run(arguments)
        guard status == 0 else {
            var message = Substring(output.isEmpty ? "\(keeper) ended with status \(status)" : output)
            while message.last == "\n" { message.removeLast() }
            for prefix in ["error: ", location + ": "] where message.hasPrefix(prefix) { message.removeFirst(prefix.count) }
            throw InputFailure(path: location, reason: String(message))
        }
        let id = output.utf8.prefix { $0 != UInt8(ascii: "\n") }
        guard !id.isEmpty else { throw InputFailure(path: location, reason: "\(keeper) gave no identifier") }
        return String(Substring(id))
    }

    /// This process's executable, its symbolic links resolved.
    private static func ownExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `signature-ink-store` beside this executable, or else the first on `PATH`.
    private static func findKeeper() -> String? {
        var folders: [Substring] = []
        if let own = ownExecutable(), let slash = own.lastIndex(of: "/") { folders.append(own[..<slash]) }
        if let path = getenv("PATH") { folders += String(cString: path).split(separator: ":") }
        return folders.lazy.map { "\($0)/\(keeper)" }.first { access($0, X_OK) == 0 }
    }

    /// Runs `arguments` (the executable first) with this process's environment and standard input, and gives its
    /// exit status with what it wrote to standard output and standard error, together.
    private static func run(_ arguments: [String]) -> (status: Int32, output: String) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return (-1, "cannot make a pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        posix_spawn_file_actions_addclose(&actions, ends[1])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        let spawned = posix_spawn(&child, arguments[0], &actions, nil, &argv, environ)
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            return (-1, "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &chunk, chunk.count)
            if count > 0 { output += chunk[..<count] } else if count < 0 && errno == EINTR { continue } else { break }
        }
        close(ends[0])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which Swift does not import: the low seven bits are the signal, 0 when it exited.
        let exit = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exit, String(decoding: output, as: UTF8.self))
    }
}
