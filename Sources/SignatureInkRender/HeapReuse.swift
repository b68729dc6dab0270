// SPDX-License-Identifier: Apache-2.0
import CHeap

/// Keeps the memory one document or image frees for the next, in a process that makes many of them.
///
/// glibc gives the top of its heap back to the system whenever more than 128 KiB of it is free, and serves blocks
/// from 128 KiB up with mappings of their own. Two of this module's outputs cross those lines on every file:
/// - a render that holds its whole image is larger than 128 KiB, so every file mapped fresh pages and faulted each
///   of them in again: with the coverage of a 600 x 300 image (180 KB) held whole, 32 page faults a file, 13 % of
///   a PNG batch (70 -> 61.5 ms for 158 files, 4,000 -> 590 page faults). Renders now hold one band of rows at a
///   time, below that line, but a decorated image of many ink fills is still drawn whole (720 KB at 600 x 300);
/// - every compressed stream of a PDF (each page's content, each embedded font) gets 256 KiB of zlib state from
///   Cairo, freed when the stream ends, so the heap shrank and grew again about 25 times a consent PDF: 13 % of a
///   batch of consents (4.75 -> 4.14 ms each), and 0.3 ms of the 2 ms that sealing one may add.
///
/// With both limits raised, the heap keeps what the largest document or render needed, up to ``limit`` an arena;
/// blocks above it are still mapped and returned one by one. The command line calls this before a batch and the
/// server at start; a program that embeds the library and makes many outputs may call it too. It changes the
/// allocator of the whole process, so the library never calls it on its own.
public enum HeapReuse {
    /// Free memory kept at the top of each of glibc's heaps, and the size from which a block gets a mapping of its
    /// own: 16 MiB.
    public static let limit: Int32 = 16 << 20

    /// Raises glibc's trim and mapping thresholds to ``limit`` for the rest of the process.
    public static func keepFreedMemory() {
        _ = mallopt(M_TRIM_THRESHOLD, limit)
        _ = mallopt(M_MMAP_THRESHOLD, limit)
    }
}
