import Foundation
import Rendering
import TripLedger
import TripModel

@testable import Storage

/// Read-only checks of a ledger file through the project's own `Database` (the real SQLite, not a
/// mock), for tests that must look at a ledger as a killed or failed command left it.
public enum LedgerInspection {
    /// `PRAGMA integrity_check` joined into one string: `"ok"` for a sound file. Opening the file
    /// replays a WAL left by a killed process, as the next trip command would.
    public static func integrity(_ path: String) throws -> String {
        let db = try Database(path: path, create: false)
        var lines: [String] = []
        try db.prepare("PRAGMA integrity_check").forEach { lines.append($0.text(0)) }
        return lines.joined(separator: "; ")
    }

    /// The first column of the first row of `sql` as an integer (0 when there is no row).
    public static func count(_ path: String, _ sql: String) throws -> Int {
        let db = try Database(path: path, create: false)
        return Int(try db.scalarInt(sql) ?? 0)
    }

    /// Each row of `sql` as its columns' texts joined by `|`, NULL as `NULL`: tables compared
    /// between two ledgers whole.
    public static func rows(_ path: String, _ sql: String) throws -> [String] {
        let db = try Database(path: path, create: false)
        var out: [String] = []
        try db.prepare(sql).forEach { s in
            out.append((0..<s.columnCount).map { s.optionalText($0) ?? "NULL" }.joined(separator: "|"))
        }
        return out
    }

    /// Runs `sql` on the SQLite file at `path`, creating it if needed (to build files that are not
    /// ledgers, or to change one behind trip's back).
    public static func execute(_ path: String, _ sql: String) throws {
        let db = try Database(path: path, create: true)
        try db.execute(sql)
    }

    /// Opens the ledger, checkpoints its WAL into the file and closes it; as the last connection,
    /// the close removes the -wal and -shm files.
    public static func checkpoint(_ path: String) throws {
        let db = try Database(path: path, create: false)
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Copies a closed ledger (and its -wal, if any) to `destination`, replacing what is there.
    public static func copy(_ path: String, to destination: String) throws {
        let fm = FileManager.default
        for suffix in ["", "-wal", "-shm"] {
            try? fm.removeItem(atPath: destination + suffix)
            if fm.fileExists(atPath: path + suffix) { try fm.copyItem(atPath: path + suffix, toPath: destination + suffix) }
        }
    }

    /// Runs `body` while this process holds a write transaction on the ledger at `path` (one that
    /// has written, uncommitted), as another `trip` in the middle of a command; then rolls it back.
    public static func whileWriting<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let db = try Database(path: path, create: false)
        try db.execute("BEGIN IMMEDIATE")
        defer { try? db.execute("ROLLBACK") }
        try db.execute("UPDATE trips SET name = name")
        return try body()
    }

    /// The permission bits of `path` (e.g. `0o600`), or `nil` when it does not exist.
    public static func mode(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int(st.st_mode & 0o777)
    }
}
