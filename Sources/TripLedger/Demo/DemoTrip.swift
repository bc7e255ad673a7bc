import Storage
import TripCore
import TripModel

/// `trip demo`: a sample trip logged into a fresh ledger, offline, exercising every adjustment
/// and every rate source. Its report is what a new user sees first.
public enum DemoTrip {
    /// Builds the sample in `ledger` (which should be empty) and returns its report.
    public static func build(in ledger: Ledger) throws -> TripReport {
        _ = try ledger.initialize(home: "USD")
        try ledger.createTrip(
            NewTrip(
                name: "Tokyo and Singapore", localCurrency: "JPY", homeCurrency: "USD",
                start: "2026-03-01", end: "2026-03-08", budget: "1500"))
        _ = try ledger.setManualRate(currency: "JPY", rate: "0.0067", in: "USD", date: "2026-03-01")
        let purchases: [PurchaseDraft] = [
            PurchaseDraft(
                amount: "3*1200", note: "ramen for three", date: "2026-03-02", category: "food",
                discount: "10%", tax: "10%", taxIncluded: true),
            PurchaseDraft(amount: "1,000", note: "konbini snacks", date: "2026-03-02", category: "food", preset: "JP-FOOD"),
            PurchaseDraft(
                amount: "14,500", note: "Suica top-up and Shinkansen", date: "2026-03-03", category: "transport",
                paidWith: "card", preset: "JP"),
            PurchaseDraft(
                amount: "25", currency: "SGD", note: "chilli crab", date: "2026-03-06", category: "food",
                paidWith: "card", preset: "SG"),
            PurchaseDraft(
                amount: "180", currency: "SGD", note: "hotel night", date: "2026-03-06", category: "lodging",
                paidWith: "card", preset: "SG-RETAIL", charged: "134.12"),
            PurchaseDraft(
                amount: "48.50", currency: "USD", note: "airport dinner (JFK)", date: "2026-03-08",
                category: "food", tax: "8.875%", tip: "20%"),
            PurchaseDraft(
                amount: "35000", currency: "MNT", note: "souvenir from a layover", date: "2026-03-08",
                category: "gifts", paidWith: "cash"),
        ]
        for p in purchases { _ = try ledger.addPurchase(p) }
        return try ledger.report(trip: nil)
    }
}
