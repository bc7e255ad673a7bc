import TestSupport
import Testing

@testable import TripCore

@Suite("Splits: largest-remainder allocation and the fewest settle-up transfers")
struct SplitArithmeticTests {
    static func weights(_ texts: [String]) -> [Rational] { texts.map { Rational(decimalText: $0)! } }

    struct Case: Sendable, CustomTestStringConvertible {
        let total: Int64
        let weights: [String]
        let expected: [Int64]
        var testDescription: String { "\(total) by \(weights)" }
        init(_ total: Int64, _ weights: [String], _ expected: [Int64]) {
            self.total = total
            self.weights = weights
            self.expected = expected
        }
    }

    static let workedCases: [Case] = [
        // SGD 130 ++ (service 10%, GST 9%) = 155.87 among 3: 5195 each, 2 units left, to the first two.
        Case(15587, ["1", "1", "1"], [5196, 5196, 5195]),
        // Spliit's $1 ÷ 3: one cent cannot vanish.
        Case(100, ["1", "1", "1"], [34, 33, 33]),
        // Shares 2:1 of 10.00: 666.67 / 333.33 → remainders 2/3 and 1/3.
        Case(1000, ["2", "1"], [667, 333]),
        // 60% / 40% of 9.99: 599.4 and 399.6; the unit goes to the larger remainder, the second.
        Case(999, ["60", "40"], [599, 400]),
        // Equal remainders: the earlier member gets the unit.
        Case(1, ["1", "1"], [1, 0]),
        // Decimal shares 1.5 : 0.5 of 7 → 5.25, 1.75 → 5, 1, then 0.75 > 0.25.
        Case(7, ["1.5", "0.5"], [5, 2]),
        // A zero weight never gets a unit.
        Case(5, ["1", "0", "1"], [3, 0, 2]),
        // A refund is divided as its magnitude, negated.
        Case(-100, ["1", "1", "1"], [-34, -33, -33]),
        Case(0, ["1", "2"], [0, 0]),
    ]

    @Test("worked examples", arguments: workedCases)
    func workedExamples(_ c: Case) throws {
        #expect(try Allocation.largestRemainder(c.total, weights: Self.weights(c.weights)) == c.expected)
    }

    @Test func refusesNoWeightAndNegativeWeights() {
        #expect(throws: Allocation.Failure.noWeight) { try Allocation.largestRemainder(10, weights: []) }
        #expect(throws: Allocation.Failure.noWeight) { try Allocation.largestRemainder(10, weights: Self.weights(["0", "0"])) }
        #expect(throws: Allocation.Failure.negativeWeight(index: 1)) {
            try Allocation.largestRemainder(10, weights: Self.weights(["1", "-1"]))
        }
    }

    /// Against the definition, on seeded random inputs: the parts add up exactly, each part is
    /// the floor of its exact share or one more, and the extra units went to the largest remainders.
    @Test func partsAddUpAndFollowTheRemainders() throws {
        var rng = SplitMix64(seed: 0x5EED_5B17)
        for round in 0..<2000 {
            let n = Int.random(in: 1...9, using: &rng)
            // Half the rounds overflow 64-bit products, so the 128-bit path is checked too.
            let total = Int64.random(in: -1_000_000_000...(round % 2 == 0 ? 1_000_000_000_000 : Int64.max / 2), using: &rng)
            let ws = (0..<n).map { _ in Rational(Int64.random(in: 0...10_000, using: &rng)) }
            guard ws.contains(where: { !$0.isZero }) else { continue }
            let parts = try Allocation.largestRemainder(total, weights: ws)
            #expect(parts.reduce(0, +) == total)
            let sum = try ws.reduce(Rational.zero) { try $0 + $1 }
            let exact = try ws.map { try Rational(total.magnitude == 0 ? 0 : Int64(total.magnitude)) * $0 / sum }
            for (i, part) in parts.enumerated() {
                let floor = exact[i].rounded(.floor)
                #expect(Int128(part.magnitude) == floor || Int128(part.magnitude) == floor + 1)
            }
            // Anyone who got the extra unit has a remainder at least as large as anyone who did not.
            let fractions = try exact.map { try $0 - Rational(integer: $0.rounded(.floor)) }
            let bumped = parts.indices.filter { Int128(parts[$0].magnitude) != exact[$0].rounded(.floor) }
            let plain = parts.indices.filter { !bumped.contains($0) }
            for b in bumped { for p in plain { #expect(fractions[b] > fractions[p] || (fractions[b] == fractions[p] && b < p)) } }
        }
    }

    static func apply(_ transfers: [SettleUp.Transfer], to balances: [Int64]) -> [Int64] {
        var b = balances
        for t in transfers {
            b[t.from] += t.amount
            b[t.to] -= t.amount
        }
        return b
    }

    /// The fewest transfers any plan can have: k minus the most zero-sum groups, by brute force
    /// over set partitions (small k only).
    static func fewest(_ balances: [Int64]) -> Int {
        let items = balances.filter { $0 != 0 }
        func most(_ left: [Int64]) -> Int {
            guard let first = left.first else { return 0 }
            let rest = Array(left.dropFirst())
            var best = 0
            for mask in 0..<(1 << rest.count) {
                let pick = rest.indices.filter { mask & (1 << $0) != 0 }
                guard first + pick.reduce(0, { $0 + rest[$1] }) == 0 else { continue }
                best = max(best, 1 + most(rest.indices.filter { mask & (1 << $0) == 0 }.map { rest[$0] }))
            }
            return best
        }
        return items.count - most(items)
    }

    @Test func settleUpWorkedExamples() {
        // Ana is owed 30; Ben owes 10, Carla 20: the larger debt is paid first.
        #expect(
            SettleUp.plan(balances: [3000, -1000, -2000])
                == [.init(from: 2, to: 0, amount: 2000), .init(from: 1, to: 0, amount: 1000)])
        // Two pairs cancel out: two transfers, not three.
        #expect(SettleUp.plan(balances: [700, 500, -600, -500, -100]).count == 3)
        #expect(SettleUp.plan(balances: [500, 400, -400, -500]).count == 2)
        #expect(SettleUp.plan(balances: [0, 0, 0]).isEmpty)
    }

    @Test func settleUpIsMinimalAndZeroesEveryBalance() {
        var rng = SplitMix64(seed: 0x5E77_1E)
        for round in 0..<400 {
            let n = Int.random(in: 2...8, using: &rng)
            // Small values make zero-sum groups common, where a greedy plan is not minimal.
            var b = (0..<(n - 1)).map { _ in Int64.random(in: -6...6, using: &rng) * (round % 2 == 0 ? 1 : 137) }
            b.append(-b.reduce(0, +))
            let plan = SettleUp.plan(balances: b)
            #expect(Self.apply(plan, to: b).allSatisfy { $0 == 0 }, "\(b)")
            #expect(plan.count == Self.fewest(b), "\(b)")
            #expect(plan.allSatisfy { $0.amount > 0 && $0.from != $0.to })
            #expect(plan == SettleUp.plan(balances: b))
        }
    }

    @Test func aboveTheExactLimitTheGreedyPlanNeedsAtMostNMinusOne() {
        var rng = SplitMix64(seed: 0xB16_6F0)
        var b = (0..<39).map { _ in Int64.random(in: -500_000...500_000, using: &rng) }
        b.append(-b.reduce(0, +))
        let plan = SettleUp.plan(balances: b)
        #expect(Self.apply(plan, to: b).allSatisfy { $0 == 0 })
        #expect(plan.count <= b.filter { $0 != 0 }.count - 1)
    }

    @Test func twentyMembersAreSolvedExactly() {
        // A block where the greedy plan needs 5 transfers and the best needs 4 ({+7, -7} settle
        // apart from {-9, -2, +5, +6}), hidden among seven pairs that cancel: 4 + 7 = 11 transfers.
        let block: [Int64] = [-900, 700, -200, 500, 600, -700]
        let pairs: [Int64] = [1101, 1102, 1103, 1104, 1105, 1106, 1107]
        let b = block + pairs + pairs.map { -$0 }.reversed()
        #expect(b.count == 20)
        let plan = SettleUp.plan(balances: b)
        #expect(plan.count == 11)
        #expect(Self.apply(plan, to: b).allSatisfy { $0 == 0 })
    }
}
