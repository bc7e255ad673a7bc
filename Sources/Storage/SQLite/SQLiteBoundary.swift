import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place that calls the SQLite C API. Return codes become `SQLiteError`s here; the rest of
/// TripLedger sees only `Database` and `Statement`.
enum SQLiteBoundary {
    typealias Connection = OpaquePointer
    typealias Handle = OpaquePointer

    static let row = SQLITE_ROW
    static let done = SQLITE_DONE

    /// Opens (creating if needed) a database file in multi-thread mode: SQLite takes no mutex per
    /// call (an INSERT of 64 rows binds 2,368 values), so a connection and its statements must only
    /// ever be used by one thread at a time. `trip` uses each connection from the thread that
    /// opened it; `trip import`'s reading thread never touches the database.
    /// The corresponding C function is `sqlite3_open_v2`.
    /// `readOnly` opens without write access (a ledger file the user may not write), so reading
    /// commands still work; any write then fails with `SQLITE_READONLY`.
    /// `immutable` (read-only only) tells SQLite the file cannot change while open, so it needs no
    /// -shm file: the one way to read a WAL-mode ledger in a folder this process cannot write.
    static func open(path: String, create: Bool, readOnly: Bool = false, immutable: Bool = false) throws(SQLiteError) -> Connection {
        var db: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let flags = access | SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0)
        let name = immutable ? "file:" + uriEscaped(path) + "?immutable=1" : path
        // "trip-unix" (shim.h): the unix VFS without a folder fsync for a -wal kept from the last command.
        let rc = sqlite3_open_v2(name, &db, flags, csqlite_trip_vfs_name())
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message, sql: nil)
        }
        sqlite3_extended_result_codes(db, 1)
        // No `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE` (7f48a39 set it to save `trip add` two fsyncs):
        // the last connection to close checkpoints the WAL into the main file and removes it, so
        // after every command the ledger file alone holds every committed change, and copying or
        // cloud-syncing that one file is a whole backup. README "Backups" gives the measured cost.
        return db
    }

    /// `path` as the path of a `file:` URI: every byte but unreserved ones percent-encoded.
    private static func uriEscaped(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80 && (c.isLetter || c.isNumber || "/-._~".contains(c)) {
                out.append(c)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return out
    }

    /// Keeps the -wal (and -shm) file when the last connection closes: its exit checkpoint then
    /// truncates the -wal to zero bytes (`journal_size_limit` ≥ 0) instead of deleting it, so the
    /// next command reuses both files rather than creating them again (two unlinks, two creates
    /// and a directory `fsync` per command). The main file still holds every commit after exit.
    /// The corresponding C function is `sqlite3_file_control` with `SQLITE_FCNTL_PERSIST_WAL`.
    static func persistWAL(_ db: Connection) {
        var on: Int32 = 1
        sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &on)
    }

    static func close(_ db: Connection) {
        sqlite3_close_v2(db)
    }

    static func busyTimeout(_ db: Connection, milliseconds: Int32) {
        sqlite3_busy_timeout(db, milliseconds)
    }

    /// Runs one or more statements with no parameters and no result rows. `sqlite3_exec`.
    static func exec(_ db: Connection, _ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let base = error(db, rc, sql)
            let message = errorMessage.map { String(cString: $0) } ?? base.message
            sqlite3_free(errorMessage)
            throw SQLiteError(code: rc, message: message, sql: sql, systemErrno: base.systemErrno, path: base.path)
        }
    }

    static func prepare(_ db: Connection, _ sql: String) throws(SQLiteError) -> Handle {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(db, rc, sql) }
        return stmt
    }

    static func finalize(_ stmt: Handle) { sqlite3_finalize(stmt) }

    /// The corresponding C function is `sqlite3_reset`.
    static func resetKeepingBindings(_ stmt: Handle) { sqlite3_reset(stmt) }

    static func reset(_ stmt: Handle) {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    static func bind(_ db: Connection, _ stmt: Handle, _ index: Int32, _ value: SQLValue, sql: String) throws(SQLiteError) {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(stmt, index)
        case .integer(let v): rc = sqlite3_bind_int64(stmt, index, v)
        case .text(let v):
            // Through the UTF-8 bytes with their length: passing the String as a C string would
            // first copy a small (inline) string into a new heap array.
            var text = v
            rc = text.withUTF8 { bytes -> Int32 in
                guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(stmt, index, "", 0, csqlite_transient()) }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(stmt, index, $0, Int32(bytes.count), csqlite_transient())
                }
            }
        }
        guard rc == SQLITE_OK else { throw error(db, rc, sql) }
    }

    /// The corresponding C function is `sqlite3_bind_int64`.
    @inline(__always)
    static func bindInt64(_ db: Connection, _ stmt: Handle, _ index: Int32, _ value: Int64, sql: String) throws(SQLiteError) {
        let rc = sqlite3_bind_int64(stmt, index, value)
        guard rc == SQLITE_OK else { throw error(db, rc, sql) }
    }

    /// Binds `count` bytes of UTF-8 that SQLite reads in place (`SQLITE_STATIC`) instead of copying:
    /// they must stay valid and unchanged until the statement is reset (with its bindings cleared,
    /// as `reset` does) or finalized. The corresponding C function is `sqlite3_bind_text`.
    static func bindTextInPlace(
        _ db: Connection, _ stmt: Handle, _ index: Int32, _ bytes: UnsafeRawPointer, count: Int,
        sql: String
    ) throws(SQLiteError) {
        let rc = sqlite3_bind_text(stmt, index, bytes.assumingMemoryBound(to: CChar.self), Int32(count), nil)
        guard rc == SQLITE_OK else { throw error(db, rc, sql) }
    }

    /// Advances a statement: `true` when a row is ready, `false` when done.
    static func step(_ db: Connection, _ stmt: Handle, sql: String) throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(stmt)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw error(db, rc, sql)
    }

    static func columnCount(_ stmt: Handle) -> Int32 { sqlite3_column_count(stmt) }

    static func columnIsNull(_ stmt: Handle, _ i: Int32) -> Bool { sqlite3_column_type(stmt, i) == SQLITE_NULL }

    static func columnInt64(_ stmt: Handle, _ i: Int32) -> Int64 { sqlite3_column_int64(stmt, i) }

    static func columnText(_ stmt: Handle, _ i: Int32) -> String? {
        guard let p = sqlite3_column_text(stmt, i) else { return nil }
        let n = Int(sqlite3_column_bytes(stmt, i))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// Column `i`'s text as bytes, valid only until the statement steps again: for a hot loop that
    /// parses a column without making a `String` of it.
    static func columnBytes(_ stmt: Handle, _ i: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let p = sqlite3_column_text(stmt, i) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(stmt, i)))
    }

    static func changes(_ db: Connection) -> Int { Int(sqlite3_changes(db)) }

    static func lastInsertRowID(_ db: Connection) -> Int64 { sqlite3_last_insert_rowid(db) }

    /// The error of the last failed call on `db`, with the system `errno` behind it and the file name,
    /// so that a full disk can be told apart from other I/O errors and named.
    static func error(_ db: Connection, _ rc: Int32, _ sql: String?) -> SQLiteError {
        let file = sqlite3_db_filename(db, "main").map { String(cString: $0) }
        return SQLiteError(
            code: rc, message: String(cString: sqlite3_errmsg(db)), sql: sql,
            systemErrno: sqlite3_system_errno(db), path: file?.isEmpty == false ? file : nil)
    }

    static func isOutOfSpace(errno code: Int32) -> Bool { code == ENOSPC || code == EDQUOT }

    static let fullCode = SQLITE_FULL
    static let ioErrorCode = SQLITE_IOERR
    static let busyCode = SQLITE_BUSY
    static let notADatabaseCode = SQLITE_NOTADB
    static let cantOpenCode = SQLITE_CANTOPEN
    static let readOnlyCode = SQLITE_READONLY
}

private extension String {
    /// A one-digit hex byte as two digits.
    var leftPadded: String { count == 1 ? "0" + self : self }
}
