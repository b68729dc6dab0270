// SPDX-License-Identifier: Apache-2.0
import Foundation
import InkTestSupport
import SignatureInkFormats
import SignatureInkRender
import Testing

/// The command line's render flags are the render request's options under their names: each flag of the one table
/// writes what the library's request for the same value draws, and `render --help` lists every one.
@Suite struct RenderOptionTableTests {
    static let files = [
        TestData.realInk.appendingPathComponent("signature-pad-chromium/dpr1/Cell-Structure-1-19.json"),
        TestData.sampleStrokes.appendingPathComponent("pressure.json"),
    ]

    @Test(arguments: RenderOptionTable.rows, files)
    func eachFlagIsTheRequestsOption(_ row: RenderOptionTable.Row, _ file: URL) throws {
        let rows = RenderOptionTable.showing(row)
        let values = try rows.map { (try #require(RenderRequest.Option(rawValue: $0.option)), $0.value ?? "true") }
        let request = try RenderRequest(values: values)
        let expected = try request.render(try InkDecoder().decode(Data(contentsOf: file)).signature)
        let dir = try TemporaryDirectory()
        let output = dir.path("out.\(request.outputFormat.fileExtension)")
        let r = try CLIRunner.run(["render", file.path, "-o", output] + rows.flatMap(\.arguments))
        #expect(r.status == 0, "\(row): \(r.stderr)")
        #expect(FileManager.default.contents(atPath: output).map(Array.init) == expected, "\(rows.flatMap(\.arguments))")
    }

    @Test func helpListsEveryFlag() throws {
        let help = try CLIRunner.run(["render", "--help"])
        for row in RenderOptionTable.rows {
            #expect(help.stdout.contains(row.flag + " ") || help.stdout.contains(row.flag + "\n"), "\(row.flag)")
        }
    }
}
