// A gzip member built by hand, so that no big file is committed and no zlib is linked.

/// Builds a gzip body (RFC 1952) that inflates to `prefix` followed by ASCII zeros, up to
/// `inflatedBytes` in all.
///
/// The deflate stream (RFC 1951) is one block with the fixed Huffman code: the prefix as
/// literals, one literal `0`, then back-references of length 258 at distance 1, each 13 bits
/// for 258 output bytes: about 1:160, so 64 MiB come from about 420 KiB. The trailer's CRC-32
/// and size are correct, so the body is a valid gzip file, merely a hostile one.
public enum GzipBomb {
    public static func make(prefix: [UInt8], inflatedBytes: Int) -> [UInt8] {
        precondition(inflatedBytes > prefix.count)
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman
        for byte in prefix + [UInt8(ascii: "0")] { bits.writeLiteral(byte) }
        var remaining = inflatedBytes - prefix.count - 1
        while remaining > 0 {
            // Lengths 3…258; a final remainder of 1 or 2 goes out as literals.
            if remaining < 3 {
                bits.writeLiteral(UInt8(ascii: "0"))
                remaining -= 1
                continue
            }
            let length = min(258, remaining)
            bits.writeLength(length)
            bits.writeHuffman(0, count: 5)  // distance code 0: distance 1
            remaining -= length
        }
        bits.writeHuffman(0, count: 7)  // end of block (symbol 256)

        var crc = CRC32()
        crc.update(prefix)
        crc.update(repeating: UInt8(ascii: "0"), count: inflatedBytes - prefix.count)
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        return header + bits.finish() + littleEndian(crc.value) + littleEndian(UInt32(truncatingIfNeeded: inflatedBytes))
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// Deflate's bit order: header fields and extra bits least significant bit first, Huffman
/// codes most significant bit first.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var accumulator: UInt32 = 0
    private var filled = 0

    mutating func write(_ value: UInt32, count: Int) {
        accumulator |= value << filled
        filled += count
        while filled >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator))
            accumulator >>= 8
            filled -= 8
        }
    }

    mutating func writeHuffman(_ code: UInt32, count: Int) {
        var reversed: UInt32 = 0
        for i in 0..<count where code & (1 << i) != 0 { reversed |= 1 << (count - 1 - i) }
        write(reversed, count: count)
    }

    /// Fixed-code literal: 0…143 are 8 bits from 0x30, 144…255 are 9 bits from 0x190.
    mutating func writeLiteral(_ byte: UInt8) {
        if byte < 144 { writeHuffman(0x30 + UInt32(byte), count: 8) } else { writeHuffman(0x190 + UInt32(byte) - 144, count: 9) }
    }

    /// Length symbol (257…285) plus its extra bits, for lengths 3…258.
    mutating func writeLength(_ length: Int) {
        let bases = [
            3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
        ]
        let extra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        let index = bases.lastIndex { $0 <= length }!
        let symbol = 257 + index
        // Symbols 256…279 are 7 bits from 0; 280…287 are 8 bits from 0xC0.
        if symbol < 280 {
            writeHuffman(UInt32(symbol - 256), count: 7)
        } else {
            writeHuffman(0xC0 + UInt32(symbol - 280), count: 8)
        }
        write(UInt32(length - bases[index]), count: extra[index])
    }

    mutating func finish() -> [UInt8] {
        if filled > 0 { bytes.append(UInt8(truncatingIfNeeded: accumulator)) }
        return bytes
    }
}

/// CRC-32 (IEEE 802.3, reflected, as gzip uses it).
private struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
    private var crc: UInt32 = 0xFFFF_FFFF

    var value: UInt32 { crc ^ 0xFFFF_FFFF }

    mutating func update(_ bytes: [UInt8]) {
        for byte in bytes { crc = Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }

    /// Appends `count` copies of `byte` in O(log count) steps: a run of 2n is the run of n
    /// combined with itself (`combine`), so 64 MiB cost microseconds instead of seconds.
    mutating func update(repeating byte: UInt8, count: Int) {
        guard count > 0 else { return }
        var one = CRC32()
        one.update([byte])
        // `run` is the CRC (conditioned) of `length` copies of `byte`, built from count's top bit down.
        var run = one.value, length = 1
        for bit in (0..<(Int.bitWidth - count.leadingZeroBitCount - 1)).reversed() {
            run = Self.combine(run, run, secondLength: length)
            length *= 2
            if count & (1 << bit) != 0 {
                run = Self.combine(run, one.value, secondLength: 1)
                length += 1
            }
        }
        crc = Self.combine(value, run, secondLength: count) ^ 0xFFFF_FFFF
    }

    /// CRC of A followed by B from the CRCs of each: A's CRC pushed through `secondLength` zero
    /// bytes (a GF(2) matrix power, squared per bit of the length), then xor B's.
    private static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        func times(_ matrix: [UInt32], _ vector: UInt32) -> UInt32 {
            var sum: UInt32 = 0, v = vector, i = 0
            while v != 0 {
                if v & 1 != 0 { sum ^= matrix[i] }
                v >>= 1
                i += 1
            }
            return sum
        }
        func square(_ matrix: [UInt32]) -> [UInt32] { matrix.map { times(matrix, $0) } }
        // One zero bit: shift right, xor the polynomial when the low bit falls out.
        var odd: [UInt32] = [0xEDB8_8320] + (0..<31).map { UInt32(1) << $0 }
        var even = square(odd)  // two zero bits
        odd = square(even)  // four
        var crc = first, remaining = secondLength
        repeat {
            even = square(odd)  // 8, 32, 128 … bits: one byte, four, sixteen …
            if remaining & 1 != 0 { crc = times(even, crc) }
            remaining >>= 1
            guard remaining != 0 else { break }
            odd = square(even)
            if remaining & 1 != 0 { crc = times(odd, crc) }
            remaining >>= 1
        } while remaining != 0
        return crc ^ second
    }
}
