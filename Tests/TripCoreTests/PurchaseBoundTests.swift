import Testing

@testable import TripCore

@Suite("Purchase bound and preset currencies")
struct PurchaseBoundTests {
    static let usd = Currency(code: "USD", minorUnits: 2, name: "US Dollar")

    @Test(arguments: [
        (PurchaseBound.maxMinorUnits, true), (PurchaseBound.maxMinorUnits + 1, false),
        (-PurchaseBound.maxMinorUnits, true), (-PurchaseBound.maxMinorUnits - 1, false),
        (0, true), (Int64.max, false), (Int64.min, false),
    ])
    func boundaryBothSides(value: Int64, inside: Bool) {
        #expect(PurchaseBound.contains(value) == inside)
    }

    /// The reason for the bound: this many purchases at it still sum, with the gross's five terms.
    @Test func sumsAtTheBoundDoNotOverflow() {
        let n = Int64.max / PurchaseBound.maxMinorUnits
        #expect(n > 9_000_000)
        #expect(PurchaseBound.maxMinorUnits.multipliedReportingOverflow(by: n / 5 * 5).overflow == false)
    }

    @Test func aBreakdownPastTheBoundNamesTheField() throws {
        let inputs = AdjustmentInputs(tip: try AdjustmentSpec.parse("0.01", field: "tip"), rounding: .halfUp)
        let atBound = try Breakdown.compute(price: PurchaseBound.maxMinorUnits - 1, currency: Self.usd, inputs: inputs)
        try PurchaseBound.check(atBound, currency: Self.usd)
        let past = try Breakdown.compute(price: PurchaseBound.maxMinorUnits, currency: Self.usd, inputs: inputs)
        #expect(
            throws: TripError.badAmount(
                field: "total", value: "10000000000.00",
                reason: "is too large; one purchase holds at most USD 9,999,999,999.99")
        ) {
            try PurchaseBound.check(past, currency: Self.usd)
        }
    }

    @Test func everyShippedPresetNamesKnownCurrencies() throws {
        let presets = try Settings.defaults().presets
        #expect(!presets.isEmpty)
        for (name, p) in presets {
            #expect(!p.value.currencies.isEmpty, "\(name) names no currency")
            for code in p.value.currencies { #expect(CurrencyTable.shared.lookup(code) != nil, "\(name): \(code)") }
        }
        #expect(try Settings.defaults().preset(named: "DE").currencies == ["EUR"])
    }

    @Test func aPresetAppliesToItsCurrenciesOrElseTheLocalOne() throws {
        let p = Preset(name: "X", currencies: ["EUR", "CHF"])
        #expect(p.applies(to: "EUR", local: "JPY"))
        #expect(p.applies(to: "CHF", local: nil))
        #expect(!p.applies(to: "JPY", local: "JPY"))
        let own = Preset(name: "MINE")
        #expect(own.applies(to: "JPY", local: "JPY"))
        #expect(!own.applies(to: "EUR", local: "JPY"))
        let f = try ConfigFile(origin: "t.toml", text: "[preset.Y]\ncurrencies = \"eur, chf\"\ntax = \"5%\"\n")
        var s = try Settings.defaults()
        try s.apply(f)
        #expect(try s.preset(named: "Y").currencies == ["EUR", "CHF"])
        var bad = try Settings.defaults()
        #expect(throws: TripError.self) {
            try bad.apply(try ConfigFile(origin: "t.toml", text: "[preset.Z]\ncurrencies = \"EURO\"\n"))
        }
    }
}
