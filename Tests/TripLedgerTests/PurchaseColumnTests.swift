import Foundation
import Rendering
import TestSupport
import Testing
import TripCore
import TripModel

@testable import Storage
@testable import TripLedger

/// The column lists a purchase is read and written through (`Purchase.Column`, `PurchaseRow.Column`;
/// and a trip's, `Trip.Column`) against the tables the migrations make: a migration that adds a column
/// fails here until the column is mapped, or named below as one that is deliberately not.
@Suite("Purchase columns: every column of purchases mapped or named")
struct PurchaseColumnTests {
    /// Columns of `purchases` a `Purchase` does not read, and why.
    static let notRead: Set<String> = [
        "created_at", "updated_at",  // bookkeeping, shown nowhere
        "import_key",  // read by the importer and edit only, by its own queries
        "charged_source",  // read by a statement's reconcile and kept by edit, by their own queries (m0023)
    ]
    /// Columns of `purchases` an insert of a `PurchaseRow` does not set, and why.
    static let notInserted: Set<String> = [
        "id",  // bound before the row's values: drawn from `id_high_water`
        "import_key",  // set by the importer's batch insert and kept by edit, by their own statements
        "charged_source",  // set by a statement's reconcile and kept by edit, by their own statements (m0023)
    ]

    static func tableColumns() throws -> [String] {
        let t = try TestLedger()
        var names: [String] = []
        try t.ledger.database.db.prepare("SELECT name FROM pragma_table_info('purchases') ORDER BY cid").forEach { names.append($0.text(0)) }
        return names
    }

    /// A trip is read and inserted through one list, `Trip.Column`: it must name every column.
    @Test func everyTripColumnIsReadAndInserted() throws {
        let t = try TestLedger()
        var table: [String] = []
        try t.ledger.database.db.prepare("SELECT name FROM pragma_table_info('trips') ORDER BY cid").forEach { table.append($0.text(0)) }
        #expect(table.count >= 10)
        #expect(Set(table) == Set(Trip.Column.allCases.map { $0.sql.description }))
    }

    /// `p.note` → `note`; `nil` for a column of another table (`t.name`).
    static func purchaseColumn(_ sql: StaticString) -> String? {
        let text = sql.description
        return text.hasPrefix("p.") ? String(text.dropFirst(2)) : nil
    }

    @Test func everyColumnIsReadOrNamedAsNotRead() throws {
        let table = try Self.tableColumns()
        #expect(table.count > 30, "read \(table.count) columns of purchases")
        let read = Purchase.Column.allCases.compactMap { Self.purchaseColumn($0.sql) }
        #expect(Set(read).count == read.count, "a column is read twice: \(read)")
        let unmapped = Set(table).subtracting(read).subtracting(Self.notRead)
        #expect(unmapped.isEmpty, "columns of purchases neither in Purchase.Column nor in notRead: \(unmapped.sorted())")
        let unknown = Set(read).subtracting(table)
        #expect(unknown.isEmpty, "Purchase.Column reads columns purchases does not have: \(unknown.sorted())")
        #expect(Set(read).isDisjoint(with: Self.notRead), "named as not read, but read")
    }

    @Test func everyColumnIsInsertedOrNamedAsNotInserted() throws {
        let table = try Self.tableColumns()
        let inserted = PurchaseRow.Column.allCases.map { $0.sql.description }
        #expect(Set(inserted).count == inserted.count, "a column is inserted twice: \(inserted)")
        let unmapped = Set(table).subtracting(inserted).subtracting(Self.notInserted)
        #expect(unmapped.isEmpty, "columns of purchases neither in PurchaseRow.Column nor in notInserted: \(unmapped.sorted())")
        #expect(Set(inserted).subtracting(table).isEmpty)
        #expect(Set(inserted).isDisjoint(with: Self.notInserted), "named as not inserted, but inserted")
        #expect(PurchaseRow.columnCount == inserted.count)
    }

    /// A list that borrows `Purchase.Column`'s texts must use only its case names: a case it does
    /// not have would have no column (and stop the process when the list's SQL is built).
    @Test func subsetsNameOnlyPurchaseColumns() {
        let names = Set(Purchase.Column.named.keys)
        #expect(names.count == Purchase.Column.allCases.count)
        for list in [RerateRow.Column.allCases.map(String.init(describing:)), ReexpressColumn.allCases.map(String.init(describing:))] {
            #expect(Set(list).isSubset(of: names), "not in Purchase.Column: \(Set(list).subtracting(names).sorted())")
        }
        #expect(RerateRow.columns.hasPrefix("p.id, p.currency, p.date, p.price_minor, p.discount_minor"))
        #expect(ReexpressColumn.sqlList == "p.category, p.paid_with")
        // `PurchaseStream`'s fields are read from the `Purchase.Column` of the same name.
        let fields = Set(PurchaseField.allCases.map(String.init(describing:)))
        #expect(fields.isSubset(of: names), "not in Purchase.Column: \(fields.subtracting(names).sorted())")
    }

    /// Likewise for a list that borrows `PurchaseRow.Column`'s texts (what an insert writes).
    @Test func subsetsNameOnlyWrittenColumns() {
        let names = Set(PurchaseRow.Column.named.keys)
        #expect(names.count == PurchaseRow.Column.allCases.count)
        let list = Set(RerateUpdateColumn.allCases.map(String.init(describing:)))
        #expect(list.isSubset(of: names), "not in PurchaseRow.Column: \(list.subtracting(names).sorted())")
        guard list.isSubset(of: names) else { return }  // `row` would have no column to give
        #expect(RerateUpdateColumn.row.map(\.sql.description) == RerateUpdateColumn.allCases.map(\.sql.description))
    }

    /// The lists that read a stored conversion name the same columns for it.
    @Test func conversionColumnsAgree() {
        func sql<C: ConversionColumns>(_: C.Type) -> [String] {
            [
                C.homeCurrency, C.home, C.homeDiscount, C.homeService, C.homeTax, C.homeTip, C.rate, C.rateDate,
                C.rateSource, C.rateProvider, C.rateFetchedAt, C.provisional,
            ].map { $0.sql.description }
        }
        #expect(sql(Purchase.Column.self) == sql(RerateRow.Column.self))
        #expect(sql(Purchase.Column.self).first == "p.home_currency")
        // Re-rating rewrites all of it but the home currency, which a new rate does not change.
        let rewritten = RerateUpdateColumn.allCases.map { $0.sql.description }
        let stored = sql(Purchase.Column.self).dropFirst().map { String($0.dropFirst(2)) }
        #expect(rewritten == stored + ["updated_at"])
    }

    /// A read names its column whatever the order: a purchase read back through the declared list
    /// has every field it was stored with (a read at a shifted index would mix them up).
    @Test func aStoredPurchaseReadsBackFieldByField() throws {
        let t = try TestLedger()
        try t.ledger.createTrip(NewTrip(name: "kyoto", localCurrency: "JPY", homeCurrency: "EUR"))
        let added = try t.ledger.addPurchase(
            PurchaseDraft(
                amount: "1200", currency: "JPY", note: "ramen", category: "food", paidWith: "card", discount: "10%",
                service: "5%", tax: "8%", taxIncluded: false, tip: "100", rate: "0.0062", charged: "7.90"))
        let p = try t.ledger.purchase(id: added.id)
        #expect(p == added)
        #expect(p.tripName == "kyoto")
        #expect(p.note == "ramen" && p.category == "food" && p.paidWith == "card")
        #expect(p.expression == "1200" && p.currency.code == "JPY")
        #expect(p.breakdown.price == 1200 && p.breakdown.discount == 120 && p.breakdown.tip == 100)
        #expect(p.inputs.discount?.description == "10%" && p.inputs.service?.description == "5%")
        #expect(p.inputs.tax?.description == "8%" && p.inputs.tip?.description == "100")
        #expect(p.purchaseRate == "0.0062" && p.chargedMinor == 790)
        #expect(p.conversion.homeCurrency.code == "EUR" && p.conversion.home == 790)
        #expect(p.kind == .purchase && p.refundOf == nil)
    }

    /// `insertGenerated` (how `TripBench` fills its ledgers) writes through `PurchaseRow` too: the
    /// row reads back as the purchase it describes.
    @Test func aGeneratedPurchaseReadsBack() throws {
        let t = try TestLedger()
        let trip = try t.ledger.createTrip(NewTrip(name: "kyoto", localCurrency: "JPY", homeCurrency: "USD"))
        let jpy = try CurrencyTable.shared.currency(for: "JPY"), usd = try CurrencyTable.shared.currency(for: "USD")
        let inputs = AdjustmentInputs(tax: .percent(try Rational(1, 10), text: "10%"), taxIncluded: false)
        let b = try Breakdown.compute(price: 1200, currency: jpy, inputs: inputs)
        let quote = RateQuote(rate: "0.0067", date: nil, source: .fallback, provisional: true)
        let c = try Conversion.make(breakdown: b, from: jpy, to: usd, quote: quote, rounding: .halfUp)
        try t.ledger.inOneTransaction {
            try t.ledger.insertGenerated(
                GeneratedPurchase(
                    tripID: trip.id, date: CivilDate(iso: "2026-03-01")!, note: "ramen", category: "food", paidWith: "cash",
                    currency: jpy, expression: "1200", inputs: inputs, breakdown: b, conversion: c))
        }
        let p = try #require(try t.ledger.purchases(PurchaseFilter(trip: "kyoto")).purchases.first)
        #expect(p.breakdown.total == 1320 && p.breakdown.tax == 120)
        #expect(p.inputs.tax?.description == "10%" && p.note == "ramen" && p.category == "food" && p.paidWith == "cash")
        // 1,320 JPY at 0.0067: 8.844 USD, 8.84 half-up.
        #expect(p.conversion.home == 884 && p.conversion.source == .fallback && p.conversion.provisional)
    }
}
