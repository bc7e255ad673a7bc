/// Rows inserted into `purchases` many at a time: one prepared multi-row
/// `INSERT … VALUES (…), (…), …` per `batchSize` rows.
///
/// A one-row INSERT pays SQLite's per-statement work (reset, opening a cursor on the table and on
/// each index, the schema check) for every row, several times the cost of the row itself; a batch
/// pays it once. Rows stay in input order, so ids are assigned as with one INSERT per row.
/// Call `flush()` before reading the table (and before the commit): rows added since the last full
/// batch are held in memory until then. Only for use inside a transaction that is rolled back on
/// any error (see `init`).
final class BatchInsert {
    private let db: Database
    private let prefix: String
    private let rowPlaceholders: String
    private let batchSize: Int
    private var full: Statement?
    private var pending: [SQLValue] = []
    private var pendingRows = 0
    private let arena = TextArena()
    /// Rows added so far (inserted, or held until the next `flush()`).
    private(set) var added = 0

    /// `INSERT INTO purchases (<PurchaseRow.insertColumns>, import_key) VALUES (?, …), …`: the
    /// statement is built only from those constant fragments and `?` markers.
    init(db: Database, batchSize: Int = 64) {
        self.db = db
        // OR FAIL: a constraint error stops the statement without undoing its earlier rows, so
        // SQLite needs no statement journal (a copy of every page each batch changes); the caller's
        // transaction is rolled back on the error anyway.
        prefix = "INSERT OR FAIL INTO purchases (\(PurchaseRow.insertColumns), import_key) VALUES "
        rowPlaceholders = "(\(PurchaseRow.placeholders), ?)"
        self.batchSize = max(batchSize, 1)
    }

    func add(_ values: ArraySlice<SQLValue>) throws {
        try add(rows: values, count: 1)
    }

    /// Adds `count` rows laid out one after another in `values`, `values.count / count` values
    /// each. Whole batches go straight from `values` to SQLite when nothing is pending, uncopied.
    func add(rows values: ArraySlice<SQLValue>, count: Int) throws {
        guard count > 0 else { return }
        let width = values.count / count
        var start = values.startIndex
        var left = count
        while left > 0 {
            let take = pendingRows == 0 && left >= batchSize ? batchSize : min(left, batchSize - pendingRows)
            let end = start + take * width
            if take == batchSize {
                try statement(rows: batchSize).run(values[start ..< end], arena: arena)
            } else {
                pending.append(contentsOf: values[start ..< end])
                pendingRows += take
            }
            added += take
            start = end
            left -= take
            if pendingRows == batchSize { try flush() }
        }
    }

    func flush() throws {
        guard pendingRows > 0 else { return }
        try statement(rows: pendingRows).run(pending[...], arena: arena)
        pending.removeAll(keepingCapacity: true)
        pendingRows = 0
    }

    /// The INSERT of `rows` rows; the full-batch one is kept.
    private func statement(rows: Int) throws -> Statement {
        if rows == batchSize, let full { return full }
        let statement = try db.prepare(prefix + Array(repeating: rowPlaceholders, count: rows).joined(separator: ", "))
        if rows == batchSize { full = statement }
        return statement
    }
}
