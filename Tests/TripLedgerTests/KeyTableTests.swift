import Rendering
import TestSupport
import Testing
import TripModel

@testable import Exchange
@testable import TripLedger

@Suite("KeyTable: import key counts")
struct KeyTableTests {
    /// The same counts as a dictionary, through many growths, for random keys, keys that collide in
    /// their low bits, and the key 0 (which marks empty slots inside the table).
    @Test func countsLikeADictionary() {
        var random = SplitMix64(seed: 0x5EED)
        var table = KeyTable(capacity: 1)
        var reference: [UInt64: UInt32] = [:]
        var keys: [UInt64] = (0..<5_000).map { _ in random.next() }
        keys += (0..<300).map { UInt64($0) << 40 }  // equal low bits
        keys += [0, 0, 1, UInt64.max]
        for _ in 0..<3 {
            for k in keys.shuffled(using: &random) {
                let before = reference[k, default: 0]
                #expect(table.increment(k) == before)
                reference[k] = before + 1
            }
        }
        #expect(table.count == reference.count)
        var set = KeyTable()
        #expect(set.insert(0) && !set.insert(0) && set.insert(7) && !set.insert(7))
    }
}
