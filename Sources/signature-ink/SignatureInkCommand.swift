// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SignatureInkRender

@main
struct SignatureInkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signature-ink",
        abstract: "Render, convert and inspect handwritten signatures, and sign consent documents.",
        discussion: """
            Exit status: 0 when every input was done, 1 when some inputs failed (each failure is printed \
            on stderr as FILE: reason, and the other outputs are still written), 2 for a usage error.
            """,
        version: SignatureRenderer.software + " " + SignatureRenderer.version,
        subcommands: [RenderCommand.self, ConvertCommand.self, InfoCommand.self, ConsentCommand.self, SignCommand.self])

    /// Runs the command with the documented exit codes: 0 done, 1 some inputs failed, 2 usage error.
    static func main() {
        ProjectFonts.becomeProcessDefault()
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if let job = QuickRender.job(for: arguments) {
                try job.run()
                return
            }
            if let request = QuickOptions.sign(arguments) {
                try request.run(loader: InputLoader(limits: .default, format: nil))
                return
            }
            if let request = QuickOptions.consent(arguments) {
                try request.run(loader: InputLoader(limits: .default, format: nil))
                return
            }
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                Glibc.exit(0)
            }
            if !message.isEmpty { Diagnostics.error(message) }
            Glibc.exit(code == .validationFailure ? 2 : 1)
        }
    }
}

/// Writes messages for people to standard error.
enum Diagnostics {
    /// Writes one line to standard error.
    static func error(_ line: String) {
        FileDescriptorIO.standardError(line.hasSuffix("\n") ? line : line + "\n")
    }
}
