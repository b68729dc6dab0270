// SPDX-License-Identifier: Apache-2.0

extension Signature {
    /// Strokes named for a person: `stroke 3`, or `strokes 1-4, 7` with runs of consecutive numbers joined.
    /// - Parameter numbers: 1-based stroke numbers in increasing order.
    /// - Returns: the words, such as `strokes 1-4, 7`.
    public static func strokeNames(_ numbers: [Int]) -> String {
        var runs: [String] = []
        var i = 0
        while i < numbers.count {
            var j = i
            while j + 1 < numbers.count, numbers[j + 1] == numbers[j] + 1 { j += 1 }
            runs.append(i == j ? "\(numbers[i])" : "\(numbers[i])-\(numbers[j])")
            i = j + 1
        }
        return (numbers.count == 1 ? "stroke " : "strokes ") + runs.joined(separator: ", ")
    }
}
