// SPDX-License-Identifier: Apache-2.0

/// Writes bit fields least significant bit first, as deflate packs them (RFC 1951, section 3.1.1).
///
/// Each ``put(_:_:)`` stores eight bytes at once, so the buffer needs 8 bytes of room past the last
/// byte it will hold.
struct BitWriter {
    /// The next byte to complete.
    private(set) var cursor: UnsafeMutablePointer<UInt8>
    private var pending: UInt64 = 0
    private var pendingCount = 0  // 0...7 between calls

    /// Starts writing at `start`.
    init(_ start: UnsafeMutablePointer<UInt8>) { cursor = start }

    /// Appends the lowest `count` bits of `bits`.
    /// - Parameters:
    ///   - bits: the field, with nothing set above bit `count`.
    ///   - count: field width in bits, 0...56.
    @inline(__always) mutating func put(_ bits: UInt64, _ count: Int) {
        pending |= bits << UInt64(pendingCount)
        pendingCount += count
        UnsafeMutableRawPointer(cursor).storeBytes(of: pending.littleEndian, as: UInt64.self)
        let whole = pendingCount >> 3
        cursor += whole
        pending >>= UInt64(whole << 3)
        pendingCount &= 7
    }

    /// Pads with zero bits to the next byte boundary (the pad is already stored by the last ``put(_:_:)``).
    mutating func alignToByte() {
        if pendingCount > 0 {
            cursor += 1
            pending = 0
            pendingCount = 0
        }
    }

    /// Copies `count` bytes from `source`; the writer must be at a byte boundary.
    mutating func copy(_ source: UnsafePointer<UInt8>, count: Int) {
        precondition(pendingCount == 0, "copy needs byte alignment")
        cursor.update(from: source, count: count)
        cursor += count
    }
}
