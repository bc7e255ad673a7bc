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
        pending.append(contentsOf: values)
        pendingRows += 1
        added += 1
        if pendingRows == batchSize { try flush() }
    }

    func flush() throws {
        guard pendingRows > 0 else { return }
        let statement: Statement
        if pendingRows == batchSize, let full { statement = full } else {
            statement = try db.prepare(prefix + Array(repeating: rowPlaceholders, count: pendingRows).joined(separator: ", "))
            if pendingRows == batchSize { full = statement }
        }
        try statement.run(pending[...], arena: arena)
        pending.removeAll(keepingCapacity: true)
        pendingRows = 0
    }
}
