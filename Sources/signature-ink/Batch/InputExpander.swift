// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One file to process, and where its output goes relative to the output directory.
struct BatchInput: Sendable {
    /// The file's path as given or found.
    var path: String
    /// The output's path relative to the output directory, without extension: the stem for a file named on the
    /// command line, the path below the directory for a file found in one.
    var relativeStem: String
    /// Whether the file was found in a folder, where only regular files are taken: it is known not to be a
    /// symbolic link, so its canonical path is its folder's plus its name.
    var foundInFolder = false
}

/// Turns command-line inputs (files and directories) into the list of files to process.
enum InputExpander {
    /// Lists `arguments` in order; each directory is replaced by the regular files below it (recursively;
    /// hidden files and folders and symbolic links skipped; sorted by path) whose names match one of `include`
    /// (shell patterns such as `*.json`; all files when empty).
    static func expand(_ arguments: [String], include: [String]) -> [BatchInput] {
        var out: [BatchInput] = []
        for argument in arguments {
            guard isDirectory(argument) else {
                out.append(BatchInput(path: argument, relativeStem: stem(of: argument)))
                continue
            }
            var found: [String] = []
            walk(argument, relative: "", include: include, into: &found)
            for relative in found.sorted() {
                let dir = relative.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(relative[..<$0]) } ?? ""
                let name = stem(of: relative)
                out.append(BatchInput(path: argument.hasSuffix("/") ? argument + relative : argument + "/" + relative,
                                      relativeStem: dir.isEmpty ? name : dir + "/" + name, foundInFolder: true))
            }
        }
        return out
    }

    /// Adds to `found` the paths (relative to the walk's root) of the matching regular files below `folder`,
    /// reading each folder once with `readdir` and asking `lstat` only when it does not give the type.
    private static func walk(_ folder: String, relative: String, include: [String], into found: inout [String]) {
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard !name.hasPrefix(".") else { continue }
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var type = Int32(entry.pointee.d_type)
            if type == Int32(DT_UNKNOWN) {
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                type = info.st_mode & S_IFMT == S_IFDIR ? Int32(DT_DIR) : info.st_mode & S_IFMT == S_IFREG ? Int32(DT_REG) : 0
            }
            let below = relative.isEmpty ? name : relative + "/" + name
            if type == Int32(DT_DIR) {
                walk(path, relative: below, include: include, into: &found)
            } else if type == Int32(DT_REG), include.isEmpty || include.contains(where: { matches(name, $0) }) {
                found.append(below)
            }
        }
    }

    /// Whether `path` is a directory (a symbolic link to one counts).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The file name without its last extension.
    static func stem(of path: String) -> String {
        var name = lastComponent(of: path)
        if name.isEmpty || name == "." || name == ".." { name = lastComponent(of: OutputWriter.standardized(path)) }
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex,
              name.utf8.index(after: dot) != name.endIndex else {
            return name
        }
        return String(name[..<dot])
    }

    /// The last non-empty `/`-separated part of `path` (empty for none), found as bytes, as the kernel reads
    /// paths: splitting the string walks its characters, 8 K instructions a path.
    static func lastComponent(of path: String) -> String {
        let bytes = path.utf8, slash = UInt8(ascii: "/")
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == slash { end = bytes.index(before: end) }
        var start = end
        while start > bytes.startIndex, bytes[bytes.index(before: start)] != slash { start = bytes.index(before: start) }
        return String(path[start..<end])
    }

    /// Shell-style match of `name` against `pattern` (`*`, `?`, `[...]`).
    static func matches(_ name: String, _ pattern: String) -> Bool {
        fnmatch(pattern, name, 0) == 0
    }
}
