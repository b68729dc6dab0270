// SPDX-License-Identifier: Apache-2.0
import ArgumentParser

@main
struct SignatureInkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signature-ink",
        abstract: "Render and convert handwritten signatures.")
}
