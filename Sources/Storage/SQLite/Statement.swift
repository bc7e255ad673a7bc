/// A prepared statement. Parameters are bound by position (`?`), never spliced into the SQL text.
///
/// It keeps the raw connection, not the `Database`: the database caches its statements, and a
/// reference back would be a cycle that never closes the connection (a file descriptor leaked per
/// `Database`). `sqlite3_close_v2` keeps the connection alive until its last statement is finalized.
final class Statement {
    let connection: SQLiteBoundary.Connection
    let handle: SQLiteBoundary.Handle
    let sql: String

    init(db: Database, sql: String) throws(SQLiteError) {
        self.connection = db.connection
        self.sql = sql
        self.handle = try SQLiteBoundary.prepare(db.connection, sql)
    }

    deinit { SQLiteBoundary.finalize(handle) }

    /// Resets the statement and binds `values` to `?1…?n`.
    @discardableResult
    func bind(_ values: [SQLValue]) throws(SQLiteError) -> Statement {
        SQLiteBoundary.reset(handle)
        for (i, v) in values.enumerated() {
            try SQLiteBoundary.bind(connection, handle, Int32(i + 1), v, sql: sql)
        }
        return self
    }

    /// Resets the statement and binds `first` and `second` to `?1` and `?2`: `bind` without an
    /// array, for a statement re-positioned once per row (`SplitCursor`).
    func bind(_ first: Int64, _ second: Int64) throws(SQLiteError) {
        SQLiteBoundary.reset(handle)
        try SQLiteBoundary.bindInt64(connection, handle, 1, first, sql: sql)
        try SQLiteBoundary.bindInt64(connection, handle, 2, second, sql: sql)
    }

    /// Resets the statement, ending its read.
    func reset() { SQLiteBoundary.reset(handle) }

    /// Steps once: `true` when a row is available through the column accessors.
    func step() throws(SQLiteError) -> Bool {
        try SQLiteBoundary.step(connection, handle, sql: sql)
    }

    /// Binds `values`, reads the first row with `map` (or returns `nil` when there is none) and
    /// resets the statement, so that no read transaction is left open.
    func first<T>(_ values: [SQLValue] = [], _ map: (Statement) throws -> T) throws -> T? {
        try bind(values)
        defer { SQLiteBoundary.reset(handle) }
        return try step() ? try map(self) : nil
    }

    /// Runs to completion, ignoring rows.
    func run(_ values: [SQLValue] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    /// Runs to completion with `cells` bound to `?1…?n`, texts read in place from `text` (see
    /// `PackedValues`). Resets the statement afterwards, so nothing refers to the buffers once this
    /// returns.
    ///
    /// Bindings are not cleared (each run binds every parameter again): the statement may keep
    /// pointers to the old buffers, but it reads them only in `step`, after the next run's binds.
    /// So it must not be used other than through this method.
    func run(_ cells: UnsafeBufferPointer<PackedValues.Cell>, text: UnsafeRawPointer) throws(SQLiteError) {
        SQLiteBoundary.resetKeepingBindings(handle)
        defer { SQLiteBoundary.resetKeepingBindings(handle) }
        var index: Int32 = 1
        for cell in cells {
            switch cell.length {
            case PackedValues.Cell.integer: try SQLiteBoundary.bindInt64(connection, handle, index, cell.payload, sql: sql)
            case PackedValues.Cell.null: try SQLiteBoundary.bind(connection, handle, index, .null, sql: sql)
            default:
                try SQLiteBoundary.bindTextInPlace(connection, handle, index, text + Int(cell.payload), count: Int(cell.length), sql: sql)
            }
            index += 1
        }
        while try step() {}
    }

    /// Runs and calls `body` for each row.
    func forEach(_ values: [SQLValue] = [], _ body: (Statement) throws -> Void) throws {
        try bind(values)
        defer { SQLiteBoundary.reset(handle) }
        while try step() { try body(self) }
    }

    /// Columns in each result row.
    var columnCount: Int32 { SQLiteBoundary.columnCount(handle) }

    func int(_ i: Int32) -> Int64 { SQLiteBoundary.columnInt64(handle, i) }
    func optionalInt(_ i: Int32) -> Int64? { SQLiteBoundary.columnIsNull(handle, i) ? nil : int(i) }
    func text(_ i: Int32) -> String { SQLiteBoundary.columnText(handle, i) ?? "" }
    func optionalText(_ i: Int32) -> String? { SQLiteBoundary.columnIsNull(handle, i) ? nil : text(i) }
    func isNull(_ i: Int32) -> Bool { SQLiteBoundary.columnIsNull(handle, i) }
    /// Column `i`'s text as bytes, valid until the statement steps or resets (or column `i` is read
    /// as anything else): for a reader that hands them on without nesting closures (`SplitCursor`).
    func bytes(_ i: Int32) -> UnsafeBufferPointer<UInt8> { SQLiteBoundary.columnBytes(handle, i) }

    /// Column `i`'s text as bytes, valid only inside `body` (until the next step).
    func withBytes<T>(_ i: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try body(SQLiteBoundary.columnBytes(handle, i))
    }
}
