import Storage
import TripLedger

/// Counts of 64-bit import keys, in open addressing with linear probing. The keys are FNV-1a values,
/// already well mixed, so their bits index the table directly: `Set<UInt64>` and
/// `[UInt64: UInt32]` hash each lookup again with SipHash, which on a 1,000,000-row import cost
/// both import threads more than the table itself.
struct KeyTable {
    /// 0 marks an empty slot; the key 0 itself is counted in `zeroCount`.
    private var keys: [UInt64]
    private var counts: [UInt32]
    private var zeroCount: UInt32 = 0
    private var mask: Int
    /// Distinct keys held.
    private(set) var count = 0

    init(capacity: Int = 512) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: 0, count: size)
        counts = Array(repeating: 0, count: size)
        mask = size - 1
    }

    /// Adds an occurrence of `key`; returns how many it had before.
    mutating func increment(_ key: UInt64) -> UInt32 {
        if key == 0 {
            if zeroCount == 0 { count += 1 }
            zeroCount += 1
            return zeroCount - 1
        }
        if (count + 1) * 2 > keys.count { grow() }
        var i = Self.slot(key, mask)
        while true {
            let k = keys[i]
            if k == key {
                counts[i] += 1
                return counts[i] - 1
            }
            if k == 0 {
                keys[i] = key
                counts[i] = 1
                count += 1
                return 0
            }
            i = (i + 1) & mask
        }
    }

    /// Inserts `key`: `true` when it was not there yet.
    mutating func insert(_ key: UInt64) -> Bool { increment(key) == 0 }

    @inline(__always)
    private static func slot(_ key: UInt64, _ mask: Int) -> Int { Int(truncatingIfNeeded: key ^ (key >> 29)) & mask }

    private mutating func grow() {
        let oldKeys = keys, oldCounts = counts
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        counts = Array(repeating: 0, count: oldKeys.count * 2)
        mask = keys.count - 1
        for (k, c) in zip(oldKeys, oldCounts) where k != 0 {
            var i = Self.slot(k, mask)
            while keys[i] != 0 { i = (i + 1) & mask }
            keys[i] = k
            counts[i] = c
        }
    }
}
