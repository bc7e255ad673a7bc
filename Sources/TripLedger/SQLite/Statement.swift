/// A prepared statement. Parameters are bound by position (`?`), never spliced into the SQL text.
///
/// It keeps the raw connection, not the `Database`: the database caches its statements, and a
/// reference back would be a cycle that never closes the connection (a file descriptor leaked per
/// `Database`). `sqlite3_close_v2` keeps the connection alive until its last statement is finalized.
public final class Statement {
    let connection: SQLiteBoundary.Connection
    let handle: SQLiteBoundary.Handle
    public let sql: String

    init(db: Database, sql: String) throws(SQLiteError) {
        self.connection = db.connection
        self.sql = sql
        self.handle = try SQLiteBoundary.prepare(db.connection, sql)
    }

    deinit { SQLiteBoundary.finalize(handle) }

    /// Resets the statement and binds `values` to `?1…?n`.
    @discardableResult
    public func bind(_ values: [SQLValue]) throws(SQLiteError) -> Statement {
        SQLiteBoundary.reset(handle)
        for (i, v) in values.enumerated() {
            try SQLiteBoundary.bind(connection, handle, Int32(i + 1), v, sql: sql)
        }
        return self
    }

    /// Steps once: `true` when a row is available through the column accessors.
    public func step() throws(SQLiteError) -> Bool {
        try SQLiteBoundary.step(connection, handle, sql: sql)
    }

    /// Binds `values`, reads the first row with `map` (or returns `nil` when there is none) and
    /// resets the statement, so that no read transaction is left open.
    public func first<T>(_ values: [SQLValue] = [], _ map: (Statement) throws -> T) throws -> T? {
        try bind(values)
        defer { SQLiteBoundary.reset(handle) }
        return try step() ? try map(self) : nil
    }

    /// Runs to completion, ignoring rows.
    public func run(_ values: [SQLValue] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    /// Runs to completion like `run(_:)`, but copies every text into `arena` and has SQLite read it
    /// there instead of making its own copy of each (a large multi-row INSERT binds thousands).
    /// Resets the statement afterwards, so that nothing refers to `arena` once this returns.
    func run(_ values: ArraySlice<SQLValue>, arena: TextArena) throws(SQLiteError) {
        SQLiteBoundary.reset(handle)
        defer { SQLiteBoundary.reset(handle) }
        var bytes = 0
        for case .text(let t) in values { bytes += t.utf8.count }
        let base = arena.reserve(bytes)
        var offset = 0
        var index: Int32 = 1
        for v in values {
            if case .text(var t) = v {
                let start = offset
                t.withUTF8 { utf8 in
                    if let p = utf8.baseAddress { (base + offset).copyMemory(from: p, byteCount: utf8.count) }
                    offset += utf8.count
                }
                try SQLiteBoundary.bindTextInPlace(connection, handle, index, base + start, count: offset - start, sql: sql)
            } else {
                try SQLiteBoundary.bind(connection, handle, index, v, sql: sql)
            }
            index += 1
        }
        while try step() {}
    }

    /// Runs and calls `body` for each row.
    public func forEach(_ values: [SQLValue] = [], _ body: (Statement) throws -> Void) throws {
        try bind(values)
        defer { SQLiteBoundary.reset(handle) }
        while try step() { try body(self) }
    }

    /// Columns in each result row.
    public var columnCount: Int32 { SQLiteBoundary.columnCount(handle) }

    public func int(_ i: Int32) -> Int64 { SQLiteBoundary.columnInt64(handle, i) }
    public func optionalInt(_ i: Int32) -> Int64? { SQLiteBoundary.columnIsNull(handle, i) ? nil : int(i) }
    public func text(_ i: Int32) -> String { SQLiteBoundary.columnText(handle, i) ?? "" }
    public func optionalText(_ i: Int32) -> String? { SQLiteBoundary.columnIsNull(handle, i) ? nil : text(i) }
    public func isNull(_ i: Int32) -> Bool { SQLiteBoundary.columnIsNull(handle, i) }
}

/// Bytes that bound texts are read from in place (`Statement.run(_:arena:)`): one allocation reused
/// batch after batch, grown when a batch needs more.
final class TextArena {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int

    init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 16)
        base = .allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    /// At least `bytes` bytes; earlier contents are not kept. Only between statement runs: a
    /// statement still bound to the old bytes must be reset first.
    func reserve(_ bytes: Int) -> UnsafeMutableRawPointer {
        if bytes > capacity {
            base.deallocate()
            capacity = max(bytes, capacity * 2)
            base = .allocate(byteCount: capacity, alignment: 16)
        }
        return base
    }
}
