import Rendering
import Testing
import TripCore
import TripModel

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
        text.withUTF8 { SplitWeights.decode($0, index: positions, into: &parts) }
        #expect(parts.map(\.index) == [2, 0, 1])
        #expect(parts.map(\.weight) == [Rational(integer: 6800), try Rational(1, 2), .one])
        #expect(positions[99] == nil && positions[-1] == nil)
    }
}
