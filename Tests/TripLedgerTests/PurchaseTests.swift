import Rendering
import TestSupport
import Testing
import TripCore
import TripModel

@testable import Storage
@testable import TripLedger

@Suite("Purchases, rates and reports on a real ledger")
struct PurchaseTests {
    func japanTrip() throws -> TestLedger {
        let t = try TestLedger()
        try t.ledger.createTrip(NewTrip(name: "Japan 2026", localCurrency: "JPY", homeCurrency: "USD"))
        return t
    }

    @Test func manualRateConvertsAndIsFinal() throws {
        let t = try japanTrip()
        _ = try t.ledger.setManualRate(currency: "JPY", rate: "0.0067", in: nil, date: "2026-03-01")
        let p = try t.ledger.addPurchase(PurchaseDraft(amount: "3*1200", discount: "10%", tax: "10%", taxIncluded: true))
        #expect(p.breakdown.total == 3240)
        #expect(p.conversion.home == 2171)  // 3240 × 0.0067 = 21.708
        #expect(p.conversion.quote?.source == .manual)
        #expect(p.conversion.quote?.date?.description == "2026-03-01")
        #expect(p.conversion.provisional == false)
    }

    @Test func fallbackIsProvisionalAndNoRateIsUnconverted() throws {
        let t = try japanTrip()
        let f = try t.ledger.addPurchase(PurchaseDraft(amount: "1000"))
        #expect(f.conversion.source == .fallback)
        #expect(f.conversion.provisional)
        #expect(f.conversion.home != nil)
        let none = try t.ledger.addPurchase(PurchaseDraft(amount: "35000", currency: "MNT"))
        #expect(none.conversion.home == nil)
        #expect(none.conversion.source == .none)
        let r = try t.ledger.report(trip: nil)
        #expect(r.unconvertedCount == 1)
        #expect(r.byCurrency.first { $0.key == "MNT" }?.unconverted == 1)
        #expect(r.byCategory.first?.unconverted == 1)
        #expect(r.totals.net == f.conversion.home)  // never counted 1:1
    }

    @Test func chargedWinsAndShowsTheEffectiveRate() throws {
        let t = try japanTrip()
        _ = try t.ledger.setManualRate(currency: "JPY", rate: "0.0067", in: nil, date: nil)
        let p = try t.ledger.addPurchase(PurchaseDraft(amount: "1200", charged: "8.12"))
        #expect(p.conversion.home == 812)
        #expect(p.conversion.source == .charged)
        #expect(p.conversion.quote?.rate == "0.00676666666667")  // 8.12 / 1200, 12 significant digits
    }

    @Test func manualRateSetLaterReratesProvisionalPurchases() throws {
        let t = try japanTrip()
        let p = try t.ledger.addPurchase(PurchaseDraft(amount: "10000"))
        #expect(p.conversion.source == .fallback)
        let (_, summary) = try t.ledger.setManualRate(currency: "USD", rate: "150", in: "JPY", date: "2026-03-01")
        #expect(summary.changed == 1)
        let after = try t.ledger.purchase(id: p.id)
        #expect(after.conversion.source == .manual)
        #expect(after.conversion.quote?.rate == "0.00666666666667")  // the inverse of 150, to 12 significant digits
        #expect(after.conversion.home == 6667)
    }

    @Test func editRecomputesPercentagesAndKeepsTheRest() throws {
        let t = try japanTrip()
        let p = try t.ledger.addPurchase(PurchaseDraft(amount: "1000", note: "ramen", category: "Food", preset: "JP"))
        #expect(p.breakdown.tax == 90)
        #expect(p.category == "food")
        let e = try t.ledger.editPurchase("#\(p.id)", PurchaseDraft(amount: "2200"))
        #expect(e.breakdown.tax == 200)
        #expect(e.note == "ramen")
        #expect(e.preset == "JP")
        #expect(e.id == p.id)
        let cleared = try t.ledger.editPurchase(String(p.id), PurchaseDraft(preset: "none"))
        #expect(cleared.inputs.tax == nil)
        _ = try t.ledger.removePurchase(String(p.id))
        #expect(throws: TripError.purchaseNotFound(String(p.id))) { try t.ledger.purchase(id: p.id) }
    }

    @Test func presetFlagsOverride() throws {
        let t = try japanTrip()
        let p = try t.ledger.addPurchase(PurchaseDraft(amount: "1000", tax: "8%", taxIncluded: true, preset: "JP"))
        #expect(p.breakdown.tax == 74)  // floor(1000 × 8/108) with JP's floor rounding
        let added = try t.ledger.addPurchase(PurchaseDraft(amount: "1000", tax: "10%", preset: "JP"))
        #expect(added.breakdown.taxIncluded == false)  // --tax without --tax-included adds it
        #expect(added.breakdown.total == 1100)
    }

    @Test func reportLinesAddUpExactly() throws {
        let t = try japanTrip()
        _ = try t.ledger.setManualRate(currency: "JPY", rate: "0.0067", in: nil, date: "2026-03-01")
        _ = try t.ledger.setManualRate(currency: "SGD", rate: "0.7412", in: nil, date: "2026-03-01")
        let drafts = [
            PurchaseDraft(amount: "3*1200", category: "food", discount: "10%", tax: "10%", taxIncluded: true),
            PurchaseDraft(amount: "25", currency: "SGD", category: "food", preset: "SG"),
            PurchaseDraft(amount: "48.50", currency: "USD", category: "food", tax: "8.875%", tip: "20%"),
            PurchaseDraft(amount: "777", category: "transport", service: "3%", tip: "13"),
        ]
        var sum: Int64 = 0
        for d in drafts { sum += try t.ledger.addPurchase(d).conversion.home ?? 0 }
        let r = try t.ledger.report(trip: nil)
        #expect(r.totals.net == sum)
        let t2 = r.totals
        #expect(t2.gross - t2.discounts + t2.service + t2.taxAdded + t2.tip == t2.net)
        #expect(r.byCategory.reduce(0) { $0 + $1.home } == t2.net)
        #expect(r.byCurrency.reduce(0) { $0 + $1.home } == t2.net)
        #expect(r.provenance.reduce(0) { $0 + $1.home } == t2.net)
        // 21.71 + 22.22 (29.98 SGD × 0.7412) + 62.50 + 5.54 ((777 + 23 + 13) × 0.0067 = 5.447 → 5.45)
        #expect(t2.net == 2171 + 2222 + 6250 + 545)
    }

    @Test func tripsRenameDeleteAndCurrent() throws {
        let t = try japanTrip()
        try t.ledger.createTrip(NewTrip(name: "Seoul", localCurrency: "krw"))
        #expect(try t.ledger.currentTrip()?.name == "Seoul")
        // Refused with the existing trip's name: the two differ only in case.
        #expect(throws: TripError.tripExists("Japan 2026")) { try t.ledger.createTrip(NewTrip(name: "japan 2026")) }
        _ = try t.ledger.useTrip("Japan 2026")
        _ = try t.ledger.renameTrip("Japan 2026", to: "Japan")
        #expect(try t.ledger.currentTrip()?.name == "Japan")
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "100"))
        let (_, n) = try t.ledger.deleteTrip("Japan")
        #expect(n == 1)
        #expect(try t.ledger.currentTrip() == nil)
        #expect(try t.ledger.database.db.scalarInt("SELECT count(*) FROM purchases") == 0)
    }

    @Test func failedAddChangesNothing() throws {
        let t = try japanTrip()
        let before = try dumpLedger(t.path)
        #expect(throws: TripError.self) { try t.ledger.addPurchase(PurchaseDraft(amount: "100", discount: "150%")) }
        #expect(throws: TripError.self) { try t.ledger.addPurchase(PurchaseDraft(amount: "100", note: "a\u{0}b")) }
        #expect(try dumpLedger(t.path) == before)
    }

    @Test func demoBuildsAndReports() throws {
        let t = try TestLedger(today: "2026-03-08")
        let r = try DemoTrip.build(in: t.ledger)
        #expect(r.purchaseCount == 7)
        #expect(r.unconvertedCount == 1)
        #expect(r.totals.gross - r.totals.discounts + r.totals.service + r.totals.taxAdded + r.totals.tip == r.totals.net)
    }
}
