import Foundation
import Rendering
import TestSupport
import Testing
import TripCore
import TripModel

@testable import Storage
@testable import TripLedger

/// The one declaration of a purchase's columns (`PurchaseColumns`) against the table the migrations
/// make, and the lists derived from it: a migration that adds a column fails here until the column
/// is declared; a declared column reaches the insert, the reads and the sync payload.
@Suite("Purchase columns: every column of purchases declared once, and derived everywhere")
struct PurchaseColumnTests {
    /// Columns of `purchases` a `Purchase` does not read, and why.
    static let notRead: Set<String> = [
        "created_at", "updated_at",  // bookkeeping, shown nowhere
        "import_key",  // read by the importer and edit only, by their own queries
        "charged_source",  // read by a statement's reconcile and kept by edit, by their own queries (m0023)
    ]

    static func tableColumns(_ ledger: Ledger) throws -> [String] {
        var names: [String] = []
        try ledger.database.db.prepare("SELECT name FROM pragma_table_info('purchases') ORDER BY cid").forEach { names.append($0.text(0)) }
        return names
    }

    static func tableColumns() throws -> [String] { try tableColumns(try TestLedger().ledger) }

    /// What is wrong between the table's columns and the declaration: a column not declared, or
    /// declared twice, or declared but not in the table, or out of the table's order.
    static func mismatches(table: [String]) -> [String] {
        let declared = PurchaseColumns.all.map { $0.name.description }
        var out: [String] = []
        for name in table where !declared.contains(name) { out.append("\(name) is not declared in PurchaseColumns.all") }
        for name in Set(declared) where declared.filter({ $0 == name }).count > 1 { out.append("\(name) is declared twice") }
        for name in declared where !table.contains(name) { out.append("\(name) is declared but purchases has no such column") }
        if out.isEmpty && declared != table { out.append("PurchaseColumns.all is not in the table's order: \(table)") }
        return out
    }

    /// A `ColumnList` case as it stands in its statement (`p.note`).
    static func qualified(_ c: some ColumnList) -> String { "\(c.qualifier)\(c.sql)" }

    /// A trip is read and inserted through one list, `Trip.Column`: it must name every column.
    @Test func everyTripColumnIsReadAndInserted() throws {
        let t = try TestLedger()
        var table: [String] = []
        try t.ledger.database.db.prepare("SELECT name FROM pragma_table_info('trips') ORDER BY cid").forEach { table.append($0.text(0)) }
        #expect(table.count >= 10)
        #expect(Set(table) == Set(Trip.Column.allCases.map { $0.sql.description }))
    }

    @Test func everyColumnIsDeclaredOnceInTheTablesOrder() throws {
        let table = try Self.tableColumns()
        #expect(table.count > 30, "read \(table.count) columns of purchases")
        #expect(Self.mismatches(table: table).isEmpty, "\(Self.mismatches(table: table))")
        let fields = PurchaseColumns.all.map(\.field)
        #expect(Set(fields).count == fields.count, "a field name is declared twice: \(fields)")
    }

    /// The check above, on a column a scratch migration adds and nobody declares: it is named.
    @Test func aColumnAddedAndNotDeclaredIsNamed() throws {
        let t = try TestLedger()
        // A name no declared field will take (`receipt` is the README's worked example).
        try t.ledger.database.db.execute("ALTER TABLE purchases ADD COLUMN scratch_undeclared TEXT")
        let found = Self.mismatches(table: try Self.tableColumns(t.ledger))
        #expect(found == ["scratch_undeclared is not declared in PurchaseColumns.all"])
        #expect(
            Self.mismatches(table: try Self.tableColumns(t.ledger).filter { $0 != "note" }).contains {
                $0.hasPrefix("note is declared but")
            })
    }

    /// Every declared column reaches the insert (or says why not), the reads and the sync payload.
    @Test func everyDeclaredColumnIsDerived() throws {
        let table = try Self.tableColumns()
        let notInserted = PurchaseColumns.all.filter { !$0.isInserted }.map { $0.name.description }
        #expect(Set(notInserted) == ["id", "import_key", "charged_source"])
        #expect(PurchaseRow.insertColumns == table.filter { !notInserted.contains($0) }.joined(separator: ", "))
        #expect(PurchaseRow.columnCount == table.count - notInserted.count)
        #expect(PurchaseRow.placeholders.split(separator: ",").count == PurchaseRow.columnCount)
        // `Purchase.Column`'s cases, then the text fields' columns (`PurchaseTextColumns`).
        let read =
            Purchase.Column.allCases.filter { $0 != .tripName }.map { String(describing: $0) }
            + PurchaseTextColumns.targets.map(\.field)
        #expect(Set(read).count == read.count, "a column is read twice: \(read)")
        #expect(
            Set(read.map { PurchaseColumns.named[$0]?.name.description ?? "?\($0)" }) == Set(table).subtracting(Self.notRead),
            "Purchase.Column must read every declared column but those in notRead")
        #expect(Purchase.columns.hasPrefix("p.id, p.trip_id, t.name, p.date, p.note"))
        // The sync payload: the table's columns in its order, each travelling or local as declared.
        #expect(WireFormat.purchase.columnNames == table)
        let travelling = PurchaseColumns.all.compactMap { c -> String? in
            if case .field(let f) = c.wire { return f.name }
            return nil
        }
        #expect(WireFormat.purchase.fields.prefix(travelling.count).map(\.name) == travelling)
        #expect(Set(table).subtracting(travelling) == ["id", "trip_id", "import_key", "refund_of"])
    }

    /// A row's values are bound in the insert's order, each by its declared key path.
    @Test func aRowIsBoundByItsDeclaration() throws {
        let jpy = try CurrencyTable.shared.currency(for: "JPY"), usd = try CurrencyTable.shared.currency(for: "USD")
        let inputs = AdjustmentInputs(tax: .percent(try Rational(1, 10), text: "10%"), taxIncluded: true)
        let b = try Breakdown.compute(price: 1200, currency: jpy, inputs: inputs)
        let quote = RateQuote(rate: "0.0067", date: CivilDate(iso: "2026-02-28"), source: .provider, provider: "ecb", provisional: false)
        let c = try Conversion.make(breakdown: b, from: jpy, to: usd, quote: quote, rounding: .halfUp)
        var row = PurchaseRow(
            PurchaseValues(
                tripID: 7, date: CivilDate(iso: "2026-03-01")!, note: "ramen", category: nil, paidWith: "cash", currency: jpy,
                expression: "1200", inputs: inputs, breakdown: b, preset: "japan", charged: 800, conversion: c))
        row.kind = .refund
        row.refundOf = 3
        let values = Dictionary(
            uniqueKeysWithValues: zip(PurchaseInsert.targets.map { $0.name.description }, row.values(now: "NOW", createdAt: "THEN")))
        #expect(values["trip_id"] == .integer(7) && values["date"] == .text("2026-03-01") && values["note"] == .text("ramen"))
        #expect(values["category"] == .null && values["paid_with"] == .text("cash") && values["currency"] == .text("JPY"))
        #expect(values["tax_spec"] == .text("10%") && values["tax_included"] == .integer(1) && values["discount_spec"] == .null)
        #expect(values["total_minor"] == .integer(b.total) && values["preset"] == .text("japan") && values["charged_minor"] == .integer(800))
        #expect(values["home_currency"] == .text("USD") && values["rate"] == .text("0.0067") && values["rate_date"] == .text("2026-02-28"))
        #expect(values["rate_source"] == .text("provider") && values["rate_provider"] == .text("ecb") && values["provisional"] == .integer(0))
        #expect(values["created_at"] == .text("THEN") && values["updated_at"] == .text("NOW"))
        #expect(values["kind"] == .text("refund") && values["refund_of"] == .integer(3) && values["explicit_fields"] == .null)
    }

    /// A list that borrows the declared names must use only declared field names: a case no column
    /// has would stop the process when the list's SQL is built.
    @Test func subsetsNameOnlyPurchaseColumns() {
        let names = Set(PurchaseColumns.named.keys)
        #expect(names.count == PurchaseColumns.all.count)
        for list in [
            Purchase.Column.allCases.filter { $0 != .tripName }.map(String.init(describing:)),
            RerateRow.Column.allCases.map(String.init(describing:)), ReexpressColumn.allCases.map(String.init(describing:)),
            ImportedPurchaseColumn.allCases.map(String.init(describing:)),
        ] {
            #expect(Set(list).isSubset(of: names), "not declared in PurchaseColumns: \(Set(list).subtracting(names).sorted())")
        }
        #expect(RerateRow.columns.hasPrefix("p.id, p.currency, p.date, p.price_minor, p.discount_minor"))
        #expect(ReexpressColumn.sqlList == "p.category, p.paid_with")
        // `PurchaseStream`'s fields are read from the `Purchase.Column` of the same name.
        let read = Set(Purchase.Column.named.keys)
        let fields = Set(PurchaseField.allCases.map(String.init(describing:)))
        #expect(fields.isSubset(of: read), "not in Purchase.Column: \(fields.subtracting(read).sorted())")
    }

    /// The lists that read a stored conversion name the same columns for it, and re-rating
    /// rewrites all of it but the home currency.
    @Test func conversionColumnsAgree() {
        func sql<C: ConversionColumns>(_: C.Type) -> [String] {
            [
                C.homeCurrency, C.home, C.homeDiscount, C.homeService, C.homeTax, C.homeTip, C.rate, C.rateDate,
                C.rateSource, C.rateProvider, C.rateFetchedAt, C.provisional,
            ].map { Self.qualified($0) }
        }
        #expect(sql(Purchase.Column.self) == sql(RerateRow.Column.self))
        #expect(sql(Purchase.Column.self).first == "p.home_currency")
        // Re-rating rewrites all of it but the home currency, which a new rate does not change.
        let rewritten = PurchaseRerate.targets.map { $0.name.description }
        let stored = sql(Purchase.Column.self).dropFirst().map { String($0.dropFirst(2)) }
        #expect(rewritten == stored + ["updated_at"])
        #expect(PurchaseRerate.assignments.hasPrefix("home_minor = ?, home_discount_minor = ?"))
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
                PurchaseValues(
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
