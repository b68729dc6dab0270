// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One file to process, and where its output goes relative to the output directory.
struct BatchInput: Sendable {
    /// The file's path as given or found.
    var path: String
    /// The output's path relative to the output directory, without extension: the stem for a file named on the
    /// command line, the path below the directory for a file found in one.
    var relativeStem: String
}

/// Turns command-line inputs (files and directories) into the list of files to process.
enum InputExpander {
    /// Lists `arguments` in order; each directory is replaced by the files below it (recursively, hidden files
    /// and folders skipped, sorted by path) whose names match one of `include` (shell patterns such as
    /// `*.json`; all files when empty).
    static func expand(_ arguments: [String], include: [String]) -> [BatchInput] {
        var out: [BatchInput] = []
        let fm = FileManager.default
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue else {
                out.append(BatchInput(path: argument, relativeStem: stem(of: argument)))
                continue
            }
            let root = URL(fileURLWithPath: argument)
            var found: [String] = []
            if let walker = fm.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                          options: [.skipsHiddenFiles]) {
                for case let url as URL in walker {
                    guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                    guard include.isEmpty || include.contains(where: { matches(url.lastPathComponent, $0) }) else { continue }
                    found.append(String(url.path.dropFirst(root.path.count).drop { $0 == "/" }))
                }
            }
            for relative in found.sorted() {
                let dir = (relative as NSString).deletingLastPathComponent
                let name = stem(of: relative)
                out.append(BatchInput(path: argument.hasSuffix("/") ? argument + relative : argument + "/" + relative,
                                      relativeStem: dir.isEmpty ? name : dir + "/" + name))
            }
        }
        return out
    }

    /// The file name without its last extension.
    static func stem(of path: String) -> String {
        URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    }

    /// Shell-style match of `name` against `pattern` (`*`, `?`, `[...]`).
    static func matches(_ name: String, _ pattern: String) -> Bool {
        fnmatch(pattern, name, 0) == 0
    }
}
