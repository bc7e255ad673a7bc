import Testing

@testable import TripCore

@Suite("Amount entry: numbers, separators and expressions")
struct AmountExpressionTests {
    @Test(
        "valid amounts in minor units",
        arguments: [
            ("1200", 0, Int64(1200)),
            ("3*1200", 0, 3600),
            ("3*1200+500", 0, 4100),
            ("(12.50+8)*2", 2, 4100),
            ("12.50", 2, 1250),
            ("12,50", 2, 1250),  // a single comma followed by two digits is a decimal comma
            ("1 200,50", 2, 120050),  // space groups thousands, comma is decimal
            ("1.200,50", 2, 120050),
            ("1,200.50", 2, 120050),
            ("1,200,000", 2, 120000000),
            ("1'200.50", 2, 120050),
            ("1,200", 0, 1200),  // JPY has no decimals, so "," can only group thousands
            ("0.500", 3, 500),  // leading 0 cannot be a thousands group
            ("1.234", 3, 1234),  // KWD: three decimals is how prices are written
            ("1,234", 3, 1234),
            ("100/3", 2, 3333),  // expressions round once, half-up
            ("2/3", 2, 67),
            ("10 × 3", 0, 30),
            ("1.5", 3, 1500),
            (".5", 2, 50),
            ("0", 2, 0),
        ])
    func valid(text: String, minor: Int, expected: Int64) throws {
        if expected < 0 {
            #expect(throws: TripError.self) { try AmountExpression.evaluate(text, minorUnits: minor) }
        } else {
            #expect(try AmountExpression.evaluate(text, minorUnits: minor) == expected)
        }
    }

    @Test(
        "errors quote the input",
        arguments: [
            ("4.5.6", "is not a valid number"),
            ("", "is empty"),
            ("   ", "is empty"),
            ("abc", "is not a number"),
            ("1/0", "divides by zero"),
            ("5-10", "is negative"),
            ("-5", "is negative"),
            ("99999999999999999999", "too large"),
            ("92233720368547758.08", "too large"),
            ("1e400", "is not a number"),
            ("NaN", "is not a number"),
            ("(1+2", "unclosed"),
            ("1+", "ends too early"),
            ("12,34,5", "is not a valid number"),
            ("1,200", "ambiguous"),
            ("12.500", "ambiguous"),
            ("12.345", "ambiguous"),
            ("12.3456", "has 4 decimal places"),
            ("$12", "is not a number"),
        ])
    func errors(text: String, fragment: String) {
        do {
            _ = try AmountExpression.evaluate(text, minorUnits: 2)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.description.contains(fragment), "\(error.description)")
            #expect(error.description.contains("\"\(text)\""), "the message quotes the input: \(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func ambiguityNamesBothReadings() {
        #expect(
            throws: TripError.ambiguousAmount(
                field: "amount", value: "1,200",
                readings: [
                    "1200 if \",\" groups thousands", "1.2 if it is the decimal separator",
                ], suggestions: ["1200", "1.2"])
        ) {
            try AmountExpression.evaluate("1,200", minorUnits: 2)
        }
    }

    @Test func deepNestingIsRejectedNotCrashed() {
        let deep = String(repeating: "(", count: 500) + "1" + String(repeating: ")", count: 500)
        #expect(throws: TripError.self) { try AmountExpression.evaluate(deep, minorUnits: 2) }
    }

    @Test(
        "rounding mode applies to expression results",
        arguments: [
            (RoundingMode.halfUp, Int64(1667)), (.halfEven, 1667), (.floor, 1666), (.ceiling, 1667),
        ])
    func roundingModes(mode: RoundingMode, expected: Int64) throws {
        #expect(try AmountExpression.evaluate("50/3", minorUnits: 2, rounding: mode) == expected)
    }
}
