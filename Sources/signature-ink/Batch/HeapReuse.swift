// SPDX-License-Identifier: Apache-2.0
import CHeap

/// Keeps the memory one input frees for the next, for a run over many inputs.
///
/// glibc gives the top of its heap back to the system whenever more than 128 KiB of it is free, and serves larger
/// blocks with their own mappings. A render's image surface (180 KB for 600 x 300 coverage) is larger than that,
/// so every file mapped fresh pages and faulted each of them in again: 32 page faults a file, 13 % of a PNG batch
/// (70 -> 61.5 ms for 158 files, 4,000 -> 590 page faults). With both limits raised, the heap keeps what the
/// largest render needed, up to ``limit``; blocks above it are still mapped and returned one by one.
enum HeapReuse {
    /// Free memory kept at the top of the heap, and the size from which a block gets a mapping of its own.
    static let limit: Int32 = 16 << 20

    /// Raises glibc's trim and mapping thresholds to ``limit`` for the rest of the process.
    static func keepFreedMemory() {
        _ = mallopt(M_TRIM_THRESHOLD, limit)
        _ = mallopt(M_MMAP_THRESHOLD, limit)
    }
}
