// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The command line of the timing tools that the comparison scripts run: `TOOL OUT.pdf` makes one output (timed
/// from outside, start-up included), `TOOL --rounds N` makes N in one process and prints the median as JSON.
public enum WholeRuns {
    /// Runs `make` as the arguments say and exits; `make` returns the output's bytes.
    public static func main(_ name: String, make: () throws -> [UInt8]) throws {
        var arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "--rounds" {
            let rounds = max(1, Int(arguments.dropFirst().first ?? "") ?? 30)
            var times: [Double] = []
            var bytes = 0
            for _ in 0..<rounds {
                let start = DispatchTime.now().uptimeNanoseconds
                bytes = try make().count
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            times.sort()
            print("{\"rounds\": \(rounds), \"median_ms\": \(String(format: "%.3f", times[rounds / 2])), "
                  + "\"min_ms\": \(String(format: "%.3f", times[0])), \"bytes\": \(bytes)}")
        } else if let out = arguments.popFirst() {
            try Data(try make()).write(to: URL(fileURLWithPath: out))
        } else {
            FileHandle.standardError.write(Data("usage: \(name) OUT.pdf | --rounds N\n".utf8))
            exit(64)
        }
    }
}
