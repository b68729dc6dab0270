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
        /// A count per byte value, for ``HuffmanCode/sortByFrequency(_:count:workspace:)``.
        let byteCounts = UnsafeMutablePointer<Int>.allocate(capacity: 256)

        deinit {
            byteCounts.deallocate()
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
        sortByFrequency(keys, count: n, workspace: workspace)
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

    /// Sorts `count` keys (a frequency above bit 16, the symbol below), made in increasing symbol order, into
    /// ascending order: a stable radix sort on the frequency's bytes, so equal frequencies keep their symbols'
    /// order, through the workspace's `weights` (no allocation).
    ///
    /// A heapsort took 25 K instructions for a literal/length alphabet and, comparing keys in an order that
    /// depends on the data, mispredicted enough branches to be 2.5 % of a PNG batch's time; the standard
    /// library's `sort()` allocates its merge buffer (an image went from 1 allocation to 5). Two or three passes
    /// over 286 keys with no data-dependent branch take about 3 K.
    static func sortByFrequency(_ keys: UnsafeMutablePointer<UInt64>, count: Int, workspace: Workspace) {
        var largest: UInt64 = 0
        for i in 0..<count { largest |= keys[i] }
        let counts = workspace.byteCounts
        var source = keys, target = workspace.weights
        var shift: UInt64 = 16
        while largest >> shift != 0 {
            counts.update(repeating: 0, count: 256)
            for i in 0..<count { counts[Int(truncatingIfNeeded: source[i] >> shift) & 255] += 1 }
            var offset = 0
            for b in 0..<256 {
                let n = counts[b]
                counts[b] = offset
                offset += n
            }
            for i in 0..<count {
                let key = source[i]
                let b = Int(truncatingIfNeeded: key >> shift) & 255
                target[counts[b]] = key
                counts[b] += 1
            }
            swap(&source, &target)
            shift += 8
        }
        if source != keys { keys.update(from: source, count: count) }
    }
}
