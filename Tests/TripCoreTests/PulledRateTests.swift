import Testing
import TripCore

/// What a rate pulled from a shared trip's log must be (issue 36): anything else is set aside.
@Suite("Pulled rates: only rates are stored")
struct PulledRateTests {
    @Test(arguments: ["0.0067", "149.25", "1", "1000000000000", "0.000000000001"])
    func aRateIsAccepted(_ text: String) throws {
        #expect(try PulledRate.rate(text, field: "rate") == text)
    }

    @Test(arguments: [
        "-5", "0", "0.000", "NaN", "nan", "inf", "1e3", "1000000000000.01", "99999999999999999999", "", " 5", "5 ", ".5", "abc",
        "1,5",
    ])
    func aNonRateIsRefused(_ text: String) {
        #expect(throws: TripError.self) { try PulledRate.rate(text, field: "rate") }
    }

    @Test func aMissingRateIsRefused() {
        #expect(throws: TripError.self) { try PulledRate.rate(nil, field: "rate") }
    }

    @Test(arguments: ["USD", "JPY", "KWD"])
    func aKnownCurrencyIsAccepted(_ code: String) throws {
        #expect(try PulledRate.currency(code, field: "base").code == code)
    }

    @Test(arguments: ["XXX", "usd", "ZZZ", "", "US", "USDD"])
    func anUnknownCurrencyIsRefused(_ code: String) {
        #expect(throws: TripError.self) { try PulledRate.currency(code, field: "base") }
    }

    @Test(arguments: ["2026-02-30", "garbage", "2026-2-01", "0000-01-01", "", "2026-03-08T00:00:00Z"])
    func anUnrealDateIsRefused(_ text: String) {
        #expect(throws: TripError.self) { try PulledRate.date(text, field: "date") }
    }

    @Test func aRealDateIsAccepted() throws {
        #expect(try PulledRate.date("2024-02-29", field: "date").description == "2024-02-29")
    }
}
