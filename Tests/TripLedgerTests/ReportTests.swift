import TestSupport
import Testing
import TripCore
import TripModel

@testable import Rendering
@testable import TripLedger

@Suite("Reports: breakdowns, days, budget, --home, close")
struct ReportTests {
    /// Japan, 2026-03-01 … 2026-03-10, budget USD 500, today 2026-03-05, JPY at 0.0067 USD.
    func trip() throws -> TestLedger {
        let t = try TestLedger(today: "2026-03-05")
        try t.ledger.createTrip(
            NewTrip(
                name: "Japan", localCurrency: "JPY", homeCurrency: "USD", start: "2026-03-01",
                end: "2026-03-10", budget: "500"))
        _ = try t.ledger.setManualRate(currency: "JPY", rate: "0.0067", in: "USD", date: "2026-03-01")
        _ = try t.ledger.setManualRate(currency: "JPY", rate: "0.0061", in: "EUR", date: "2026-03-01")
        _ = try t.ledger.setManualRate(currency: "USD", rate: "0.91", in: "EUR", date: "2026-03-01")
        let drafts = [
            PurchaseDraft(amount: "1200", note: "ramen", date: "2026-03-01", category: "food", paidWith: "cash"),
            PurchaseDraft(amount: "3000", note: "museum", date: "2026-03-02", category: "museums", paidWith: "card"),
            PurchaseDraft(amount: "800", note: "coffee | cake", date: "2026-03-02", category: "food", paidWith: "card"),
            PurchaseDraft(amount: "25", currency: "USD", note: "book", date: "2026-03-04", category: "shopping", paidWith: "card"),
            PurchaseDraft(amount: "5000", currency: "MNT", note: "layover", date: "2026-03-04", category: "gifts"),
        ]
        for d in drafts { _ = try t.ledger.addPurchase(d) }
        return t
    }

    // `.member` needs a group trip: GroupTripEndToEndTests covers it.
    @Test("every grouping adds up to the net total", arguments: ReportGrouping.allCases.filter { $0 != .member })
    func groupingsAddUp(by: ReportGrouping) throws {
        let t = try trip()
        let r = try t.ledger.report(ReportQuery(by: by))
        // 1200 × 0.0067 = 8.04; 3000 → 20.10; 800 → 5.36; 25.00; MNT unconverted.
        #expect(r.totals.net == 804 + 2010 + 536 + 2500)
        if by != .none { #expect(r.groups.reduce(0) { $0 + $1.home } == r.totals.net) }
        switch by {
        case .day: #expect(r.groups.map(\.key) == ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"])  // every calendar day
        case .payment: #expect(Set(r.groups.map(\.key)) == ["cash", "card", "unspecified"])
        case .currency: #expect(Set(r.groups.map(\.key)) == ["JPY", "USD", "MNT"])
        case .category: #expect(r.groups.first?.key == "shopping")
        case .none: #expect(r.groups.isEmpty)
        case .member: Issue.record("not a group trip")
        }
    }

    @Test func daysAndBudget() throws {
        let r = try trip().ledger.report(ReportQuery())
        #expect(r.days == 5)  // 1 … 5 March so far
        #expect(r.averagePerDay == 1170)  // 58.50 / 5 = 11.70
        let b = try #require(r.budget)
        #expect(b.remaining == 50000 - 5850)
        #expect(b.daysLeft == 6)  // 5 … 10 March
        #expect(b.dailyAllowance == 7358)  // 441.50 / 6 = 73.583 → floored
        #expect(r.byDay.map(\.home) == [804, 2010 + 536, 0, 2500])
    }

    @Test func sinceAndUntilFilter() throws {
        let r = try trip().ledger.report(ReportQuery(since: "2026-03-02", until: "2026-03-03"))
        #expect(r.purchaseCount == 2)
        #expect(r.totals.net == 2010 + 536)
    }

    @Test func homeReexpressesAtEachDatesRateWithoutChangingStoredData() throws {
        let t = try trip()
        let before = try dumpLedger(t.path)
        let r = try t.ledger.report(ReportQuery(home: "EUR"))
        #expect(r.reexpressed)
        #expect(r.home.code == "EUR")
        // JPY at 0.0061: 7.32 + 18.30 + 4.88; USD 25 at 0.91: 22.75.
        #expect(r.totals.net == 732 + 1830 + 488 + 2275)
        #expect(r.budget == nil)
        #expect(try dumpLedger(t.path) == before)
        #expect(r.json.serialized.contains("\"home_currency\":\"EUR\""))
    }

    @Test func closedTripsAreFrozen() throws {
        let t = try trip()
        let fallback = try t.ledger.addPurchase(PurchaseDraft(amount: "10", currency: "GBP", date: "2026-03-03"))
        #expect(fallback.conversion.source == .fallback)
        let closed = try t.ledger.closeTrip("Japan")
        #expect(closed.closedAt != nil)
        #expect(throws: TripError.self) { try t.ledger.addPurchase(PurchaseDraft(amount: "100")) }
        #expect(throws: TripError.self) { try t.ledger.removePurchase(String(fallback.id)) }
        let (_, summary) = try t.ledger.setManualRate(currency: "GBP", rate: "1.27", in: "USD", date: "2026-03-01")
        #expect(summary.changed == 0)
        #expect(try t.ledger.purchase(id: fallback.id).conversion.source == .fallback)
        #expect(try t.ledger.report(ReportQuery()).subtitle.contains("closed 2026-03-05"))
        _ = try t.ledger.reopenTrip("Japan")
        #expect(try t.ledger.rerate().changed == 1)
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "100"))
    }

    @Test func allTripsInOneScan() throws {
        let t = try trip()
        try t.ledger.createTrip(NewTrip(name: "Paris", localCurrency: "EUR", homeCurrency: "EUR"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "4.50", note: "croissant"))
        let rs = try t.ledger.reportAll(ReportQuery())
        #expect(rs.map(\.trip.name) == ["Japan", "Paris"])
        #expect(rs[1].totals.net == 450)
        #expect(rs[0].totals.net == 5850)
        #expect(TextFormat.reports(rs).contains("net total EUR 4.50"))
    }

    @Test func formatsSayTheSameThings() throws {
        let t = try trip()
        let r = try t.ledger.report(ReportQuery(lines: true))
        let md = ReportMarkdown.render(r)
        #expect(md.contains("| **net total** | **58.50** |"))
        #expect(md.contains("coffee \\| cake"))
        #expect(md.contains("> **Warning:** 1 purchase is unconverted"))
        let html = ReportHTML.render([r], generatedOn: "2026-03-05", version: "test")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<svg"))
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"))
        #expect(html.contains("58.50 USD"))
        #expect(html.contains("coffee | cake"))
        let text = TextFormat.report(r, bars: true, color: true)
        #expect(text.contains("█"))
        #expect(text.contains("\u{1B}["))
        #expect(!TextFormat.report(r).contains("\u{1B}"))
        #expect(!TextFormat.report(r).contains("█"))
    }

    /// Counts in a report's header group thousands, as its amounts do (issue 27).
    @Test func headerGroupsThousands() throws {
        let t = try TestLedger(today: "2026-03-05")
        try t.ledger.createTrip(NewTrip(name: "Long", localCurrency: "USD", homeCurrency: "USD"))
        try t.ledger.inOneTransaction {
            for _ in 0..<1_000 { _ = try t.ledger.addPurchase(PurchaseDraft(amount: "1071.91", note: "x", date: "2026-03-01")) }
        }
        let r = try t.ledger.report(ReportQuery(lines: true))
        #expect(TextFormat.report(r).contains("1,000 purchases"))
        #expect(ReportMarkdown.render(r).contains("1,000 purchases"))
        #expect(ReportMarkdown.render(r).contains("| 1,071.91 |"))
        #expect(ReportHTML.render([r], generatedOn: "2026-03-05", version: "test").contains("1,000 purchases"))
    }
}
