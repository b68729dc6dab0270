// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Writes output files so that a failure never leaves a truncated file behind.
///
/// Each output goes to a new temporary file beside it (`open` with `O_EXCL`, so nothing else is touched),
/// then is renamed over its path: readers see the old file or the whole new one. The temporary file is not
/// flushed to disk first (`fsync`): the rename already keeps a partial file from appearing under the name,
/// and a flush per file serialised a batch's workers on the file system's journal. A folder is created the
/// first time an output goes into it, and only checked again when a write into it fails.
enum OutputWriter {
    /// Folders this process has created or found, so each is made once per run.
    private static let madeDirectories = KnownFolders()
    /// Numbers temporary files apart within this process; the process id sets processes apart.
    private static let nextTemporary = Atomic<UInt64>(0)
    private static let processID = getpid()

    /// Writes `bytes` to a temporary file beside `path` (creating its folder), then renames it over `path`. An
    /// existing file at `path` is replaced only when the whole write succeeded.
    static func write(_ bytes: [UInt8], to path: String) throws(InputFailure) {
        try stage(bytes, to: path).commit()
    }

    /// A file written in full beside its destination, not yet in place.
    struct Staged {
        /// Where it goes.
        let path: String
        /// Where it is now.
        let temporary: String

        /// Renames it over its destination.
        func commit() throws(InputFailure) {
            if rename(temporary, path) != 0 {
                let error = OutputWriter.failure(path)
                unlink(temporary)
                throw error
            }
        }

        /// Removes it, leaving the destination as it was.
        func discard() { unlink(temporary) }
    }

    /// Writes `bytes` to a temporary file beside `path` (creating its folder) and returns it, to be put in place
    /// with ``Staged/commit()`` once every file of a set is written, or removed with ``Staged/discard()``.
    static func stage(_ bytes: [UInt8], to path: String) throws(InputFailure) -> Staged {
        // Separators found as bytes, as the kernel reads them (the generic search walks characters, 10 K
        // instructions a path).
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path
        if let problem = makeDirectory(directory) { throw InputFailure(path: path, reason: "cannot write: \(problem)") }
        var temporary = ""
        var fd: Int32 = -1
        var checkedDirectory = false
        while fd < 0 {
            let n = nextTemporary.wrappingAdd(1, ordering: .relaxed).oldValue
            temporary = directory + "/.\(name).partial-\(processID)-\(n)"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            guard fd < 0, errno != EEXIST, errno != EINTR else { continue }
            // The folder was made earlier in the run but is gone: make it again, once.
            guard errno == ENOENT, !checkedDirectory else { throw failure(path) }
            checkedDirectory = true
            madeDirectories.remove(directory)
            if let problem = makeDirectory(directory) { throw failure(path, reason: problem) }
        }
        let written = FileDescriptorIO.write(fd, bytes)
        let reason = written ? nil : String(cString: strerror(errno))
        if close(fd) != 0 || !written {
            let error = failure(path, reason: reason)
            unlink(temporary)
            throw error
        }
        return Staged(path: path, temporary: temporary)
    }

    /// Creates the folder `path` goes into and the folders above it that are missing, as `mkdir -p` does.
    /// - Throws: ``InputFailure`` naming `path` and the folder that could not be made.
    static func makeFolder(of path: String) throws(InputFailure) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.startIndex else { return }
        if let problem = makeDirectory(String(path[..<slash])) { throw InputFailure(path: path, reason: problem) }
    }

    /// Creates `directory` and the folders above it that are missing, as `mkdir -p` does, unless this process already
    /// did (or found it); returns `nil`, or why a folder could not be made.
    private static func makeDirectory(_ directory: String) -> String? {
        if directory.isEmpty || madeDirectories.contains(directory) { return nil }
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for part in directory.split(separator: "/") {
            prefix += String(part)
            if mkdir(prefix, 0o777) != 0 && errno != EEXIST {
                return "cannot create the folder \(prefix): \(String(cString: strerror(errno)))"
            }
            prefix += "/"
        }
        madeDirectories.insert(directory)
        return nil
    }

    static func failure(_ path: String, reason: String? = nil) -> InputFailure {
        InputFailure(path: path, reason: "cannot write: \(reason ?? String(cString: strerror(errno)))")
    }

    /// The canonical absolute form of a path, used to spot an output that would overwrite an input.
    ///
    /// The path is made absolute, `.` and `..` are taken away as written, and the longest part of it that exists
    /// is resolved by `realpath(3)` (symbolic links followed); the rest, which does not exist yet, is kept as is.
    static func canonical(_ path: String) -> String {
        let parts = standardized(path).split(separator: "/")
        for existing in stride(from: parts.count, through: 1, by: -1) {
            guard let resolved = realpath(joined(parts[..<existing]), nil) else { continue }
            defer { free(resolved) }
            let head = String(cString: resolved)
            let tail = parts[existing...]
            return tail.isEmpty ? head : (head == "/" ? "" : head) + joined(tail)
        }
        return joined(parts[...])
    }

    /// `/a/b/c` for the parts `a`, `b`, `c`; `/` for none. (A loop rather than the generic `joined(separator:)`,
    /// whose first call in a process looks up the sequence's associated types, a tenth of a millisecond.)
    private static func joined(_ parts: ArraySlice<Substring>) -> String {
        guard !parts.isEmpty else { return "/" }
        var path = ""
        for part in parts {
            path += "/"
            path += String(part)
        }
        return path
    }

    /// `path` made absolute, with `.` and `..` taken away as written (no file system access).
    static func standardized(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        // Most paths are already in this form: one pass over the bytes rather than splitting and joining, which
        // took 32 K instructions a path, 2 % of a batch.
        if isStandard(absolute) { return absolute }
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return joined(parts[...])
    }

    /// Whether an absolute path is its own standard form: `/`, or `/` and names with no empty name (doubled or
    /// trailing slash), `.` or `..`.
    static func isStandard(_ path: String) -> Bool {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        let bytes = path.utf8
        guard bytes.first == slash else { return false }
        if bytes.count == 1 { return true }
        // The name being read: its length, and whether it is all dots.
        var length = 0
        var dotsOnly = true
        for b in bytes.dropFirst() {
            if b == slash {
                if length == 0 || (dotsOnly && length <= 2) { return false }
                length = 0
                dotsOnly = true
            } else {
                length += 1
                if b != dot { dotsOnly = false }
            }
        }
        return length > 0 && !(dotsOnly && length <= 2)
    }

    /// The working directory, read once.
    static let currentDirectory: String = {
        guard let cwd = getcwd(nil, 0) else { return "." }
        defer { free(cwd) }
        return String(cString: cwd)
    }()
}

/// A set of folders shared by the batch's threads, behind the tool's one lock type (``PThreadMutex``).
private final class KnownFolders: @unchecked Sendable {
    private let lock = PThreadMutex()
    private var folders: Set<String> = []

    func contains(_ folder: String) -> Bool { lock.withLock { folders.contains(folder) } }
    func insert(_ folder: String) { lock.withLock { _ = folders.insert(folder) } }
    func remove(_ folder: String) { lock.withLock { _ = folders.remove(folder) } }
}

/// Canonical paths (see ``OutputWriter/canonical(_:)``) of many files in few folders: each folder is resolved
/// once, and each file costs one `lstat` (a file that is itself a symbolic link is resolved in full).
struct CanonicalPaths {
    private var folders: [String: String] = [:]

    /// The canonical path of `path`.
    /// - Parameters:
    ///   - path: a path, relative or absolute.
    ///   - knownNotLink: whether `path` is known not to be a symbolic link (a regular file found in a folder), which
    ///     saves looking it up.
    mutating func canonical(_ path: String, knownNotLink: Bool = false) -> String {
        let standard = OutputWriter.standardized(path)
        guard let slash = standard.utf8.lastIndex(of: UInt8(ascii: "/")), slash != standard.startIndex else {
            return OutputWriter.canonical(path)
        }
        var info = stat()
        if !knownNotLink, lstat(standard, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            return OutputWriter.canonical(path)
        }
        let folder = String(standard[..<slash])
        let resolved: String
        if let known = folders[folder] {
            resolved = known
        } else {
            resolved = OutputWriter.canonical(folder)
            folders[folder] = resolved
        }
        // String + String: appending the Substring itself goes through an unspecialized generic, whose first use
        // scans every protocol conformance in the binary (0.4 M instructions, once a batch).
        return (resolved == "/" ? "" : resolved) + String(standard[slash...])
    }
}
