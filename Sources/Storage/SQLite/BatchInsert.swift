import TripModel

/// Rows inserted many at a time: one prepared multi-row `INSERT … VALUES (…), (…), …` per
/// `batchSize` rows (an import's purchases; a join's purchases, their global ids and splits).
///
/// A one-row INSERT pays SQLite's per-statement work (reset, opening a cursor on the table and on
/// each index, the schema check) for every row, several times the cost of the row itself; a batch
/// pays it once. Rows stay in input order, so ids are assigned as with one INSERT per row. Only for
/// use inside a transaction that is rolled back on any error (see `init`).
package final class BatchInsert {
    private let db: Database
    private let prefix: String
    private let rowPlaceholders: String
    private let batchSize: Int
    /// The INSERT of n rows, by n: the full batch, and the shorter runs left between duplicates.
    private var statements: [Int: Statement] = [:]
    /// Rows inserted so far.
    package private(set) var added = 0

    /// `prefix`: `INSERT OR FAIL INTO table (columns) VALUES `; `row`: one row's `(?, …)`. OR
    /// FAIL: a constraint error stops the statement without undoing its earlier rows, so SQLite
    /// needs no statement journal (a copy of every page each batch changes); the caller's
    /// transaction is rolled back on the error anyway.
    init(db: Database, prefix: String, row: String, batchSize: Int = 64) {
        self.db = db
        self.prefix = prefix
        rowPlaceholders = row
        self.batchSize = max(batchSize, 1)
    }

    /// Inserts rows `rows` of `values`, whose rows are `width` cells each.
    package func insert(_ values: PackedValues, width: Int, rows: Range<Int>) throws {
        guard !rows.isEmpty else { return }
        try values.withBuffers { cells, text in
            var row = rows.lowerBound
            while row < rows.upperBound {
                let n = min(batchSize, rows.upperBound - row)
                try statement(rows: n).run(UnsafeBufferPointer(rebasing: cells[row * width..<(row + n) * width]), text: text)
                row += n
            }
        }
        added += rows.count
    }

    private func statement(rows: Int) throws -> Statement {
        if let s = statements[rows] { return s }
        let s = try db.prepare(prefix + Array(repeating: rowPlaceholders, count: rows).joined(separator: ", "))
        statements[rows] = s
        return s
    }
}
