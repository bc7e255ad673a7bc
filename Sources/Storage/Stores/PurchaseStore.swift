import Rendering
import TripCore
import TripModel

/// The `purchases` table's SQL: every statement over `purchases`, the column list each one reads or
/// writes, and the mapping between those columns and `Purchase` / `PurchaseRow`. No other code
/// names a column of `purchases`. The columns themselves are declared once, in `PurchaseColumns`,
/// and the lists here take their names from it (`PurchaseColumnTests` checks them against the
/// migrated table; the README's "Adding a purchase field" says what else a new column needs).
package struct PurchaseStore {
    let db: Database
}

// MARK: - One purchase, read and written whole

extension Purchase {
    /// The columns `init(row:)` reads: `Column`'s list, then the `PurchaseTextFields` columns.
    package static let columns = Column.sqlList + PurchaseTextColumns.continuedList
    /// The number of `columns`: the position of what a statement selects after them.
    package static let columnCount = Column.count + Int32(PurchaseTextFields.all.count)
    package static let from = "FROM purchases p JOIN trips t ON t.id = p.trip_id"

    /// The result columns of `columns`, in order, each named by its `PurchaseColumns` field.
    /// `PurchaseColumnTests` checks that every declared column is here or named as one a purchase
    /// does not read.
    package enum Column: Int32, ColumnList, BreakdownColumns, ConversionColumns {
        case id, tripID, tripName, date, note, category, paidWith, currency, expression, price, discountSpec, discount
        case serviceSpec, service, taxSpec, taxIncluded, tax, tipSpec, tip, total, rounding, preset, purchaseRate, charged
        case homeCurrency, home, homeDiscount, homeService, homeTax, homeTip, rate, rateDate, rateSource, rateProvider
        case rateFetchedAt, provisional, explicitFields, kind, refundOf

        /// `purchases p`'s, but the trip's name (`t.name`).
        package var qualifier: StaticString { self == .tripName ? "t." : "p." }
        /// The column's name as `PurchaseColumns` declares it.
        package var sql: StaticString { self == .tripName ? "name" : PurchaseColumns.column(self).name }
    }

    init(row: ResultRow<Column>) {
        func spec(_ c: Column) -> AdjustmentSpec? {
            row.optionalText(c).flatMap { try? AdjustmentSpec.parse($0, field: "stored") }
        }
        let rounding = RoundingMode(rawValue: row.text(.rounding)) ?? .halfUp
        let breakdown = Breakdown(stored: row)
        let values = PurchaseValues(
            tripID: row.int(.tripID), date: CivilDate(iso: row.text(.date)) ?? CivilDate(year: 1970, month: 1, day: 1)!,
            note: row.text(.note), category: row.optionalText(.category), paidWith: row.optionalText(.paidWith),
            currency: .stored(row.text(.currency)), expression: row.text(.expression),
            inputs: AdjustmentInputs(
                discount: spec(.discountSpec), service: spec(.serviceSpec), tax: spec(.taxSpec), taxIncluded: breakdown.taxIncluded,
                tip: spec(.tipSpec), rounding: rounding),
            breakdown: breakdown, preset: row.optionalText(.preset), purchaseRate: row.optionalText(.purchaseRate),
            charged: row.optionalInt(.charged), conversion: Conversion(stored: row),
            explicit: row.optionalText(.explicitFields).map(ExplicitFields.init(stored:)),
            texts: PurchaseTextFields.all.isEmpty
                ? PurchaseTexts() : PurchaseTexts(values: PurchaseTextFields.all.indices.map { row.optionalText(after: $0) }))
        self.init(
            id: row.int(.id), tripName: row.text(.tripName), values: values,
            kind: PurchaseKind(rawValue: row.text(.kind)) ?? .purchase, refundOf: row.optionalInt(.refundOf))
    }
}

/// One purchase row, computed and validated, ready to insert: what `PurchaseBuilder` built and
/// which way the row moves money. `PurchaseColumns` says which column takes which value. The
/// values' fields read as the row's own (`row.charged`).
@dynamicMemberLookup
package struct PurchaseRow {
    package var values: PurchaseValues
    package var kind: PurchaseKind = .purchase
    package var refundOf: Int64? = nil

    /// The row of what `PurchaseBuilder` built, of kind purchase (the caller sets a refund's or credit's).
    package init(_ built: PurchaseValues) { values = built }

    package subscript<T>(dynamicMember path: WritableKeyPath<PurchaseValues, T>) -> T {
        get { values[keyPath: path] }
        set { values[keyPath: path] = newValue }
    }

    package subscript<T>(dynamicMember path: KeyPath<PurchaseValues, T>) -> T { values[keyPath: path] }

    /// The columns `values` fills (the id is bound before them).
    package static let insertColumns = PurchaseInsert.sqlList
    static let placeholders = PurchaseInsert.placeholders
    /// The number of `insertColumns`.
    package static let columnCount = PurchaseInsert.targets.count

    /// The values of `insertColumns`, in their order.
    package func values(now: String, createdAt: String) -> [SQLValue] {
        PurchaseInsert.targets.map { $0.value(self, now: now, createdAt: createdAt) }
    }
}

/// The rows `PurchaseStream` writes: `Purchase.columns`, then the purchase's split (NULL when it
/// has none).
enum StreamedPurchase {
    static let columns = """
        \(Purchase.columns), \(SplitColumn.sqlList)
        """
    static let from = """
        FROM purchases p JOIN trips t ON t.id = p.trip_id \
        LEFT JOIN purchase_splits s ON s.trip_id = p.trip_id AND s.purchase_id = p.id
        """
    /// The same columns for a trip without members (no split to read): no lookup per row. One NULL
    /// per `SplitColumn`.
    static let unsplitColumns = """
        \(Purchase.columns), NULL, NULL
        """
}

/// A row of `StreamedPurchase` as `PurchaseStream` reads it: each field from the
/// `Purchase.Column` of the same name, the split from `SplitColumn` by `SplitWeights`.
package struct StreamedPurchaseRow: PurchaseFields {
    /// Each `PurchaseField`'s column, by name.
    static let fieldColumns: [Int32] = PurchaseField.allCases.map { Purchase.Column.named[String(describing: $0)]!.rawValue }

    let statement: Statement
    package let splits: SplitPositions
    /// `fieldColumns`, read once a query: the static's lazy initialiser ran its once-check at every
    /// field read (42 a row).
    let columns: [Int32]

    package func int(_ field: PurchaseField) -> Int64 { statement.int(columns[field.rawValue]) }
    package func isNull(_ field: PurchaseField) -> Bool { statement.isNull(columns[field.rawValue]) }
    package func bytes(_ field: PurchaseField) -> UnsafeBufferPointer<UInt8> { statement.bytes(columns[field.rawValue]) }

    package func withText<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T {
        let column = Purchase.Column.count + Int32(index)
        return statement.isNull(column) ? try body(nil) : try statement.withBytes(column) { try body($0) }
    }

    package func readSplit(payers: inout [(index: Int, weight: Rational)], sharers: inout [(index: Int, weight: Rational)]) throws -> Bool {
        let split = ResultRow<SplitColumn>(statement, base: Purchase.columnCount)
        guard !split.isNull(.payers) else { return false }
        let index = try splits.positions(trip: int(.tripID))
        let id = int(.id)
        try split.withBytes(.payers) { try SplitWeights.decode($0, index: index, into: &payers, purchase: id, field: "payers") }
        try split.withBytes(.shares) { try SplitWeights.decode($0, index: index, into: &sharers, purchase: id, field: "split") }
        return true
    }
}

/// Each trip's members (join order) and their positions, read once per trip of a stream: the
/// ledger's rows decode splits with the positions, `PurchaseStream` names the members.
package final class SplitPositions {
    private let read: (Int64) throws -> [Member]
    private var byTrip: [Int64: (members: [Member], positions: SplitWeights.Positions)] = [:]

    package init(members: @escaping (Int64) throws -> [Member]) { self.read = members }

    package func members(trip: Int64) throws -> [Member] { try lookup(trip).members }

    package func positions(trip: Int64) throws -> SplitWeights.Positions { try lookup(trip).positions }

    private func lookup(_ trip: Int64) throws -> (members: [Member], positions: SplitWeights.Positions) {
        if let known = byTrip[trip] { return known }
        let members = try read(trip)
        let found = (members, SplitWeights.Positions(members))
        byTrip[trip] = found
        return found
    }
}

// MARK: - Stored breakdowns and conversions, whatever else a statement reads

/// A statement's columns that include a purchase's stored conversion (`purchases.home_currency` …
/// `purchases.provisional`), so that `Conversion(stored:)` reads them by name whatever else the
/// statement selects. Each conforming list declares these cases (an enum case is the static member).
protocol ConversionColumns: ColumnList {
    static var homeCurrency: Self { get }
    static var home: Self { get }
    static var homeDiscount: Self { get }
    static var homeService: Self { get }
    static var homeTax: Self { get }
    static var homeTip: Self { get }
    static var rate: Self { get }
    static var rateDate: Self { get }
    static var rateSource: Self { get }
    static var rateProvider: Self { get }
    static var rateFetchedAt: Self { get }
    static var provisional: Self { get }
}

extension Conversion {
    /// The conversion stored in the row's purchase columns.
    init<C: ConversionColumns>(stored row: ResultRow<C>) {
        let source = RateSource(rawValue: row.text(.rateSource)) ?? .none
        let quote =
            source == .none
            ? nil
            : RateQuote(
                rate: row.optionalText(.rate) ?? "", date: row.optionalText(.rateDate).flatMap { CivilDate(iso: $0) },
                source: source, provider: row.optionalText(.rateProvider), fetchedAt: row.optionalText(.rateFetchedAt),
                provisional: row.int(.provisional) == 1)
        self.init(
            homeCurrency: .stored(row.text(.homeCurrency)), home: row.optionalInt(.home),
            homeDiscount: row.optionalInt(.homeDiscount), homeService: row.optionalInt(.homeService),
            homeTax: row.optionalInt(.homeTax), homeTip: row.optionalInt(.homeTip), quote: quote)
    }
}

/// The columns of a statement that reads a purchase's stored breakdown.
protocol BreakdownColumns: ColumnList {
    static var price: Self { get }
    static var discount: Self { get }
    static var service: Self { get }
    static var tax: Self { get }
    static var taxIncluded: Self { get }
    static var tip: Self { get }
    static var total: Self { get }
}

extension Breakdown {
    /// The breakdown stored in the row's purchase columns (the subtotal is not stored).
    init<C: BreakdownColumns>(stored row: ResultRow<C>) {
        let price = row.int(.price), discount = row.int(.discount)
        self.init(
            price: price, discount: discount, subtotal: price - discount, service: row.int(.service), tax: row.int(.tax),
            taxIncluded: row.int(.taxIncluded) == 1, tip: row.int(.tip), total: row.int(.total))
    }
}

/// A statement's columns that are some of `Purchase.Column`'s, under the same case names: each
/// case's text is `Purchase.Column`'s, so a purchase column's name is written once for reading.
/// `PurchaseColumnTests` checks that every case names a `Purchase.Column`.
protocol PurchaseColumnSubset: ColumnList {}

extension PurchaseColumnSubset {
    package var qualifier: StaticString { "p." }
    package var sql: StaticString { PurchaseColumns.column(self).name }
}

extension Purchase.Column {
    /// Every case by its name.
    package static let named = Dictionary(uniqueKeysWithValues: allCases.map { (String(describing: $0), $0) })
}

// MARK: - Rows by id

extension PurchaseStore {
    /// Purchase `id` with its trip's name, or nil.
    package func purchase(id: Int64) throws -> Purchase? {
        try db.prepare("SELECT \(Purchase.columns) \(Purchase.from) WHERE p.id = ?").first([.integer(id)]) { Purchase(row: $0.row()) }
    }

    /// Inserts `row` under `id` (never one a removed purchase had: `Ledger.nextID`), or under the
    /// next rowid when `id` is nil (a generated ledger).
    package func insert(_ row: PurchaseRow, id: Int64?, now: String, createdAt: String) throws {
        if let id {
            try db.run(
                "INSERT INTO purchases (id, \(PurchaseRow.insertColumns)) VALUES (?, \(PurchaseRow.placeholders))",
                [.integer(id)] + row.values(now: now, createdAt: createdAt))
        } else {
            try db.run(
                "INSERT INTO purchases (\(PurchaseRow.insertColumns)) VALUES (\(PurchaseRow.placeholders))",
                row.values(now: now, createdAt: createdAt))
        }
    }

    /// Writes `row` over purchase `id`, keeping when it was created and its import key (so that
    /// re-importing its file does not add it again). Must run inside the caller's transaction.
    package func replace(id: Int64, with row: PurchaseRow, now: String) throws {
        let created = try db.scalarText("SELECT created_at FROM purchases WHERE id = ?", [.integer(id)]) ?? now
        let importKey = try db.scalarInt("SELECT import_key FROM purchases WHERE id = ?", [.integer(id)])
        // Where the charged amount came from (m0023) holds while the edit keeps the amount.
        let chargedSource = try db.scalarText(
            "SELECT charged_source FROM purchases WHERE id = ? AND charged_minor IS ?", [.integer(id), SQLValue(row.charged)])
        // The row is deleted and inserted again under its id: its refunds' `refund_of` points at it
        // in between, so foreign keys are checked at commit (the pragma ends with the transaction).
        try db.execute("PRAGMA defer_foreign_keys = ON")
        try db.run(Self.deleteByID, [.integer(id)])
        try insert(row, id: id, now: now, createdAt: created)
        if let importKey {
            try db.run("UPDATE purchases SET import_key = ? WHERE id = ?", [.integer(importKey), .integer(id)])
        }
        if let chargedSource {
            try db.run("UPDATE purchases SET charged_source = ? WHERE id = ?", [.text(chargedSource), .integer(id)])
        }
    }

    /// Marks purchase `id` as imported with `key` (a Splitwise row added through `addPurchase`),
    /// so that importing its file again recognises it.
    package func setImportKey(_ key: UInt64, id: Int64) throws {
        try db.run("UPDATE purchases SET import_key = ? WHERE id = ?", [.integer(Int64(bitPattern: key)), .integer(id)])
    }

    /// The largest id present (0 for none).
    package func maxID() throws -> Int64 { try db.scalarInt("SELECT max(id) FROM purchases") ?? 0 }

    /// A purchase by id, looked up and deleted (also by a shared trip's sync, whatever the table).
    static let existsByID = "SELECT 1 FROM purchases WHERE id = ?"
    static let deleteByID = "DELETE FROM purchases WHERE id = ?"

    /// How many purchases trip `tripID` has.
    package func count(trip tripID: Int64) throws -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM purchases WHERE trip_id = ?", [.integer(tripID)]) ?? 0)
    }

    /// The currencies of trip `tripID`'s purchases and of every trip, each with whether trip
    /// `tripID` uses it: what a currency's name is read among (`CurrencyWord.InUse`). One
    /// statement, asked only for a name that needs it; the trip's purchases are read through the
    /// `purchases_report` index, which holds their currency.
    package func currenciesInUse(trip tripID: Int64?) throws -> [(code: String, inTrip: Bool)] {
        var out: [(code: String, inTrip: Bool)] = []
        try db.prepare(
            """
            SELECT currency, 1 FROM purchases WHERE trip_id = ?1
            UNION SELECT local_currency, id = ?1 FROM trips WHERE local_currency IS NOT NULL
            UNION SELECT home_currency, id = ?1 FROM trips
            """
        ).forEach([SQLValue(tripID)]) { out.append(($0.text(0), $0.int(1) != 0)) }
        return out
    }

    /// Every column of `purchases`, as the schema has it now (later migrations add columns).
    package func columnNames() throws -> [String] {
        var names: [String] = []
        try db.prepare("SELECT name FROM pragma_table_info('purchases') ORDER BY cid").forEach { names.append($0.text(0)) }
        return names
    }
}

// MARK: - Refunds

extension PurchaseStore {
    /// What the refunds of purchase `id` add up to, in its currency's minor units.
    package func refundedTotal(of id: Int64) throws -> Int64 {
        try db.scalarInt("SELECT coalesce(sum(total_minor), 0) FROM purchases WHERE refund_of = ?", [.integer(id)]) ?? 0
    }

    /// The ids of the refunds of purchase `id`, oldest first.
    package func refundIDs(of id: Int64) throws -> [Int64] {
        var ids: [Int64] = []
        try db.prepare("SELECT id FROM purchases WHERE refund_of = ? ORDER BY id").forEach([.integer(id)]) { ids.append($0.int(0)) }
        return ids
    }

    /// The row imported under `key`, of any kind: an import's row that was a duplicate.
    package func id(importKey key: UInt64) throws -> Int64? {
        try db.scalarInt("SELECT id FROM purchases WHERE import_key = ? ORDER BY id LIMIT 1", [.integer(Int64(bitPattern: key))])
    }

    /// Makes refund `id` the refund of purchase `purchaseID` (an imported refund, whose file named
    /// its purchase by the file's own id).
    package func setRefundOf(_ id: Int64, to purchaseID: Int64) throws {
        try db.run("UPDATE purchases SET refund_of = ?1 WHERE id = ?2 AND kind = 'refund'", [.integer(purchaseID), .integer(id)])
    }

    /// The row imported under `key` into trip `tripID` when it is still a credit (money in linked
    /// to no purchase): its id.
    package func creditID(importKey key: UInt64, trip tripID: Int64) throws -> Int64? {
        try db.scalarInt(
            "SELECT id FROM purchases WHERE import_key = ? AND trip_id = ? AND kind = 'credit'",
            [.integer(Int64(bitPattern: key)), .integer(tripID)])
    }

    /// The purchases of trip `tripID` in `currency`, dated on or before `date`, whose note is
    /// `note` ignoring ASCII case: what a statement's money-back row can be the refund of.
    package func refundCandidates(trip tripID: Int64, currency: Currency, note: String, onOrBefore date: String) throws -> [Int64] {
        var ids: [Int64] = []
        try db.prepare(
            """
            SELECT id FROM purchases
            WHERE trip_id = ? AND kind = 'purchase' AND currency = ? AND date <= ? AND lower(note) = lower(?)
            ORDER BY id
            """
        ).forEach([.integer(tripID), .text(currency.code), .text(date), .text(note)]) { ids.append($0.int(0)) }
        return ids
    }

    /// Makes credit `id` a refund of purchase `purchaseID`, in its category and payment method, as
    /// `trip refund` gives them, so that every breakdown nets the two.
    package func linkRefund(_ id: Int64, to purchaseID: Int64) throws {
        try db.run(
            """
            UPDATE purchases SET kind = 'refund', refund_of = ?1,
              category = (SELECT category FROM purchases WHERE id = ?1),
              paid_with = (SELECT paid_with FROM purchases WHERE id = ?1)
            WHERE id = ?2 AND kind = 'credit'
            """, [.integer(purchaseID), .integer(id)])
    }

    /// The purchases above id `after` (those an import just added) dated outside their trip's
    /// start…end, counted per trip.
    package func outsideTripDates(after id: Int64) throws -> [(trip: String, start: String?, end: String?, count: Int)] {
        var out: [(trip: String, start: String?, end: String?, count: Int)] = []
        try db.prepare(
            """
            SELECT t.name, t.start_date, t.end_date, count(*) FROM purchases p JOIN trips t ON t.id = p.trip_id
            WHERE p.id > ? AND (p.date < t.start_date OR p.date > t.end_date)
            GROUP BY t.id ORDER BY t.name
            """
        ).forEach([.integer(id)]) { out.append(($0.text(0), $0.optionalText(1), $0.optionalText(2), Int($0.int(3)))) }
        return out
    }

    /// How many refunds of purchase `id` are not in `currency` on trip `tripID`.
    package func refundsElsewhere(of id: Int64, currency: Currency, trip tripID: Int64) throws -> Int64 {
        try db.scalarInt(
            "SELECT count(*) FROM purchases WHERE refund_of = ? AND (currency <> ? OR trip_id <> ?)",
            [.integer(id), .text(currency.code), .integer(tripID)]) ?? 0
    }
}

// MARK: - The trash (`removed_purchases`)

extension PurchaseStore {
    /// Moves purchase `id` to the trash, whole: every column as a JSON object under its name.
    package func moveToTrash(id: Int64, removedAt: String) throws {
        let pairs = try columnNames().map { "'\($0)', \"\($0)\"" }.joined(separator: ", ")
        try db.run(
            // sql-built: the column names come from the schema (pragma_table_info), not from input.
            """
            INSERT INTO removed_purchases (id, trip_id, removed_at, row)
            SELECT id, trip_id, ?, json_object(\(pairs)) FROM purchases WHERE id = ?
            """, [.text(removedAt), .integer(id)])
        try db.run(Self.deleteByID, [.integer(id)])
    }

    /// The trip of purchase `id`, or nil when there is no such purchase.
    package func trip(of id: Int64) throws -> Int64? {
        try db.scalarInt("SELECT trip_id FROM purchases WHERE id = ?", [.integer(id)])
    }

    /// The trip of removed purchase `id`, or nil when the trash does not hold it.
    package func trashedTrip(of id: Int64) throws -> Int64? {
        try db.scalarInt("SELECT trip_id FROM removed_purchases WHERE id = ?", [.integer(id)])
    }

    /// The purchase that trashed refund `id` refunds, when that purchase is not here (in the trash
    /// itself): the refund cannot come back before it.
    package func trashedRefundTargetGone(of id: Int64) throws -> Int64? {
        try db.scalarInt(
            """
            SELECT json_extract(row, '$.refund_of') FROM removed_purchases
            WHERE id = ?1 AND json_extract(row, '$.refund_of') IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.id = json_extract(row, '$.refund_of'))
            """, [.integer(id)])
    }

    /// Puts `row` (a purchase's columns as a JSON object) in the trash as purchase `id` of trip
    /// `tripID`, replacing what the trash held under that id.
    package func putInTrash(id: Int64, trip tripID: Int64, removedAt: String, row: String) throws {
        try db.run(
            "INSERT OR REPLACE INTO removed_purchases (id, trip_id, removed_at, row) VALUES (?, ?, ?, ?)",
            [.integer(id), .integer(tripID), .text(removedAt), .text(row)])
    }

    /// Writes the columns of `columns` (a travelling purchase's JSON object; its references by
    /// global id are left out) over removed purchase `id`, so a restore brings back that version.
    /// Only its declared columns (`WireFormat`); the fields this release does not declare are kept
    /// beside the row (`RowCodec.keepUnknownFields`), as for a purchase that is not removed.
    package func patchTrashed(id: Int64, columns: String) throws {
        let codec = RowCodec(db: db)
        if let fields = FlatJSON.fields(columns) {
            let written = Set(RowCodec.writtenColumns(.purchases))
            try db.run(
                "UPDATE removed_purchases SET row = json_patch(row, ?) WHERE id = ?",
                [.text(WireFormat.object(fields.filter { written.contains($0.0) })), .integer(id)])
            try codec.keepUnknownFields(.purchases, id: id, try codec.unknownFields(.purchases, fields))
            return
        }
        try db.run(
            """
            UPDATE removed_purchases SET row = json_patch(row, json_remove(?, '$.refund_of', '$.payers', '$.shares')) WHERE id = ?
            """, [.text(columns), .integer(id)])
    }

    /// Removed purchase `id` of trip `tripID` as the trash holds it (its columns as a JSON object,
    /// local ones included), or nil.
    package func trashedRow(id: Int64, trip tripID: Int64) throws -> String? {
        try db.scalarText("SELECT row FROM removed_purchases WHERE id = ? AND trip_id = ?", [.integer(id), .integer(tripID)])
    }

    /// Forgets removed purchase `id` (it is written again from elsewhere).
    package func removeFromTrash(id: Int64) throws { try db.run("DELETE FROM removed_purchases WHERE id = ?", [.integer(id)]) }

    /// Brings removed purchase `id` back under its id with every stored value; a column added
    /// after it was removed is left to its default.
    package func restoreFromTrash(id: Int64) throws {
        let columns = try columnNames()
        let names = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        let values = columns.map { "json_extract(row, '$.\($0)')" }.joined(separator: ", ")
        try db.run(
            // sql-built: the column names come from the schema (pragma_table_info), not from input.
            """
            INSERT INTO purchases (\(names)) SELECT \(values) FROM removed_purchases
            WHERE id = ? AND json_type(row, '$.id') IS NOT NULL
            """, [.integer(id)])
        try removeFromTrash(id: id)
    }
}

// MARK: - Reports

/// The result columns of the report's one grouped scan of `purchases_report`: the group's key
/// (the first six, also its GROUP BY), then its sums. Refunds and credits count negative in every sum.
package enum ReportGroupColumn: Int32, ColumnList {
    case tripID, category, currency, rateSource, provisional, taxIncluded, rows, home, discount, service, tax, tip
    case total, first, last, unconverted, unconvertedTotal, refunds, refundCount

    package var sql: StaticString {
        switch self {
        case .tripID: "trip_id"
        case .category: "category"
        case .currency: "currency"
        case .rateSource: "rate_source"
        case .provisional: "provisional"
        case .taxIncluded: "tax_included"
        case .rows: "count(*)"
        case .home: "coalesce(sum((CASE kind WHEN 'purchase' THEN 1 ELSE -1 END) * home_minor), 0)"
        case .discount: "coalesce(sum((CASE kind WHEN 'purchase' THEN 1 ELSE -1 END) * home_discount_minor), 0)"
        case .service: "coalesce(sum((CASE kind WHEN 'purchase' THEN 1 ELSE -1 END) * home_service_minor), 0)"
        case .tax: "coalesce(sum((CASE kind WHEN 'purchase' THEN 1 ELSE -1 END) * home_tax_minor), 0)"
        case .tip: "coalesce(sum((CASE kind WHEN 'purchase' THEN 1 ELSE -1 END) * home_tip_minor), 0)"
        case .total: "sum((CASE kind WHEN 'purchase' THEN 1 ELSE -1 END) * total_minor)"
        case .first: "min(date)"
        case .last: "max(date)"
        case .unconverted: "sum(home_minor IS NULL)"
        case .unconvertedTotal:
            "coalesce(sum(CASE WHEN home_minor IS NULL THEN (CASE kind WHEN 'purchase' THEN 1 ELSE -1 END) * total_minor END), 0)"
        case .refunds: "coalesce(sum(CASE WHEN kind <> 'purchase' THEN home_minor END), 0)"
        case .refundCount: "sum(kind <> 'purchase')"
        }
    }
}

/// The columns of a report line grouped in SQL: its key, how many purchases, their signed home
/// total and how many have no home amount.
protocol LineColumns: ColumnList {
    static var key: Self { get }
    static var rows: Self { get }
    static var home: Self { get }
    static var unconverted: Self { get }
}

/// `LineColumns` of the per-day lines.
enum DayLineColumn: Int32, LineColumns {
    case key, rows, home, unconverted

    package var sql: StaticString {
        switch self {
        case .key: "date"
        case .rows: "count(*)"
        case .home: "coalesce(sum((CASE kind WHEN 'purchase' THEN 1 ELSE -1 END) * home_minor), 0)"
        case .unconverted: "sum(home_minor IS NULL)"
        }
    }
}

/// `LineColumns` of the per-payment lines.
enum PaymentLineColumn: Int32, LineColumns {
    case key, rows, home, unconverted

    package var sql: StaticString {
        switch self {
        case .key: "coalesce(paid_with, 'unspecified')"
        case .rows: "count(*)"
        case .home: "coalesce(sum((CASE kind WHEN 'purchase' THEN 1 ELSE -1 END) * home_minor), 0)"
        case .unconverted: "sum(home_minor IS NULL)"
        }
    }
}

extension TripReport.Line {
    init<C: LineColumns>(row: ResultRow<C>) {
        self.init(key: row.text(.key), count: Int(row.int(.rows)), home: row.int(.home), original: nil)
        unconverted = Int(row.int(.unconverted))
    }
}

/// The columns a re-expressed report selects after `RerateRow.columns`.
package enum ReexpressColumn: Int32, PurchaseColumnSubset {
    case category, paidWith

    /// Where these columns start.
    package static let base = RerateRow.Column.count
}

// MARK: - trip list

/// The query behind `trip list`: one filter, read by `purchaseRows` (a row at a time) and by
/// `listLayout` (one aggregate over the same rows, for the text table's column widths).
package struct PurchaseQuery {
    package let trip: Trip
    /// `WHERE …` over `purchases p`, and its bound values.
    let condition: String
    package let values: [SQLValue]
    package let order: String

    package init(_ filter: PurchaseFilter, trip: Trip, clock: Clock) throws {
        self.trip = trip
        var condition = "p.trip_id = ?"
        var values: [SQLValue] = [.integer(trip.id)]
        let (since, until) = try clock.range(since: filter.since, until: filter.until)
        if let since {
            condition += " AND p.date >= ?"
            values.append(.text(since.description))
        }
        if let until {
            condition += " AND p.date <= ?"
            values.append(.text(until.description))
        }
        if let category = filter.category {
            condition += " AND p.category = ?"
            values.append(.text(TextField.label(category)))
        }
        if let limit = filter.limit {
            guard limit >= 0 else { throw TripError.usage("limit: \(limit) is negative; give a number of purchases") }
            // The last `limit` purchases, found from the newest end of the index, then shown in the asked order.
            // sql-built: `condition` is made of the constant clauses above; every value is bound.
            condition = "p.id IN (SELECT p.id FROM purchases p WHERE \(condition) ORDER BY p.date DESC, p.id DESC LIMIT ?)"
            values.append(.integer(Int64(limit)))
        }
        self.condition = condition
        self.values = values
        order = filter.reverse ? "ORDER BY p.date DESC, p.id DESC" : "ORDER BY p.date, p.id"
    }
}

/// The result columns of `listLayout`'s aggregate, per purchase currency. Every column here is in
/// the covering index `purchases_report`.
package enum ListLayoutColumn: Int32, ColumnList {
    case currency, rows, maxID, minTotal, maxTotal, minHome, maxHome, rateWidth, anyProvisional

    package var sql: StaticString {
        switch self {
        case .currency: "p.currency"
        case .rows: "count(*)"
        case .maxID: "max(p.id)"
        // Signed, as the rows show them: a refund's -100,000 is one character wider than 100,000.
        case .minTotal: "min(CASE p.kind WHEN 'purchase' THEN p.total_minor ELSE -p.total_minor END)"
        case .maxTotal: "max(CASE p.kind WHEN 'purchase' THEN p.total_minor ELSE -p.total_minor END)"
        case .minHome: "min(CASE p.kind WHEN 'purchase' THEN p.home_minor ELSE -p.home_minor END)"
        case .maxHome: "max(CASE p.kind WHEN 'purchase' THEN p.home_minor ELSE -p.home_minor END)"
        // The rate flag's width: `none`, or the source and `*` when provisional.
        case .rateWidth: "max(CASE WHEN p.home_minor IS NULL THEN 4 ELSE length(p.rate_source) + p.provisional END)"
        case .anyProvisional: "max(p.provisional AND p.home_minor IS NOT NULL)"
        }
    }
}

// MARK: - Export

/// The result columns of `exportScope`'s query: one row per kind of posting (its first five
/// columns are the GROUP BY), and its first date.
package enum ExportScopeColumn: Int32, ColumnList {
    case currency, homeCurrency, category, paidWith, unconverted, firstDate

    package var sql: StaticString {
        switch self {
        case .currency: "p.currency"
        case .homeCurrency: "p.home_currency"
        case .category: "p.category"
        case .paidWith: "p.paid_with"
        case .unconverted: "p.home_minor IS NULL"
        case .firstDate: "min(p.date)"
        }
    }
}

// MARK: - Rates

/// Per purchase currency of a trip, the first and last date of its purchases that wait for a rate.
package enum NeedColumn: Int32, ColumnList {
    case currency, first, last

    package var sql: StaticString {
        switch self {
        case .currency: "currency"
        case .first: "min(date)"
        case .last: "max(date)"
        }
    }
}

// MARK: - Re-rating

/// The part of a purchase that re-rating (and re-expressing a report) reads.
package struct RerateRow {
    package let id: Int64
    package let currency: Currency
    package let date: CivilDate
    package let breakdown: Breakdown
    package let conversion: Conversion
    package let kind: PurchaseKind

    package static let columns = Column.sqlList

    /// The result columns of `columns`, in order: columns of `Purchase.Column`, under its names.
    enum Column: Int32, PurchaseColumnSubset, BreakdownColumns, ConversionColumns {
        case id, currency, date, price, discount, service, tax, taxIncluded, tip, total
        case homeCurrency, home, homeDiscount, homeService, homeTax, homeTip, rate, rateDate, rateSource, rateProvider
        case rateFetchedAt, provisional, kind
    }

    init(row: ResultRow<Column>) {
        id = row.int(.id)
        currency = .stored(row.text(.currency))
        date = CivilDate(iso: row.text(.date)) ?? CivilDate(year: 1970, month: 1, day: 1)!
        breakdown = Breakdown(stored: row)
        conversion = Conversion(stored: row)
        kind = PurchaseKind(rawValue: row.text(.kind)) ?? .purchase
    }
}

// MARK: - Import

/// A purchase this import added, by the key that recognises its CSV row.
enum ImportedPurchaseColumn: Int32, PurchaseColumnSubset {
    case id, importKey
}

// MARK: - Splits

// MARK: - Statements of reports, lists, exports, rates and splits

extension PurchaseStore {
    /// The report's one grouped scan of the covering index `purchases_report`: of trip `tripID`'s
    /// entries, or (nil: `--all`) of the whole index once, dated `from`…`to` (ISO dates).
    package func forEachReportGroup(
        trip tripID: Int64?, from: String, to: String, _ body: (ResultRow<ReportGroupColumn>) throws -> Void
    ) throws {
        let tripFilter = tripID == nil ? "" : "trip_id = ?3 AND"
        // Refunds and credits count negative in every sum (`kind` is the index's last column).
        try db.prepare(
            // sql-built: `tripFilter` is one of two constants above; a bound `?3 IS NULL OR` would lose the index.
            """
            SELECT \(ReportGroupColumn.sqlList)
            FROM purchases INDEXED BY purchases_report WHERE \(tripFilter) date BETWEEN ?1 AND ?2
            GROUP BY trip_id, category, currency, rate_source, provisional, tax_included
            """
        ).forEach([.text(from), .text(to)] + (tripID.map { [.integer($0)] } ?? [])) { try body(ResultRow($0)) }
    }

    /// The stored amounts of a purchase in the order `firstAmountBeyondBound` selects them, each
    /// by the name an error gives it.
    static let amountFields = [
        "price", "discount", "service", "tax", "tip", "total", "charged", "home amount", "home discount", "home service",
        "home tax", "home tip",
    ]

    /// The first purchase of trip `tripID` (by id) with a stored amount beyond `PurchaseBound`,
    /// its field and value; `nil` when every amount is within it. Every write keeps the bound, so
    /// only a file changed by hand has one: this names it after a report's sums overflowed.
    package func firstAmountBeyondBound(trip tripID: Int64) throws -> (id: Int64, field: String, value: Int64)? {
        var found: (id: Int64, field: String, value: Int64)?
        try db.prepare(
            """
            SELECT id, price_minor, discount_minor, service_minor, tax_minor, tip_minor, total_minor, charged_minor,
              home_minor, home_discount_minor, home_service_minor, home_tax_minor, home_tip_minor
            FROM purchases WHERE trip_id = ?1 AND (price_minor NOT BETWEEN -?2 AND ?2 OR discount_minor NOT BETWEEN -?2 AND ?2
              OR service_minor NOT BETWEEN -?2 AND ?2 OR tax_minor NOT BETWEEN -?2 AND ?2 OR tip_minor NOT BETWEEN -?2 AND ?2
              OR total_minor NOT BETWEEN -?2 AND ?2 OR charged_minor NOT BETWEEN -?2 AND ?2 OR home_minor NOT BETWEEN -?2 AND ?2
              OR home_discount_minor NOT BETWEEN -?2 AND ?2 OR home_service_minor NOT BETWEEN -?2 AND ?2
              OR home_tax_minor NOT BETWEEN -?2 AND ?2 OR home_tip_minor NOT BETWEEN -?2 AND ?2)
            ORDER BY id LIMIT 1
            """
        ).forEach([.integer(tripID), .integer(PurchaseBound.maxMinorUnits)]) { s in
            for (k, field) in Self.amountFields.enumerated() {
                guard let value = s.optionalInt(Int32(k + 1)), !PurchaseBound.contains(value) else { continue }
                found = (s.int(0), field, value)
                return
            }
        }
        return found
    }

    /// Trip `tripID`'s report lines per day, dated `range` (from, to), in date order.
    package func dayLines(trip tripID: Int64, range: [SQLValue]) throws -> [TripReport.Line] {
        var out: [TripReport.Line] = []
        try db.prepare(
            """
            SELECT \(DayLineColumn.sqlList)
            FROM purchases INDEXED BY purchases_by_trip_date WHERE trip_id = ? AND date BETWEEN ? AND ? GROUP BY date ORDER BY date
            """
        ).forEach([.integer(tripID)] + range) { s in out.append(TripReport.Line(row: s.row(DayLineColumn.self))) }
        return out
    }

    /// Trip `tripID`'s report lines per payment method, dated `range` (from, to), in no order.
    package func paymentLines(trip tripID: Int64, range: [SQLValue]) throws -> [TripReport.Line] {
        var out: [TripReport.Line] = []
        try db.prepare(
            """
            SELECT \(PaymentLineColumn.sqlList)
            FROM purchases WHERE trip_id = ? AND date BETWEEN ? AND ? GROUP BY 1
            """
        ).forEach([.integer(tripID)] + range) { s in out.append(TripReport.Line(row: s.row(PaymentLineColumn.self))) }
        return out
    }

    /// Each purchase of trip `tripID` dated `range` (from, to), as re-expressing a report reads it.
    package func forEachReexpressRow(
        trip tripID: Int64, range: [SQLValue], _ body: (RerateRow, ResultRow<ReexpressColumn>) throws -> Void
    ) throws {
        try db.prepare(
            """
            SELECT \(RerateRow.columns), \(ReexpressColumn.sqlList)
            FROM purchases p WHERE p.trip_id = ? AND p.date BETWEEN ? AND ?
            """
        ).forEach([.integer(tripID)] + range) { s in
            try body(RerateRow(row: s.row()), ResultRow<ReexpressColumn>(s, base: ReexpressColumn.base))
        }
    }

    /// `query`'s purchases in its order, whole.
    package func forEachPurchase(_ query: PurchaseQuery, _ body: (Purchase) throws -> Void) throws {
        try listed(query, columns: Purchase.columns, from: Purchase.from).forEach(query.values) { try body(Purchase(row: $0.row())) }
    }

    /// `query`'s rows in its order as `PurchaseStream` reads them (`StreamedPurchase`); their splits
    /// are read only `withSplits` (a trip without members has none: no lookup per row).
    package func forEachStreamed(
        _ query: PurchaseQuery, withSplits: Bool, splits: SplitPositions, _ body: (StreamedPurchaseRow) throws -> Void
    ) throws {
        let columns = withSplits ? StreamedPurchase.columns : StreamedPurchase.unsplitColumns
        let fieldColumns = StreamedPurchaseRow.fieldColumns
        try listed(query, columns: columns, from: withSplits ? StreamedPurchase.from : Purchase.from).forEach(query.values) {
            try body(StreamedPurchaseRow(statement: $0, splits: splits, columns: fieldColumns))
        }
    }

    /// `query`'s rows in its order: `columns` (a constant column list of this file) from `from` (a
    /// constant join of this file).
    private func listed(_ query: PurchaseQuery, columns: String, from: String) throws -> Statement {
        // sql-built: `columns` and `from` are this file's constants, `condition` and `order` those of `PurchaseQuery`; every value is bound.
        try db.prepare("SELECT \(columns) \(from) WHERE \(query.condition) \(query.order)")
    }

    /// Every purchase of trip `tripID` (of every trip when nil) in export order: by trip, date and
    /// id, the index `purchases_by_trip_date`'s, so SQLite does not sort.
    package func forEachExported(trip tripID: Int64?, _ body: (Purchase) throws -> Void) throws {
        var sql = "SELECT \(Purchase.columns) \(Purchase.from)"
        if tripID != nil { sql += " WHERE p.trip_id = ?" }
        sql += " ORDER BY p.trip_id, p.date, p.id"
        try db.prepare(sql).forEach(tripID.map { [.integer($0)] } ?? []) { try body(Purchase(row: $0.row())) }
    }

    /// `forEachExported`'s purchases, each with its stored split (`SplitWeights` texts, as bytes
    /// valid only during the call; nil when it has none), read by `splits` alongside the scan.
    package func forEachExportedWithSplit(
        trip tripID: Int64?, splits: SplitCursor,
        _ body: (Purchase, _ split: (payers: UnsafeBufferPointer<UInt8>, shares: UnsafeBufferPointer<UInt8>)?) throws -> Void
    ) throws {
        var sql = "SELECT \(Purchase.columns) \(Purchase.from)"
        if tripID != nil { sql += " WHERE p.trip_id = ?" }
        sql += " ORDER BY p.trip_id, p.date, p.id"
        try db.prepare(sql).forEach(tripID.map { [.integer($0)] } ?? []) { s in
            let row = ResultRow<Purchase.Column>(s)
            let split = try splits.split(trip: row.int(.tripID), purchase: row.int(.id))
            try body(Purchase(row: row), split)
        }
    }

    /// `forEachExported`'s rows as `PurchaseStream` reads them, with their splits.
    package func forEachExportedStreamed(
        trip tripID: Int64?, splits: SplitPositions, _ body: (StreamedPurchaseRow, Purchase) throws -> Void
    ) throws {
        var sql = "SELECT \(StreamedPurchase.columns) \(StreamedPurchase.from)"
        if tripID != nil { sql += " WHERE p.trip_id = ?" }
        sql += " ORDER BY p.trip_id, p.date, p.id"
        let fieldColumns = StreamedPurchaseRow.fieldColumns
        try db.prepare(sql).forEach(tripID.map { [.integer($0)] } ?? []) {
            try body(StreamedPurchaseRow(statement: $0, splits: splits, columns: fieldColumns), Purchase(row: $0.row()))
        }
    }

    /// `trip list`'s widths: one aggregate per purchase currency over `query`'s rows.
    package func forEachListLayout(_ query: PurchaseQuery, _ body: (ResultRow<ListLayoutColumn>) throws -> Void) throws {
        try db.prepare(
            // sql-built: `condition` comes from `PurchaseQuery`'s constant clauses; every value is bound.
            """
            SELECT \(ListLayoutColumn.sqlList)
            FROM purchases p WHERE \(query.condition) GROUP BY p.currency
            """
        ).forEach(query.values) { try body(ResultRow($0)) }
    }

    /// One row per kind of posting of trips `tripIDs` (every trip when nil).
    package func forEachExportScope(trips tripIDs: [Int64]?, _ body: (ResultRow<ExportScopeColumn>) throws -> Void) throws {
        var sql = "SELECT \(ExportScopeColumn.sqlList) FROM purchases p"
        if tripIDs != nil { sql += " WHERE p.trip_id = ?" }
        sql += " GROUP BY p.currency, p.home_currency, p.category, p.paid_with, p.home_minor IS NULL"
        try db.prepare(sql).forEach((tripIDs ?? []).map { .integer($0) }) { try body(ResultRow($0)) }
    }

    /// Per purchase currency of trip `tripID`, the dates of its purchases that wait for a rate.
    package func forEachRateNeed(trip tripID: Int64, _ body: (ResultRow<NeedColumn>) throws -> Void) throws {
        try db.prepare(
            """
            SELECT \(NeedColumn.sqlList) FROM purchases
            WHERE trip_id = ? AND provisional = 1 AND purchase_rate IS NULL AND charged_minor IS NULL
            GROUP BY currency
            """
        ).forEach([.integer(tripID)]) { try body(ResultRow($0)) }
    }

    /// Every code in use: purchase and home currencies of purchases, and trips' home currencies.
    package func currenciesInUse() throws -> [String] {
        var out: [String] = []
        try db.prepare("SELECT currency FROM purchases UNION SELECT home_currency FROM purchases UNION SELECT home_currency FROM trips")
            .forEach { out.append($0.text(0)) }
        return out
    }

    /// Purchase and home currencies of purchases.
    package func purchaseAndHomeCurrencies() throws -> Set<String> {
        var used: Set<String> = []
        try db.prepare("SELECT DISTINCT currency FROM purchases UNION SELECT DISTINCT home_currency FROM purchases").forEach { s in
            used.insert(s.text(0))
        }
        return used
    }

    /// How many provisional purchases, per purchase currency.
    package func provisionalCounts() throws -> [String: Int] {
        var provisional: [String: Int] = [:]
        // A scan of the covering index purchases_report: no index serves only this count (see
        // m0004_rate_source_check.sql).
        try db.prepare("SELECT currency, count(*) FROM purchases WHERE provisional = 1 GROUP BY currency").forEach { s in
            provisional[s.text(0)] = Int(s.int(1))
        }
        return provisional
    }

    /// The currencies paid on trip `tripID`, by purchases or by transfers, in code order.
    package func currenciesPaid(trip tripID: Int64) throws -> [String] {
        var codes: [String] = []
        try db.prepare(
            """
            SELECT currency FROM purchases WHERE trip_id = ?1 UNION SELECT currency FROM transfers WHERE trip_id = ?1
            ORDER BY 1
            """
        ).forEach([.integer(tripID)]) { codes.append($0.text(0)) }
        return codes
    }

    /// The purchases `rerate` chooses a rate again for: of open trips (or trip `tripID`), rated by
    /// the resolver (not `--rate`, not `--charged`), provisional, missing or manual.
    package func rerateCandidates(trip tripID: Int64?, includingClosed: Bool = false) throws -> [RerateRow] {
        // Only the columns a conversion needs: this runs over every provisional purchase.
        var sql = """
            SELECT \(RerateRow.columns)
            FROM purchases p JOIN trips t ON t.id = p.trip_id
            WHERE (t.closed_at IS NULL OR ?) AND p.purchase_rate IS NULL AND p.charged_minor IS NULL
              AND (p.provisional = 1 OR p.rate_source IN ('none', 'manual', 'fallback'))
            """
        var values: [SQLValue] = [.integer(includingClosed ? 1 : 0)]
        if let tripID {
            sql += " AND p.trip_id = ?"
            values.append(.integer(tripID))
        }
        var rows: [RerateRow] = []
        try db.prepare(sql).forEach(values) { rows.append(RerateRow(row: $0.row())) }
        return rows
    }

    private static let updateConversionSQL = "UPDATE purchases SET \(PurchaseRerate.assignments) WHERE id = ?"

    /// Writes purchase `id`'s new conversion (its home currency stays).
    package func updateConversion(id: Int64, _ c: Conversion, now: String) throws {
        try db.run(
            Self.updateConversionSQL,
            PurchaseRerate.targets.map { column -> SQLValue in
                if case .conversion(let read) = column.binding { return read(c) }
                return .text(now)
            } + [.integer(id)])
    }

    /// The purchases with an import key above id `lastID`, by that key.
    package func importedIDs(after lastID: Int64) throws -> [UInt64: Int64] {
        var ids: [UInt64: Int64] = [:]
        try db.prepare("SELECT \(ImportedPurchaseColumn.sqlList) FROM purchases p WHERE p.id > ? AND p.import_key IS NOT NULL")
            .forEach([.integer(lastID)]) {
                let s = ResultRow<ImportedPurchaseColumn>($0)
                ids[UInt64(bitPattern: s.int(.importKey))] = s.int(.id)
            }
        return ids
    }

    /// How many purchases of trip `tripID` are dated `from`…`to` (in `currency` when given).
    package func count(trip tripID: Int64, from: String, to: String, currency: String?) throws -> Int {
        Int(
            try db.scalarInt(
                """
                SELECT count(*) FROM purchases WHERE trip_id = ?1 AND date BETWEEN ?2 AND ?3 AND (?4 IS NULL OR currency = ?4)
                """, [.integer(tripID), .text(from), .text(to), SQLValue(currency)]) ?? 0)
    }
}

// MARK: - Import

extension PurchaseStore {
    /// Moves the ids above `lastID` by `shift`, through negative ids, so no row ever takes an id
    /// another row still holds.
    package func shiftIDs(after lastID: Int64, by shift: Int64) throws {
        try db.run("UPDATE purchases SET id = -id WHERE id > ?", [.integer(lastID)])
        try db.run("UPDATE purchases SET id = ? - id WHERE id < 0", [.integer(shift)])
    }

    /// The batches an import inserts: every `PurchaseRow` column, then the row's import key.
    package func importBatches() -> BatchInsert {
        BatchInsert(
            db: db, prefix: "INSERT OR FAIL INTO purchases (\(PurchaseRow.insertColumns), import_key) VALUES ",
            row: "(\(PurchaseRow.placeholders), ?)")
    }

    /// Whether any purchase has an import key.
    package func hasImportKeys() throws -> Bool {
        try db.scalarInt("SELECT 1 FROM purchases WHERE import_key IS NOT NULL LIMIT 1") != nil
    }

    /// Finds a stored import key: prepared once, run per imported row.
    package func importKeyLookup() throws -> ImportKeyLookup {
        ImportKeyLookup(statement: try db.prepare("SELECT 1 FROM purchases WHERE import_key = ?"))
    }

    /// Every stored import key.
    package func forEachImportKey(_ body: (UInt64) -> Void) throws {
        try db.prepare("SELECT import_key FROM purchases WHERE import_key IS NOT NULL").forEach { body(UInt64(bitPattern: $0.int(0))) }
    }

    /// The table's indexes as `sqlite_master` records them: name and `CREATE INDEX` text.
    package func indexes() throws -> [(name: String, sql: String)] {
        var out: [(name: String, sql: String)] = []
        try db.prepare(
            "SELECT \(IndexColumn.sqlList) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'purchases' AND sql IS NOT NULL"
        ).forEach {
            let s = ResultRow<IndexColumn>($0)
            out.append((s.text(.name), s.text(.definition)))
        }
        return out
    }

    /// Drops the index `name` (one `indexes` gave).
    package func dropIndex(named name: String) throws {
        // sql-built: an index name read back from sqlite_master, quoted; not input.
        try db.execute("DROP INDEX \"\(name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\""))\"")
    }

    /// Creates again the indexes whose `CREATE INDEX` texts `indexes` gave, then the planner
    /// statistics for the table's new size.
    package func recreateIndexes(_ indexes: [(name: String, sql: String)]) throws {
        // A small page cache while sorting: SQLite's sorter writes a sorted run each time its
        // in-memory list outgrows the cache, and only with several runs does it sort and merge on a
        // second thread (`PRAGMA threads`; not with `temp_store = MEMORY`), which shortens the
        // index rebuild of a large import (`make bench`). The dirty pages this spills go to the
        // WAL as uncommitted frames, so crash safety is unchanged. `Database.enableWAL`'s size
        // comes back afterwards.
        let cache = try db.scalarInt("PRAGMA cache_size")
        try db.execute("PRAGMA cache_size = -2000")
        defer { if cache == -65536 { _ = try? db.execute("PRAGMA cache_size = -65536") } }
        for index in indexes { try db.execute(index.sql) }
        // Planner statistics for the table's new size: without them (a ledger filled by an
        // import has none) reports pick a worse index and run much slower (`make bench`,
        // report after import). From a sample (`analysis_limit`): a small part of what a full
        // ANALYZE costs on a large table.
        try db.execute("PRAGMA analysis_limit = 10000")
        defer { _ = try? db.execute("PRAGMA analysis_limit = 0") }
        try db.execute("ANALYZE purchases")
    }
}

/// `PurchaseStore.importKeyLookup`.
package struct ImportKeyLookup {
    fileprivate let statement: Statement

    package func contains(_ key: UInt64) throws -> Bool {
        try statement.first([.integer(Int64(bitPattern: key))], { _ in true }) ?? false
    }
}

/// An index of `purchases` as `sqlite_master` records it.
enum IndexColumn: Int32, ColumnList {
    case name, definition

    package var sql: StaticString {
        switch self {
        case .name: "name"
        case .definition: "sql"
        }
    }
}

// MARK: - Sharing

extension PurchaseStore {
    /// Trip `tripID`'s net total in its home currency, as `trip report` sums it (refunds and
    /// credits negative, unconverted purchases left out), in one pass over a covering index.
    package func netHomeTotal(trip tripID: Int64) throws -> Int64 {
        try db.scalarInt(
            """
            SELECT coalesce(sum(CASE kind WHEN 'purchase' THEN home_minor ELSE -home_minor END), 0)
            FROM purchases INDEXED BY purchases_by_trip_date WHERE trip_id = ?
            """, [.integer(tripID)]) ?? 0
    }

    /// What purchase `id` of trip `tripID` refers to: the purchase it refunds, and its split's
    /// payers and shares (as stored); nil when there is no such purchase.
    package func references(of id: Int64, trip tripID: Int64) throws -> (refundOf: Int64?, payers: String?, shares: String?)? {
        try db.prepare(
            """
            SELECT p.refund_of, s.payers, s.shares FROM purchases p
            LEFT JOIN purchase_splits s ON s.purchase_id = p.id AND s.trip_id = ?2 WHERE p.id = ?1
            """
        ).first([.integer(id), .integer(tripID)]) { ($0.optionalInt(0), $0.optionalText(1), $0.optionalText(2)) }
    }
}

// MARK: - Reconciling a statement

/// A purchase a statement's row may be (`Reconcile.Purchase`), and the import key it was added with.
enum ReconcileCandidateColumn: Int32, ColumnList {
    case id, currency, total, date, charged, chargedSource, importKey

    package var sql: StaticString {
        switch self {
        case .id: "id"
        case .currency: "currency"
        case .total: "total_minor"
        case .date: "date"
        case .charged: "charged_minor"
        case .chargedSource: "charged_source"
        case .importKey: "import_key"
        }
    }
}

extension PurchaseStore {
    /// The money paid in trip `tripID` (no refunds, no credits), as `Reconcile` reads it, and the
    /// import keys the trip's rows were added with (a statement row imported before is a duplicate).
    package func reconcileCandidates(trip tripID: Int64) throws -> (purchases: [Reconcile.Purchase], importKeys: Set<UInt64>) {
        var purchases: [Reconcile.Purchase] = []
        var keys: Set<UInt64> = []
        try db.prepare("SELECT \(ReconcileCandidateColumn.sqlList) FROM purchases WHERE trip_id = ? AND kind = 'purchase'")
            .forEach([.integer(tripID)]) {
                let s = ResultRow<ReconcileCandidateColumn>($0)
                if let k = s.optionalInt(.importKey) { keys.insert(UInt64(bitPattern: k)) }
                guard let date = CivilDate(iso: s.text(.date)) else { return }
                let charged = s.optionalInt(.charged)
                let source: Reconcile.Source =
                    if let key = s.optionalText(.chargedSource).flatMap(Self.statementKey) {
                        .statement(key)
                    } else {
                        charged == nil ? .none : .byHand
                    }
                purchases.append(
                    Reconcile.Purchase(
                        id: s.int(.id), currency: s.text(.currency), total: s.int(.total), date: date, charged: charged, source: source))
            }
        return (purchases, keys)
    }

    /// `statement:KEY` (m0023): the charged amount of purchase `id` is statement row `key`'s.
    package func setChargedFromStatement(id: Int64, key: UInt64) throws {
        try db.run(
            "UPDATE purchases SET charged_source = ? WHERE id = ?", [.text(Self.chargedSource(key)), .integer(id)])
    }

    /// Marks the purchases a statement added (ids above `lastID`) as its rows', by their import key.
    package func markAddedFromStatement(after lastID: Int64) throws {
        try db.run(
            "UPDATE purchases SET charged_source = 'statement:' || import_key WHERE id > ? AND import_key IS NOT NULL",
            [.integer(lastID)])
    }

    package static func chargedSource(_ key: UInt64) -> String { "statement:\(Int64(bitPattern: key))" }

    static func statementKey(_ source: String) -> UInt64? {
        guard source.hasPrefix("statement:"), let k = Int64(source.dropFirst("statement:".count)) else { return nil }
        return UInt64(bitPattern: k)
    }
}
