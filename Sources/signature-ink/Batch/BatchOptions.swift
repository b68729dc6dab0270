// SPDX-License-Identifier: Apache-2.0
import ArgumentParser

/// Flags of commands that work through many inputs.
struct BatchOptions: ParsableArguments {
    @Option(help: "Worker threads; default: every core.")
    var jobs: Int?

    @Option(help: ArgumentHelp(
        "Shell pattern of file names to take from directories, such as '*.json'; repeatable. Default: every file. A file found in a directory that is no stroke file is skipped and named.",
        valueName: "glob"))
    var include: [String] = []

    @Flag(help: "Print no progress and no summary; failures are still printed.")
    var quiet = false

    @Option(help: ArgumentHelp(
        "Write one JSON line per input: input, output, status, error, bytes, sha256, ms.", valueName: "file.jsonl"))
    var manifest: String?

    func validate() throws {
        if let jobs, jobs < 1 || jobs > 1024 { throw ValidationError("--jobs must be 1...1024.") }
    }

    /// The flags as plain values.
    var settings: BatchSettings { BatchSettings(jobs: jobs, include: include, quiet: quiet, manifest: manifest) }
}

/// How a batch runs, as plain values; each field is the flag of the same name.
struct BatchSettings: Sendable {
    var jobs: Int?
    var include: [String] = []
    var quiet = false
    var manifest: String?

    /// The number of worker threads to use.
    var workerCount: Int { jobs ?? BatchRunner.availableCores }
}
