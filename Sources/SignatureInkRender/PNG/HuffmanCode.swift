// SPDX-License-Identifier: Apache-2.0

/// A canonical prefix code for one deflate alphabet (RFC 1951, section 3.2.2).
///
/// Codes are stored bit-reversed, ready for a writer that fills bytes from their least significant bit,
/// as deflate requires (Huffman codes go most significant bit first, everything else least first).
struct HuffmanCode {
    /// Code length of each symbol in bits, 0 for a symbol that never occurs.
    var lengths: [UInt8]
    /// The code of each symbol, bit-reversed; meaningless where the length is 0.
    var codes: [UInt16]

    /// The canonical code for the given lengths (RFC 1951, section 3.2.2, steps 1 to 3).
    /// - Parameter lengths: code length of each symbol, 0...15; they must satisfy Kraft's inequality.
    init(lengths: [UInt8]) {
        self.lengths = lengths
        var countOfLength = [Int](repeating: 0, count: 16)
        for l in lengths where l > 0 { countOfLength[Int(l)] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + countOfLength[bits - 1]) << 1
            next[bits] = code
        }
        codes = [UInt16](repeating: 0, count: lengths.count)
        for (symbol, l) in lengths.enumerated() where l > 0 {
            codes[symbol] = Self.reversed(UInt16(next[Int(l)]), bits: Int(l))
            next[Int(l)] += 1
        }
    }

    /// The lowest `bits` bits of `code` in reverse order.
    static func reversed(_ code: UInt16, bits: Int) -> UInt16 {
        var result: UInt16 = 0
        var c = code
        for _ in 0..<bits {
            result = result << 1 | c & 1
            c >>= 1
        }
        return result
    }

    /// Code lengths of a Huffman code for `frequencies`, no longer than `maxLength` bits.
    ///
    /// Builds an optimal code with the two-queue method over the symbols sorted by frequency (van Leeuwen,
    /// 1976). When a code is longer than `maxLength`, the frequencies are halved (keeping every used symbol at
    /// least 1) and the code is built again: the tree flattens towards a balanced one, which for deflate's
    /// alphabets (at most 286 symbols, limit 15; 19 symbols, limit 7) always fits. The result is
    /// slightly suboptimal only in that rare case.
    ///
    /// Always returns a complete code: when fewer than two symbols are used, symbols 0 and 1 are given
    /// length 1 (a decoder such as zlib then needs no special case for a one-symbol code).
    /// - Parameters:
    ///   - frequencies: how often each symbol occurs; the alphabet is its indices.
    ///   - maxLength: the longest code allowed, in bits, 1...15; `2^maxLength` must be at least the
    ///     number of used symbols.
    /// - Returns: a length per symbol, 0 for unused symbols.
    static func lengths(frequencies: [UInt32], maxLength: Int) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: frequencies.count)
        // Sort used symbols by frequency, then symbol, as one integer key: frequency above, symbol below.
        var keys: [UInt64] = []
        keys.reserveCapacity(frequencies.count)
        for (symbol, f) in frequencies.enumerated() where f > 0 { keys.append(UInt64(f) << 16 | UInt64(symbol)) }
        if keys.count < 2 {
            lengths[0] = 1
            lengths[1] = 1
            return lengths
        }
        keys.sort()
        let used = keys.map { Int($0 & 0xffff) }
        var weights = keys.map { $0 >> 16 }
        let n = used.count
        var nodeWeight = [UInt64](repeating: 0, count: 2 * n - 1)
        var parent = [Int](repeating: 0, count: 2 * n - 1)
        var depth = [Int](repeating: 0, count: 2 * n - 1)
        while true {
            for i in 0..<n { nodeWeight[i] = weights[i] }
            var nextLeaf = 0
            var nextInner = n
            for k in n..<(2 * n - 1) {
                var pair = (0, 0)
                for slot in 0..<2 {
                    let takeLeaf = nextLeaf < n && (nextInner >= k || nodeWeight[nextLeaf] <= nodeWeight[nextInner])
                    let node: Int
                    if takeLeaf { node = nextLeaf; nextLeaf += 1 } else { node = nextInner; nextInner += 1 }
                    if slot == 0 { pair.0 = node } else { pair.1 = node }
                }
                nodeWeight[k] = nodeWeight[pair.0] + nodeWeight[pair.1]
                parent[pair.0] = k
                parent[pair.1] = k
            }
            depth[2 * n - 2] = 0
            var longest = 0
            for k in stride(from: 2 * n - 3, through: 0, by: -1) {
                depth[k] = depth[parent[k]] + 1
                if k < n { longest = Swift.max(longest, depth[k]) }
            }
            if longest <= maxLength { break }
            // Leaves keep their sorted order under halving, so the two-queue method still applies.
            for i in 0..<n { weights[i] = Swift.max(1, weights[i] / 2) }
        }
        for i in 0..<n { lengths[used[i]] = UInt8(depth[i]) }
        return lengths
    }
}
