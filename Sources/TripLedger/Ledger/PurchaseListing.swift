import TripCore

/// The query behind `trip list`: one filter, read by `purchaseRows` (a row at a time) and by
/// `listLayout` (one aggregate over the same rows, for the text table's column widths).
struct PurchaseQuery {
    let trip: Trip
    /// `WHERE …` over `purchases p`, and its bound values.
    let condition: String
    let values: [SQLValue]
    let order: String

    init(_ filter: PurchaseFilter, trip: Trip, clock: Clock) throws {
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

    /// The rows in order: `columns` (a constant column list) from `from` (a constant join).
    func statement(_ db: Database, columns: String, from: String) throws -> Statement {
        // `columns` and `from` are `Purchase`'s or `PurchaseStream`'s constants.
        // sql-built: those, and `condition` and `order` from the constant clauses above; every value is bound.
        try db.prepare("SELECT \(columns) \(from) WHERE \(condition) \(order)")
    }
}

/// What the text table of `trip list` needs before its first row: how many rows, each column's
/// width, and whether the provisional footnote applies. One aggregate query gives it, so the rows
/// themselves can be streamed and still line up exactly.
public struct ListLayout: Sendable {
    public var count: Int
    public var idWidth: Int
    public var amountWidth: Int
    public var homeWidth: Int
    public var rateWidth: Int
    public var anyProvisional: Bool
}

/// The result columns of `listLayout`'s aggregate, per purchase currency. Every column here is in
/// the covering index `purchases_report`.
enum ListLayoutColumn: Int32, ColumnList {
    case currency, rows, maxID, minTotal, maxTotal, minHome, maxHome, rateWidth, anyProvisional

    var sql: StaticString {
        switch self {
        case .currency: "p.currency"
        case .rows: "count(*)"
        case .maxID: "max(p.id)"
        case .minTotal: "min(p.total_minor)"
        case .maxTotal: "max(p.total_minor)"
        case .minHome: "min(p.home_minor)"
        case .maxHome: "max(p.home_minor)"
        // The rate flag's width: `none`, or the source and `*` when provisional.
        case .rateWidth: "max(CASE WHEN p.home_minor IS NULL THEN 4 ELSE length(p.rate_source) + p.provisional END)"
        case .anyProvisional: "max(p.provisional AND p.home_minor IS NOT NULL)"
        }
    }
}

extension Ledger {
    /// The trip's purchases as `filter` selects them, each passed to `body` as it is read, so
    /// memory does not grow with the trip. Order: date, then id (`reverse`: newest first).
    /// Returns the trip.
    @discardableResult
    public func purchaseRows(_ filter: PurchaseFilter, _ body: (Purchase) throws -> Void) throws -> Trip {
        let q = try PurchaseQuery(filter, trip: try resolveTrip(filter.trip), clock: clock)
        try db.preferStreaming()
        try q.statement(db, columns: Purchase.columns, from: Purchase.from).forEach(q.values) { try body(Purchase(row: $0.row())) }
        return q.trip
    }

    /// `trip list`, streamed to `out`: the text table (`json` false) or
    /// `{"purchases":[…],"trip":NAME}` with each purchase object as `Purchase.json(split:)` has it
    /// (`paid_by` and `split` null when the purchase has no split). Each row goes from SQLite to
    /// `out`'s buffer as it is read (`PurchaseStream`), so memory does not grow with the trip.
    public func writeList(_ filter: PurchaseFilter, json: Bool, to out: BufferedOutput) throws {
        let q = try PurchaseQuery(filter, trip: try resolveTrip(filter.trip), clock: clock)
        let stream = PurchaseStream { [self] in try members(ofTripID: $0) }
        if json {
            // A trip without members has no split to read: no lookup per row.
            let hasMembers = try !members(ofTripID: q.trip.id).isEmpty
            let columns = hasMembers ? PurchaseStream.columns : PurchaseStream.unsplitColumns
            let from = hasMembers ? PurchaseStream.from : Purchase.from
            try db.preferStreaming()
            try out.write("{\"purchases\":[")
            var first = true
            try q.statement(db, columns: columns, from: from).forEach(q.values) { row in
                try out.append { buffer in
                    if !first { buffer.append(UInt8(ascii: ",")) }
                    try stream.writeJSON(row, to: &buffer)
                }
                first = false
            }
            try out.write("],\"trip\":" + JSONValue.string(q.trip.name).serialized + "}\n")
            return
        }
        let (trip, layout) = try listLayout(filter)
        guard let header = TextFormat.listHeader(trip, layout) else {
            try out.write(TextFormat.listEmpty(trip) + "\n")
            return
        }
        try out.write(header)
        // The text table shows no split: never joined.
        try q.statement(db, columns: PurchaseStream.unsplitColumns, from: Purchase.from).forEach(q.values) { row in
            try out.append { stream.writeListRow(row, layout, to: &$0) }
        }
        if let footer = TextFormat.listFooter(layout) { try out.write(footer) }
    }

    /// The column widths of `trip list`'s text table over exactly the rows `purchaseRows` reads.
    public func listLayout(_ filter: PurchaseFilter) throws -> (trip: Trip, layout: ListLayout) {
        let q = try PurchaseQuery(filter, trip: try resolveTrip(filter.trip), clock: clock)
        // Read like the rows themselves: through a small page cache, not a growing memory map.
        try db.preferStreaming()
        var layout = ListLayout(
            count: 0, idWidth: 2, amountWidth: 6, homeWidth: q.trip.homeCurrency.code.count,
            rateWidth: 4, anyProvisional: false)
        // The widest amount is that of the smallest or largest total of some currency. Every column
        // here is in the covering index `purchases_report`, so this reads the index, not the table
        // (home amounts are in the trip's home currency, as the header says).
        try db.prepare(
            // sql-built: `condition` comes from `PurchaseQuery`'s constant clauses; every value is bound.
            """
            SELECT \(ListLayoutColumn.sqlList)
            FROM purchases p WHERE \(q.condition) GROUP BY p.currency
            """
        ).forEach(q.values) { statement in
            let s = ResultRow<ListLayoutColumn>(statement)
            let home = q.trip.homeCurrency
            guard let currency = CurrencyTable.shared.lookup(s.text(.currency)) else { return }
            layout.count += Int(s.int(.rows))
            layout.idWidth = max(layout.idWidth, 1 + String(s.int(.maxID)).count)
            for v in [s.int(.minTotal), s.int(.maxTotal)] {
                layout.amountWidth = max(layout.amountWidth, TextFormat.money(v, currency).count)
            }
            for v in [s.optionalInt(.minHome), s.optionalInt(.maxHome)] {
                let text = v.map { Money.group(Money(minorUnits: $0, currency: home).plainText) } ?? "—"
                layout.homeWidth = max(layout.homeWidth, text.count)
            }
            layout.rateWidth = max(layout.rateWidth, Int(s.int(.rateWidth)))
            layout.anyProvisional = layout.anyProvisional || s.int(.anyProvisional) != 0
        }
        return (q.trip, layout)
    }
}
