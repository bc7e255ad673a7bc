import Embedded
import TripCore

/// Applies `Migrations/*.sql` (compiled in, see `Embedded.migrations`) in order.
///
/// Each migration runs in its own transaction together with its row in `schema_migrations` and the
/// new `PRAGMA user_version`, so a ledger is always at a whole version. `user_version` is the fast
/// path: one read when the ledger is current.
public enum Migrator {
    /// The schema version this build writes: the number of embedded migrations.
    public static var latestVersion: Int { Embedded.migrations.count }

    /// The ledger's schema version, read without writing anything.
    static func version(of db: Database) throws(SQLiteError) -> Int {
        Int(try db.scalarInt("PRAGMA user_version") ?? 0)
    }

    /// Brings `db` up to `latestVersion`. A ledger from a newer trip is refused before any write.
    static func migrate(_ db: Database, now: String) throws {
        let current = try version(of: db)
        if current == latestVersion { return }
        if current > latestVersion {
            throw TripError.newerLedger(path: db.path, version: current, known: latestVersion)
        }
        // A new ledger takes every migration in one transaction: the WAL then holds each page once,
        // where one transaction per migration appends a page again for each migration that touches
        // it (the schema's pages, every time), and a first command on a small disk needs about
        // twice the ledger's size instead of three times. Each migration is still whole.
        if current == 0 {
            try db.transaction { try apply(db, from: 0, now: now) }
        } else {
            try apply(db, from: current, now: now)
        }
    }

    /// What a migration needs done in Swift after its SQL, in its transaction: SQLite cannot
    /// create a trigger only where a table has rows.
    private static func followUp(_ name: String, _ db: Database) throws {
        if name == "m0024_one_clock_tick" { try SyncStore(db: db).reinstallTriggers() }
    }

    private static func apply(_ db: Database, from current: Int, now: String) throws {
        for (index, migration) in Embedded.migrations.enumerated() where index >= current {
            let version = index + 1
            try db.transaction {
                // Another trip process may have applied it while this one waited for the write
                // lock (the first commands on a new ledger, started together).
                if try Migrator.version(of: db) >= version { return }
                try db.execute(
                    """
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)
                    """)
                try db.execute(String(decoding: migration.sql, as: UTF8.self))
                try followUp(migration.name, db)
                try db.run(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    [.integer(Int64(version)), .text(migration.name), .text(now)])
                // sql-built: PRAGMA takes no bound parameters; `version` is our own integer, not input.
                try db.execute("PRAGMA user_version = \(version)")
            }
        }
    }
}
