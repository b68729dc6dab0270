// SPDX-License-Identifier: Apache-2.0

/// A canonical prefix code for one deflate alphabet (RFC 1951, section 3.2.2).
///
/// Codes are stored bit-reversed, ready for a writer that fills bytes from their least significant bit,
/// as deflate requires (Huffman codes go most significant bit first, everything else least first).
/// ``build(frequencies:maxLength:workspace:)`` rebuilds a code in place without allocating.
struct HuffmanCode {
    /// Code length of each symbol in bits, 0 for a symbol that never occurs.
    var lengths: [UInt8]
    /// The code of each symbol, bit-reversed; meaningless where the length is 0.
    var codes: [UInt16]

    /// A code for an alphabet of `alphabetSize` symbols, none of them used yet.
    init(alphabetSize: Int) {
        lengths = [UInt8](repeating: 0, count: alphabetSize)
        codes = [UInt16](repeating: 0, count: alphabetSize)
    }

    /// The canonical code for the given lengths.
    /// - Parameter lengths: code length of each symbol, 0...15; they must satisfy Kraft's inequality.
    init(lengths: [UInt8]) {
        self.init(alphabetSize: lengths.count)
        self.lengths = lengths
        assignCodes()
    }

    /// Rebuilds the code for `frequencies` (one per symbol of the alphabet).
    /// - Parameters:
    ///   - frequencies: how often each symbol occurs, as many as the alphabet has symbols.
    ///   - maxLength: the longest code allowed, 1...15 bits (see ``lengths(frequencies:maxLength:into:workspace:)``).
    ///   - workspace: buffers for the tree.
    mutating func build(frequencies: UnsafeBufferPointer<UInt32>, maxLength: Int, workspace: Workspace) {
        lengths.withUnsafeMutableBufferPointer {
            Self.lengths(frequencies: frequencies, maxLength: maxLength, into: $0, workspace: workspace)
        }
        assignCodes()
    }

    /// Assigns each used symbol its canonical code (RFC 1951, section 3.2.2, steps 1 to 3).
    mutating func assignCodes() {
        var countOfLength = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var next = countOfLength
        withUnsafeMutableBytes(of: &countOfLength) { raw in
            let count = raw.bindMemory(to: Int.self)
            withUnsafeMutableBytes(of: &next) { raw in
                let next = raw.bindMemory(to: Int.self)
                for l in lengths where l > 0 { count[Int(l)] += 1 }
                var code = 0
                for bits in 1..<16 {
                    code = (code + count[bits - 1]) << 1
                    next[bits] = code
                }
                lengths.withUnsafeBufferPointer { lengths in
                    codes.withUnsafeMutableBufferPointer { codes in
                        for symbol in lengths.indices {
                            let l = Int(lengths[symbol])
                            guard l > 0 else { continue }
                            codes[symbol] = Self.reversed(UInt16(next[l]), bits: l)
                            next[l] += 1
                        }
                    }
                }
            }
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

    /// Buffers for building codes of up to ``capacity`` symbols, reused across builds.
    final class Workspace {
        /// The largest alphabet: literal/length codes 0...285 (RFC 1951, section 3.2.5).
        static let capacity = 286
        let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
        let weights = UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * capacity)
        let parents = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * capacity)
        let depths = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * capacity)

        deinit {
            keys.deallocate()
            weights.deallocate()
            parents.deallocate()
            depths.deallocate()
        }
    }

    /// Code lengths of a Huffman code for `frequencies`, no longer than `maxLength` bits.
    ///
    /// Builds an optimal code with the two-queue method over the symbols sorted by frequency (van Leeuwen,
    /// 1976). When a code is longer than `maxLength`, the frequencies are halved (keeping every used symbol at
    /// least 1) and the code is built again: the tree flattens towards a balanced one, which for deflate's
    /// alphabets (at most 286 symbols, limit 15; 19 symbols, limit 7) always fits. The result is
    /// slightly suboptimal only in that rare case.
    ///
    /// Always returns a complete code: when fewer than two symbols are used, the used one (or symbol 0) and
    /// another are given length 1 (a decoder such as zlib then needs no special case for a one-symbol code).
    /// - Parameters:
    ///   - frequencies: how often each symbol occurs; the alphabet is its indices, 2...286 symbols.
    ///   - maxLength: the longest code allowed, in bits, 1...15; `2^maxLength` must be at least the
    ///     number of used symbols.
    ///   - lengths: receives a length per symbol, 0 for unused symbols; at least as many as `frequencies`
    ///     (any beyond get 0).
    ///   - workspace: buffers for the tree.
    static func lengths(frequencies: UnsafeBufferPointer<UInt32>, maxLength: Int,
                        into lengths: UnsafeMutableBufferPointer<UInt8>, workspace: Workspace) {
        lengths.update(repeating: 0)
        // Used symbols sorted by frequency, then symbol, as one integer key: frequency above, symbol below.
        let keys = workspace.keys
        var n = 0
        for symbol in frequencies.indices where frequencies[symbol] > 0 {
            keys[n] = UInt64(frequencies[symbol]) << 16 | UInt64(symbol)
            n += 1
        }
        if n < 2 {
            // One used symbol (or none) still gets a complete code: it and symbol 0, or 1 if it is 0.
            let used = n == 1 ? Int(keys[0] & 0xffff) : 0
            lengths[used] = 1
            lengths[used == 0 ? 1 : 0] = 1
            return
        }
        heapSort(keys, count: n)
        let weights = workspace.weights, parents = workspace.parents, depths = workspace.depths
        for i in 0..<n { weights[i] = keys[i] >> 16 }
        while true {
            // Leaves 0..<n in increasing weight; inner nodes n..<2n-1 are made in increasing weight too, so
            // the two lightest nodes are always at the front of one queue or the other.
            var nextLeaf = 0
            var nextInner = n
            for k in n..<(2 * n - 1) {
                var pair = (0, 0)
                for slot in 0..<2 {
                    let takeLeaf = nextLeaf < n && (nextInner >= k || weights[nextLeaf] <= weights[nextInner])
                    let node: Int
                    if takeLeaf { node = nextLeaf; nextLeaf += 1 } else { node = nextInner; nextInner += 1 }
                    if slot == 0 { pair.0 = node } else { pair.1 = node }
                }
                weights[k] = weights[pair.0] + weights[pair.1]
                parents[pair.0] = Int32(k)
                parents[pair.1] = Int32(k)
            }
            depths[2 * n - 2] = 0
            var longest: UInt8 = 0
            for k in stride(from: 2 * n - 3, through: 0, by: -1) {
                depths[k] = depths[Int(parents[k])] + 1
                if k < n { longest = Swift.max(longest, depths[k]) }
            }
            if longest <= maxLength { break }
            // Leaves keep their sorted order under halving, so the two-queue method still applies.
            for i in 0..<n { weights[i] = Swift.max(1, weights[i] / 2) }
        }
        for i in 0..<n { lengths[Int(keys[i] & 0xffff)] = depths[i] }
    }

    /// ``lengths(frequencies:maxLength:into:workspace:)`` for an array, with its own workspace.
    static func lengths(frequencies: [UInt32], maxLength: Int) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: frequencies.count)
        frequencies.withUnsafeBufferPointer { f in
            lengths.withUnsafeMutableBufferPointer {
                Self.lengths(frequencies: f, maxLength: maxLength, into: $0, workspace: Workspace())
            }
        }
        return lengths
    }

    /// Sorts `count` keys in place, ascending, without allocating (heapsort). The standard library's `sort()` on
    /// the same buffer allocates its merge buffer: an encoded image went from 1 allocation to 5, which the
    /// encoder's allocation thresholds refuse, for 14 % fewer instructions in this function (0.2 % of a batch).
    static func heapSort(_ a: UnsafeMutablePointer<UInt64>, count: Int) {
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while 2 * root + 1 < end {
                var child = 2 * root + 1
                if child + 1 < end, a[child] < a[child + 1] { child += 1 }
                guard a[root] < a[child] else { return }
                a.swapAt(root, child)
                root = child
            }
        }
        for start in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(start, count) }
        for end in stride(from: count - 1, to: 0, by: -1) {
            a.swapAt(0, end)
            siftDown(0, end)
        }
    }
}

private extension UnsafeMutablePointer where Pointee == UInt64 {
    func swapAt(_ i: Int, _ j: Int) {
        let t = self[i]
        self[i] = self[j]
        self[j] = t
    }
}
