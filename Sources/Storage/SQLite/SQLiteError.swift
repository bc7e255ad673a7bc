/// An error reported by SQLite: its (extended) result code, its message, and the SQL at fault.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code, e.g. 13 (SQLITE_FULL), 2067 (SQLITE_CONSTRAINT_UNIQUE).
    public let code: Int32
    public let message: String
    public let sql: String?
    /// The `errno` of the system call that failed under SQLite (`sqlite3_system_errno`), 0 if none.
    public let systemErrno: Int32
    /// The database file of the failing connection, when SQLite knows it (not for `:memory:`).
    public let path: String?

    public init(code: Int32, message: String, sql: String?, systemErrno: Int32 = 0, path: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
        self.path = path
    }

    /// The primary result code (the low byte of the extended code).
    public var primaryCode: Int32 { code & 0xFF }

    /// The file system ran out of space (or quota): `SQLITE_FULL`, or an I/O error whose system
    /// error is `ENOSPC`/`EDQUOT` (SQLite reports a failed extension of the -shm file that way).
    /// A transaction that fails so is rolled back whole; freeing space is all the next command needs.
    public var isDiskFull: Bool {
        primaryCode == SQLiteBoundary.fullCode
            || (primaryCode == SQLiteBoundary.ioErrorCode && SQLiteBoundary.isOutOfSpace(errno: systemErrno))
    }
    public var isBusy: Bool { primaryCode == SQLiteBoundary.busyCode }
    /// A sum or product left SQLite's 64-bit integers (plain `SQLITE_ERROR`, told by its message).
    public var isIntegerOverflow: Bool { primaryCode == 1 && message == "integer overflow" }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(sql.split(separator: "\n").first.map(String.init) ?? sql))" }
        return text
    }
}
