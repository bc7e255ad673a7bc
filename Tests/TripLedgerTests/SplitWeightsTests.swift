import Rendering
import Testing
import TripCore
import TripModel

@testable import Storage
@testable import TripLedger

/// `purchase_splits`' `MEMBER_ID=WEIGHT,…` text read back: each member found at its place in
/// join order whatever its id, fractions reduced, members not of the trip skipped.
@Suite("Split weights")
struct SplitWeightsTests {
    @Test(arguments: [[7, 3, 12], [70_000, 3, 1 << 40]])
    func decodeFindsEachMemberByIDInJoinOrder(ids: [Int64]) throws {
        let positions = SplitWeights.Positions(ids: ids)
        var text = "\(ids[2])=6800,\(ids[0])=2/4,99=1,\(ids[1])=1"
        var parts: [(index: Int, weight: Rational)] = []
        try text.withUTF8 { try SplitWeights.decode($0, index: positions, into: &parts, purchase: 1, field: "split") }
        #expect(parts.map(\.index) == [2, 0, 1])
        #expect(parts.map(\.weight) == [Rational(integer: 6800), try Rational(1, 2), .one])
        #expect(positions[99] == nil && positions[-1] == nil)
    }

    /// `trip export`'s `paid_by` and `split` cells: the copy of whole weights gives exactly what
    /// decoding and `SplitText.write` give, for every stored text, odd or not (the shapes another
    /// device or an older version may have stored included), and refuses what decoding refuses.
    @Test(arguments: [
        "12=2715", "12=1,13=1,7=1", "7=1200000,13=5", "13=3/2,12=1", "12=2/4", "12=0", "12=05,7=1", "99=1,12=4",
        "12=4,99=1", "99=1", "", "12=1,", "12=", "=1", "12", "12=1/1", "12=-5", "12=1 ", "7=123456789012345678",
        "7=1234567890123456789", "12=1,,7=2", "12=abc", "12=1/0", "12=0,7=0", "99=1,12=0", "7=999999999999",
        "7=1000000000000", "123456789012345678901=1", "12=3/2,7=0/5",
    ])
    func exportCellIsSplitTextOfTheDecodedParts(stored: String) {
        let members = [(7, "Ana"), (12, "Ben"), (13, "Carla Maria")].map {
            Member(id: $0.0, tripID: 1, name: $0.1, joinedAt: "2026-03-01T00:00:00Z")
        }
        let positions = SplitWeights.Positions(members)
        var text = stored
        text.withUTF8 { bytes in
            var parts: [(index: Int, weight: Rational)] = []
            let decoded = Result { () throws(TripError) in
                try SplitWeights.decode(bytes, index: positions, into: &parts, purchase: 1, field: "split")
            }
            let cell = Result { () throws(TripError) in try GroupExport.cell(bytes, index: positions, members: members, purchase: 1, field: "split") }
            switch (decoded, cell) {
            case (.success, .success(let cell)):
                #expect(cell == SplitText.write(parts.map { (members[$0.index].name, $0.weight) }), "\(stored)")
            case (.failure(let a), .failure(let b)):
                #expect(a == b, "\(stored)")
            default:
                Issue.record("decode \(decoded) but cell \(cell) for \(stored)")
            }
        }
    }

    /// RFC 4180 spelled out on bytes: a field with a quote, comma or line break is quoted, each
    /// quote byte doubled. (The old `record` split on Characters, so a quote followed by a
    /// combining mark, `"\u{301}x`, was not doubled and the file did not read back.)
    static func referenceRecord(_ fields: [String]) -> String {
        fields.map { f in
            let needsQuotes = f.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            guard needsQuotes else { return f }
            let doubled = f.utf8.flatMap { $0 == 0x22 ? [0x22, 0x22] : [$0] }
            return "\"" + String(decoding: doubled, as: UTF8.self) + "\""
        }.joined(separator: ",") + "\r\n"
    }

    @Test func csvRecordQuotesAsBefore() {
        let fields = [
            "", "plain", "a,b", "Ana=1,Ben=2", "say \"hi\"", "\"", "line\nbreak", "cr\r\nlf", "café, crème", "\"\u{301}x", "tab\t",
            "\"a,b\"",
        ]
        #expect(PurchaseCSV.record(fields) == Self.referenceRecord(fields))
        for f in fields { #expect(PurchaseCSV.record([f, f]) == Self.referenceRecord([f, f]), "\(f)") }
        #expect(PurchaseCSV.record([]) == Self.referenceRecord([]))
    }
}
