import Rendering
import TestSupport
import Testing
import TripModel

@testable import Storage
@testable import TripCore
@testable import TripLedger

@Suite("Explicit fields and per-currency trip presets")
struct ExplicitFieldsTests {
    @Test func storedTextRoundTripsAndIgnoresUnknownNames() {
        let e: ExplicitFields = [.tip, .discount, .preset]
        #expect(e.stored == "discount,tip,preset")
        #expect(ExplicitFields(stored: e.stored) == e)
        #expect(ExplicitFields(stored: "tip,from_the_future") == .tip)
        #expect(ExplicitFields(stored: "") == [])
        #expect(ExplicitFields(draft: PurchaseDraft(tax: "5%")) == [.tax, .taxIncluded])
    }

    /// A row that did not record its explicit fields (from before m0005) derives them from its
    /// specs against its preset, so an edit still keeps what the user typed.
    @Test func aRowWithoutTheRecordDerivesIt() throws {
        let t = try TestLedger()
        _ = try t.ledger.createTrip(NewTrip(name: "Singapore", localCurrency: "SGD", homeCurrency: "USD", preset: "SG"))
        let p = try t.ledger.addPurchase(PurchaseDraft(amount: "100", tip: "2", rate: "0.75"))
        #expect(p.preset == "SG")
        #expect(p.explicitFields == .tip)
        try t.ledger.database.db.execute("UPDATE purchases SET explicit_fields = NULL")
        let legacy = try t.ledger.purchase(id: p.id)
        #expect(legacy.explicitFields == nil)
        #expect(t.ledger.explicitFields(of: legacy) == .tip)
        let edited = try t.ledger.editPurchase("1", PurchaseDraft(preset: "none"))
        #expect(edited.inputs.tip?.description == "2")
        #expect(edited.inputs.service == nil && edited.inputs.tax == nil)
        #expect(edited.explicitFields == [.tip, .preset])
    }

    @Test func defaultPresetsArePerCurrency() throws {
        let t = try TestLedger()
        let trip = try t.ledger.createTrip(
            NewTrip(
                name: "Asia", localCurrency: "JPY", homeCurrency: "USD",
                presets: ["jp", "SG"]))
        #expect(trip.presets == ["JP", "SG"])
        #expect(t.ledger.defaultPreset(of: trip, for: try CurrencyTable.shared.currency(for: "JPY")) == "JP")
        #expect(t.ledger.defaultPreset(of: trip, for: try CurrencyTable.shared.currency(for: "SGD")) == "SG")
        #expect(t.ledger.defaultPreset(of: trip, for: try CurrencyTable.shared.currency(for: "EUR")) == nil)
        #expect(throws: TripError.self) {
            try t.ledger.createTrip(NewTrip(name: "Clash", presets: ["GB", "GB", "DE", "FR"]))
        }
        #expect(try t.ledger.trips().count == 1)
    }
}
