import TripCore
import TripModel

/// The `purchase_splits` table's SQL: every statement whose table is `purchase_splits`. A split is
/// stored as the member ids and weights of its payers and of its sharers (`SplitWeights`).
package struct SplitStore {
    let db: Database
}

/// A purchase's split as `purchase_splits s` stores it.
enum SplitColumn: Int32, ColumnList {
    case payers, shares

    package var sql: StaticString {
        switch self {
        case .payers: "s.payers"
        case .shares: "s.shares"
        }
    }
}

/// The splits that may name a member (`removeMember`): the purchase, its split, and whether the
/// purchase is in the trash (its split stays, for a restore).
enum SplitUseColumn: Int32, ColumnList {
    case purchaseID, payers, shares, removed

    package var sql: StaticString {
        switch self {
        case .purchaseID: "s.purchase_id"
        case .payers: "s.payers"
        case .shares: "s.shares"
        case .removed: "p.id IS NULL"
        }
    }
}

/// The result columns of `scanSplits`' query. `note` and `kind` are read only with `details` (?5).
package enum SplitScanColumn: Int32, ColumnList {
    case purchaseID, payers, shares, total, home, currency, category, rateSource, provisional, taxIncluded
    case homeDiscount, homeService, homeTax, homeTip, date, paidWith, isPurchase, note, kind

    package var sql: StaticString {
        switch self {
        case .purchaseID: "s.purchase_id"
        case .payers: "s.payers"
        case .shares: "s.shares"
        case .total: "p.total_minor"
        case .home: "p.home_minor"
        case .currency: "p.currency"
        case .category: "p.category"
        case .rateSource: "p.rate_source"
        case .provisional: "p.provisional"
        case .taxIncluded: "p.tax_included"
        case .homeDiscount: "p.home_discount_minor"
        case .homeService: "p.home_service_minor"
        case .homeTax: "p.home_tax_minor"
        case .homeTip: "p.home_tip_minor"
        case .date: "p.date"
        case .paidWith: "p.paid_with"
        case .isPurchase: "p.kind = 'purchase'"
        case .note: "CASE WHEN ?5 THEN p.note END"
        case .kind: "CASE WHEN ?5 THEN p.kind END"
        }
    }
}

/// A purchase's payers and sharers: positions in its trip's members (join order), with weights.
package struct SplitParts {
    package var payers: [(index: Int, weight: Rational)] = []
    package var sharers: [(index: Int, weight: Rational)] = []
}

/// One purchase's split looked up by key, many times over (an export asks it of every purchase).
package struct SplitLookup {
    fileprivate let statement: Statement

    /// The split of purchase `id` of trip `tripID`, with member ids read as positions in `index`;
    /// nil when it has none.
    package func parts(trip tripID: Int64, purchase id: Int64, index: SplitWeights.Positions) throws -> SplitParts? {
        try statement.first([.integer(tripID), .integer(id)]) { s in
            let row = ResultRow<SplitColumn>(s)
            var parts = SplitParts()
            try row.withBytes(.payers) { try SplitWeights.decode($0, index: index, into: &parts.payers, purchase: id, field: "payers") }
            try row.withBytes(.shares) { try SplitWeights.decode($0, index: index, into: &parts.sharers, purchase: id, field: "split") }
            return parts
        }
    }

}

/// The splits of purchases asked for one at a time in export order (by trip, date and id), read by
/// one scan of `purchase_splits` in key order instead of a lookup per purchase (a join seeks once per
/// row). A trip's purchases are mostly logged or imported in date order, so their ids ascend with
/// their dates and the scan only steps forward. A purchase behind the scan (logged after one dated
/// later) or far ahead of it re-positions the scan at its key: a seek, as a join would make. Memory
/// stays one row, however large the trip.
package final class SplitCursor {
    private let statement: Statement
    /// The trip being scanned, and the purchase id of the scan's row (nil: past its last split).
    private var trip: Int64 = .min
    private var current: Int64?
    /// No split of `trip` has a purchase id in `gapStart..<current`: the scan started at
    /// `gapStart` or stepped over it from the row before.
    private var gapStart: Int64 = .max

    /// How far ahead (in ids) the scan steps rather than seeks: each step passes one split row.
    private static let stepsAhead: Int64 = 32

    fileprivate init(_ statement: Statement) { self.statement = statement }

    /// The stored split of purchase `id` of trip `tripID`, or nil when it has none. The bytes
    /// stay valid until the next call.
    package func split(trip tripID: Int64, purchase id: Int64) throws -> (payers: UnsafeBufferPointer<UInt8>, shares: UnsafeBufferPointer<UInt8>)? {
        if tripID != trip || id < gapStart { try seek(trip: tripID, from: id) }
        while let at = current, at < id {
            let (gap, overflow) = id.subtractingReportingOverflow(at)
            if overflow || gap > Self.stepsAhead {
                try seek(trip: tripID, from: id)
                break
            }
            gapStart = at + 1
            current = try statement.step() ? statement.int(0) : nil
        }
        guard current == id else { return nil }
        return (statement.bytes(1), statement.bytes(2))
    }

    private func seek(trip tripID: Int64, from id: Int64) throws {
        try statement.bind(tripID, id)
        trip = tripID
        gapStart = id
        current = try statement.step() ? statement.int(0) : nil
    }
}

extension SplitStore {
    /// For `SplitCursor`: a trip's splits from purchase id ?2 on, in key order.
    private static let fromKey = """
        SELECT s.purchase_id, s.payers, s.shares FROM purchase_splits s
        WHERE s.trip_id = ?1 AND s.purchase_id >= ?2 ORDER BY s.purchase_id
        """

    /// Runs `body` with a `SplitCursor`, and resets its scan after (no read left open).
    package func withCursor<T>(_ body: (SplitCursor) throws -> T) throws -> T {
        let statement = try db.prepare(Self.fromKey)
        defer { statement.reset() }
        return try body(SplitCursor(statement))
    }

    private static let byKey = "SELECT \(SplitColumn.sqlList) FROM purchase_splits s WHERE s.trip_id = ? AND s.purchase_id = ?"

    package func lookup() throws -> SplitLookup { SplitLookup(statement: try db.prepare(Self.byKey)) }

    /// Purchase `id`'s split as stored (`SplitWeights` texts), or nil.
    package func stored(trip tripID: Int64, purchase id: Int64) throws -> (payers: String, shares: String)? {
        try db.prepare(Self.byKey).first([.integer(tripID), .integer(id)]) { s in
            let row = ResultRow<SplitColumn>(s)
            return (row.text(.payers), row.text(.shares))
        }
    }

    /// Writes purchase `id`'s split, replacing the one it had.
    package func save(trip tripID: Int64, purchase id: Int64, payers: String, shares: String) throws {
        try db.run(
            """
            INSERT INTO purchase_splits (trip_id, purchase_id, payers, shares) VALUES (?, ?, ?, ?)
            ON CONFLICT (trip_id, purchase_id) DO UPDATE SET payers = excluded.payers, shares = excluded.shares
            """, [.integer(tripID), .integer(id), .text(payers), .text(shares)])
    }

    /// What was typed of purchase `id`'s split (`m0017_split_rest`): the member ids `rest` named in
    /// --paid-by and --items, and whether the shares are --items portions; nil when not recorded.
    package func typed(purchase id: Int64) throws -> (payerRest: Int64?, items: Bool, itemRest: Int64?)? {
        try db.prepare("SELECT payer_rest, items, item_rest FROM split_rest WHERE purchase_id = ?").first([.integer(id)]) { s in
            (s.optionalInt(0), s.int(1) != 0, s.optionalInt(2))
        }
    }

    /// Records what was typed of purchase `id`'s split, replacing what was.
    package func saveTyped(purchase id: Int64, payerRest: Int64?, items: Bool, itemRest: Int64?) throws {
        try db.run(
            """
            INSERT INTO split_rest (purchase_id, payer_rest, items, item_rest) VALUES (?, ?, ?, ?)
            ON CONFLICT (purchase_id) DO UPDATE SET payer_rest = excluded.payer_rest, items = excluded.items, item_rest = excluded.item_rest
            """, [.integer(id), payerRest.map { .integer($0) } ?? .null, .integer(items ? 1 : 0), itemRest.map { .integer($0) } ?? .null])
    }

    /// Adds the split of a purchase that has none (one just imported).
    package func insert(trip tripID: Int64, purchase id: Int64, payers: String, shares: String) throws {
        try db.run(
            "INSERT INTO purchase_splits (trip_id, purchase_id, payers, shares) VALUES (?, ?, ?, ?)",
            [.integer(tripID), .integer(id), .text(payers), .text(shares)])
    }

    package func delete(trip tripID: Int64, purchase id: Int64) throws {
        try db.run("DELETE FROM purchase_splits WHERE trip_id = ? AND purchase_id = ?", [.integer(tripID), .integer(id)])
    }

    /// Deletes purchase `id`'s split, whatever its trip.
    package func deleteAny(purchase id: Int64) throws {
        try db.run("DELETE FROM purchase_splits WHERE purchase_id = ?", [.integer(id)])
    }

    /// Adds the split packed in `row`: trip id, purchase id, payers, shares.
    package func insert(_ row: PackedValues) throws {
        let insert = try db.prepare("INSERT INTO purchase_splits (trip_id, purchase_id, payers, shares) VALUES (?, ?, ?, ?)")
        try row.withBuffers { try insert.run($0, text: $1) }
    }

    /// Splits added many at a time (a join's snapshot), each row as `insert` takes it.
    package func batches() -> BatchInsert {
        BatchInsert(db: db, prefix: "INSERT OR FAIL INTO purchase_splits (trip_id, purchase_id, payers, shares) VALUES ", row: "(?, ?, ?, ?)")
    }

    /// Gives purchase `target` of trip `tripID` the split of purchase `source`, replacing its own
    /// (a statement's money back is split when imported, then takes its purchase's when linked).
    package func copy(trip tripID: Int64, from source: Int64, to target: Int64) throws {
        try db.run(
            """
            INSERT INTO purchase_splits (trip_id, purchase_id, payers, shares)
            SELECT trip_id, ?, payers, shares FROM purchase_splits WHERE trip_id = ? AND purchase_id = ?
            ON CONFLICT (trip_id, purchase_id) DO UPDATE SET payers = excluded.payers, shares = excluded.shares
            """, [.integer(target), .integer(tripID), .integer(source)])
    }

    /// Every split of trip `tripID`, in purchase order, with whether its purchase is in the trash.
    package func forEachSplit(trip tripID: Int64, _ body: ((purchaseID: Int64, payers: String, shares: String, removed: Bool)) throws -> Void) throws
    {
        try db.prepare(
            """
            SELECT \(SplitUseColumn.sqlList) FROM purchase_splits s
            LEFT JOIN purchases p ON p.id = s.purchase_id WHERE s.trip_id = ? ORDER BY s.purchase_id
            """
        ).forEach([.integer(tripID)]) { statement in
            let s = ResultRow<SplitUseColumn>(statement)
            try body((s.int(.purchaseID), s.text(.payers), s.text(.shares), s.int(.removed) == 1))
        }
    }

    /// The split purchases of trip `tripID` dated `from`…`to` (in `currency` when given), in
    /// purchase order, with their splits. `details` (?5) reads the note and kind too.
    package func forEachSplitPurchase(
        trip tripID: Int64, from: String, to: String, currency: String?, details: Bool,
        _ body: (ResultRow<SplitScanColumn>) throws -> Void
    ) throws {
        try db.prepare(
            """
            SELECT \(SplitScanColumn.sqlList)
            FROM purchase_splits s JOIN purchases p ON p.id = s.purchase_id
            WHERE s.trip_id = ?1 AND p.date BETWEEN ?2 AND ?3 AND (?4 IS NULL OR p.currency = ?4)
            ORDER BY s.purchase_id
            """
        ).forEach([.integer(tripID), .text(from), .text(to), SQLValue(currency), .integer(details ? 1 : 0)]) { try body(ResultRow($0)) }
    }

}
