/// An error reported by SQLite: its (extended) result code, its message, and the SQL at fault.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code, e.g. 13 (SQLITE_FULL), 2067 (SQLITE_CONSTRAINT_UNIQUE).
    public let code: Int32
    public let message: String
    public let sql: String?

    /// The primary result code (the low byte of the extended code).
    public var primaryCode: Int32 { code & 0xFF }

    public var isDiskFull: Bool { primaryCode == SQLiteBoundary.fullCode }
    public var isBusy: Bool { primaryCode == SQLiteBoundary.busyCode }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(sql.split(separator: "\n").first.map(String.init) ?? sql))" }
        return text
    }
}
