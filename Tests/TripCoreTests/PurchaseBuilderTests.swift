import Testing

@testable import TripCore

/// `PurchaseBuilder` called directly, with no ledger: a trip, settings and clock as values and a
/// rate lookup that answers from a table.
@Suite("PurchaseBuilder: one purchase from what was given and what it inherits")
struct PurchaseBuilderTests {
    let settings: Settings
    let clock = Clock(today: CivilDate(year: 2026, month: 3, day: 4)!, now: "2026-03-04T00:00:00Z")
    let sgd: Currency, eur: Currency, jpy: Currency, usd: Currency
    /// Home EUR, local SGD, the SG preset as the SGD default.
    let singapore: PurchaseTrip

    init() throws {
        settings = try Settings.defaults()
        let table = CurrencyTable.shared
        (sgd, eur, jpy, usd) = try (
            table.currency(for: "SGD"), table.currency(for: "EUR"), table.currency(for: "JPY"), table.currency(for: "USD")
        )
        singapore = PurchaseTrip(id: 1, homeCurrency: eur, localCurrency: sgd, presets: ["SG"])
    }

    func context(_ trip: PurchaseTrip) -> PurchaseContext { PurchaseContext(trip: trip, settings: settings, clock: clock) }

    /// 1 SGD = 0.69 EUR on every date.
    func sgdInEUR(_ from: Currency, _ to: Currency, _ date: CivilDate) -> RateQuote? {
        RateQuote(rate: "0.69", date: date, source: .provider, provider: "ecb", provisional: false)
    }

    /// What an edit of `v` on `trip` inherits.
    func prior(_ v: PurchaseValues, on trip: PurchaseTrip) -> PriorPurchase {
        PriorPurchase(
            trip: trip, currency: v.currency, expression: v.expression, inputs: v.inputs, preset: v.preset,
            recordedExplicitFields: v.explicit, date: v.date, note: v.note, category: v.category, paidWith: v.paidWith,
            purchaseRate: v.purchaseRate, charged: v.charged)
    }

    /// `trip add 24.50 --tip 2 --preset none` on a trip whose SGD default is SG: no service, no
    /// GST, the tip added; 26.50 SGD × 0.69 = 18.285 EUR, half-up 18.29. An edit of the amount
    /// alone keeps the tip and the absent preset.
    @Test func presetNoneKeepsTheTipOnEdit() throws {
        let added = try PurchaseBuilder.build(
            PurchaseEntry(amount: "24.50", tip: "2", preset: "none"), in: context(singapore), lookUpRate: sgdInEUR)
        #expect(added.currency == sgd)
        #expect(added.preset == nil)
        #expect(added.explicit == [.tip, .preset])
        #expect(added.breakdown == Breakdown(price: 2450, discount: 0, subtotal: 2450, service: 0, tax: 0, taxIncluded: false, tip: 200, total: 2650))
        #expect(added.conversion.home == 1829)
        #expect(added.conversion.homeTip == 138)
        #expect(added.conversion.source == .provider)
        #expect(added.date == clock.today)

        let edited = try PurchaseBuilder.build(
            PurchaseEntry(amount: "30"), editing: prior(added, on: singapore), in: context(singapore), lookUpRate: sgdInEUR)
        #expect(edited.preset == nil)
        #expect(edited.inputs.tip == .amount("2"))
        #expect(edited.inputs.service == nil && edited.inputs.tax == nil)
        #expect(edited.breakdown.total == 3200)
        // 32.00 × 0.69 = 22.08
        #expect(edited.conversion.home == 2208)
        #expect(edited.explicit == [.tip, .preset])
    }

    /// `--tax 7%` on the SG default: the preset still gives its 10% service, the tax is the one
    /// given. 100.00 + 10.00 service, 7% of 110.00 = 7.70: 117.70 SGD.
    @Test func aPresetFillsOnlyTheFieldsNotGiven() throws {
        let v = try PurchaseBuilder.build(PurchaseEntry(amount: "100", tax: "7%"), in: context(singapore), lookUpRate: sgdInEUR)
        #expect(v.preset == "SG")
        #expect(v.inputs.service == (try AdjustmentSpec.parse("10%", field: "service")))
        #expect(v.inputs.tax == (try AdjustmentSpec.parse("7%", field: "tax")))
        #expect(v.inputs.taxIncluded == false)
        #expect(v.explicit == [.tax, .taxIncluded])
        #expect(v.breakdown.service == 1000)
        #expect(v.breakdown.tax == 770)
        #expect(v.breakdown.total == 11770)

        // Editing the price recomputes the preset's percentages and keeps the given tax.
        let edited = try PurchaseBuilder.build(
            PurchaseEntry(amount: "200"), editing: prior(v, on: singapore), in: context(singapore), lookUpRate: sgdInEUR)
        #expect(edited.breakdown.service == 2000)
        #expect(edited.breakdown.tax == 1540)
        #expect(edited.breakdown.total == 23540)
    }

    /// `trip add 1200 JPY --charged 8.10` on a USD trip: the charged amount is the home total and
    /// gives the effective rate 8.10 / 1200 = 0.00675; the ledger's rates are not asked.
    @Test func aChargedAmountGivesTheEffectiveRate() throws {
        let japan = PurchaseTrip(id: 2, homeCurrency: usd, localCurrency: jpy, presets: [])
        let v = try PurchaseBuilder.build(
            PurchaseEntry(amount: "1200", charged: "8.10"), in: context(japan),
            lookUpRate: { _, _, _ in
                Issue.record("a charged purchase looked up a rate")
                return nil
            })
        #expect(v.charged == 810)
        #expect(v.conversion.home == 810)
        #expect(v.conversion.quote == RateQuote(rate: "0.00675", date: clock.today, source: .charged, provisional: false))
        #expect(try PurchaseBuilder.effectiveRate(charged: 810, total: 1200, from: jpy, to: usd) == "0.00675")
    }

    /// The JP default (10% included, floored) on 1,100 JPY: tax 100 of which, total unchanged. Moved
    /// to another currency by an edit, the purchase takes that currency's default (none here).
    @Test func theTripsDefaultPresetFollowsTheCurrency() throws {
        let japan = PurchaseTrip(id: 3, homeCurrency: usd, localCurrency: jpy, presets: ["JP"])
        let rate: PurchaseBuilder.RateLookup = { _, _, date in RateQuote(rate: "0.0067", date: date, source: .manual, provisional: false) }
        let v = try PurchaseBuilder.build(PurchaseEntry(amount: "1100"), in: context(japan), lookUpRate: rate)
        #expect(v.preset == "JP")
        #expect(v.inputs.rounding == .floor)
        #expect(v.breakdown.tax == 100 && v.breakdown.taxIncluded && v.breakdown.total == 1100)
        #expect(v.explicit == [])

        let moved = try PurchaseBuilder.build(
            PurchaseEntry(currency: "EUR"), editing: prior(v, on: japan), in: context(japan), lookUpRate: rate)
        #expect(moved.currency == eur)
        #expect(moved.preset == nil)
        #expect(moved.inputs.tax == nil)
        #expect(moved.breakdown.total == 110_000)
    }

    /// An export row's conversion is kept as recorded and its explicit fields are not recorded.
    @Test func aRecordedConversionIsKept() throws {
        let quote = RateQuote(rate: "0.7", date: CivilDate(year: 2026, month: 2, day: 1), source: .fallback, provisional: true)
        var seen: Breakdown?
        let v = try PurchaseBuilder.build(
            PurchaseEntry(
                amount: "10", discount: "", service: "", tax: "", taxIncluded: false, tip: "", preset: "none", rounding: "half-up"),
            in: context(singapore), lookUpRate: { _, _, _ in nil },
            recorded: { b in
                seen = b
                return RecordedConversion(quote: quote, charged: nil)
            })
        #expect(seen?.total == 1000)
        #expect(v.conversion.quote == quote)
        #expect(v.conversion.home == 700)
        #expect(v.explicit == nil)
        #expect(v.preset == nil)
    }

    /// Errors name the field, as `trip add` prints them; `naming` sees the step.
    @Test func errorsNameTheFieldAndStep() throws {
        #expect(throws: TripError.self) {
            try PurchaseBuilder.build(PurchaseEntry(amount: "4.5.6"), in: context(singapore), lookUpRate: sgdInEUR)
        }
        var steps: [PurchaseBuilder.Step] = []
        #expect(throws: TripError.self) {
            try PurchaseBuilder.build(
                PurchaseEntry(amount: "10", discount: "20"), in: context(singapore), lookUpRate: sgdInEUR,
                naming: { step, e in
                    steps.append(step)
                    return e
                })
        }
        #expect(steps == [.breakdown])
    }
}
