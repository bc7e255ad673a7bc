import Testing

@testable import TripCore

@Suite("Rational arithmetic and rounding")
struct RationalTests {
    @Test(
        "rounding modes on ties and non-ties",
        arguments: [
            // value as n/d, halfUp, halfEven, floor, ceiling
            (5, 2, 3, 2, 2, 3),
            (7, 2, 4, 4, 3, 4),
            (-5, 2, -3, -2, -3, -2),
            (12, 5, 2, 2, 2, 3),  // 2.4
            (13, 5, 3, 3, 2, 3),  // 2.6
            (-13, 5, -3, -3, -3, -2),  // -2.6
            (4, 1, 4, 4, 4, 4),
        ])
    func rounding(n: Int, d: Int, halfUp: Int, halfEven: Int, floor: Int, ceiling: Int) throws {
        let r = try Rational(Int128(n), Int128(d))
        #expect(r.rounded(.halfUp) == Int128(halfUp))
        #expect(r.rounded(.halfEven) == Int128(halfEven))
        #expect(r.rounded(.floor) == Int128(floor))
        #expect(r.rounded(.ceiling) == Int128(ceiling))
    }

    /// `timesRounded` (the import's fast path and `Conversion.make`) gives what the reduced product
    /// gives, for every rounding mode, signs, ties and products beyond 64 bits.
    @Test(arguments: RoundingMode.allCases)
    func timesRoundedMatchesTheReducedProduct(_ mode: RoundingMode) throws {
        let factors: [(Int128, Int128)] = [
            (625_649_263_722, 100_000_000_000_000), (1, 2), (3, 2), (5, 4), (2, 3), (67, 100),
            (7, 1), (1, 1_000_000_007), (Int128(Int64.max), 3),
        ]
        let values: [Int64] = [1, 2, 3, 5, 7, 10, 25, 27_211, 123_456_789, -1, -3, -25, -27_211, Int64.max / 7, Int64.min / 9]
        var inRange = 0, beyond = 0
        for (p, q) in factors {
            let factor = try Rational(p, q)
            for v in values {
                // The reference is computed without `try?`: a reference that fails to compute must
                // fail the test, not compare `nil == nil` with a fast path that failed too.
                let reference = try (Rational(v) * factor).rounded(mode)
                if let exact = Int64(exactly: reference) {
                    inRange += 1
                    #expect(factor.timesRounded(v, mode) == exact, "\(v) × \(p)/\(q)")
                } else {
                    // Documented: `nil` only when the rounded product does not fit an Int64.
                    beyond += 1
                    #expect(factor.timesRounded(v, mode) == nil, "\(v) × \(p)/\(q) = \(reference) is beyond Int64")
                }
            }
        }
        // Both sides of the table are exercised: values that fit, and the Int64 edge.
        #expect(inRange > 0 && beyond > 0)
    }

    @Test("decimal text round-trips exactly", arguments: ["0.0067", "149.25", "1", "0.000000001", "186.75", "7.53450"])
    func decimalText(text: String) throws {
        let r = try #require(Rational(decimalText: text))
        let back = try #require(r.exactDecimalText())
        #expect(Rational(decimalText: back) == r)
    }

    @Test("rejects what is not a plain decimal", arguments: ["", "-", ".", "1e5", "NaN", "inf", "1.2.3", "0x10", "1,5"])
    func rejects(text: String) {
        #expect(Rational(decimalText: text) == nil)
    }

    /// A split's weight or a member's portion: an integer, or the fraction in lowest terms.
    @Test func fractionText() throws {
        #expect(Rational(integer: 3).fractionText == "3")
        #expect(try Rational(6, 10).fractionText == "3/5")
        #expect(try Rational(2, 6).fractionText == "1/3")
        #expect(try #require(Rational(decimalText: "1.5")).fractionText == "3/2")
        #expect(try Rational(4, 2).fractionText == "2")
    }

    @Test func significantDigits() throws {
        let inverse = try Rational.one / #require(Rational(decimalText: "0.0067"))
        #expect(inverse.significantDecimalText(12) == "149.253731343")
        let third = try Rational(1, 3)
        #expect(third.significantDecimalText(4) == "0.3333")
        #expect(try Rational(2, 1).significantDecimalText(12) == "2")
    }

    @Test func overflowThrowsInsteadOfTrapping() throws {
        let big = Rational(integer: Int128.max / 2)
        #expect(throws: ArithmeticOverflow.overflow) { try big * Rational(integer: 4) }
        #expect(throws: ArithmeticOverflow.divisionByZero) { try Rational.one / .zero }
    }

    @Test func comparisonIsExact() throws {
        let a = try Rational(1, 3), b = try Rational(333_333, 1_000_000)
        #expect(b < a)
        #expect(!(a < b))
    }
}
