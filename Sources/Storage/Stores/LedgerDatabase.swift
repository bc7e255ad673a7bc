import TripCore

/// The ledger's SQLite file, open and migrated. Only the stores (this folder) read or write through
/// it; the rest of the ledger asks them, and runs its operations in `transaction`.
package struct LedgerDatabase {
    let db: Database

    /// Opens the file at `path` (see `Ledger.init`) and migrates it.
    package static func open(path: String, exists: Bool, writable: Bool, create: Bool, now: String) throws -> LedgerDatabase {
        let db: Database
        do {
            db = try Database(path: path, create: create, readOnly: !writable)
            _ = try Migrator.version(of: db)  // fails here for a file that is not SQLite
        } catch {
            throw LedgerFileError(error, path: path) ?? TripError.storage("ledger: cannot open \(quoted(path)): \(error.message)")
        }
        let version = try Migrator.version(of: db)
        if version > Migrator.latestVersion {
            throw TripError.newerLedger(path: path, version: version, known: Migrator.latestVersion)
        }
        // One statement, so one snapshot: another trip may be creating this ledger right now, and
        // its first migration writes the tables and the version in one commit.
        if version == 0, exists,
            try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE (SELECT user_version FROM pragma_user_version) = 0") ?? 0 > 0
        {
            throw LedgerFileError(path: path, cause: .notALedger)
        }
        if db.isReadOnly && version < Migrator.latestVersion {
            throw LedgerFileError(path: path, cause: .readOnly)
        }
        try db.enableWAL()
        try Migrator.migrate(db, now: now)
        return LedgerDatabase(db: db)
    }

    package var path: String { db.path }

    /// Runs `body` as one transaction, or inside the one already open.
    package func transaction<T>(_ body: () throws -> T) throws -> T { try db.transaction(body) }

    /// For a long read that streams its rows out (a listing, an export).
    package func preferStreaming() throws { try db.preferStreaming() }

    /// Folds the WAL into the file and empties it; with `analyze`, first refreshes the query
    /// planner's statistics.
    package func checkpoint(analyze: Bool = false) throws {
        if analyze { try db.execute("ANALYZE") }
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Writes a consistent copy of the whole ledger into the empty file `target`. `VACUUM INTO`
    /// reads the ledger in one read transaction, so the copy is the ledger as of one commit even
    /// while other trip processes write.
    package func copy(into target: String) throws(SQLiteError) {
        try db.run("VACUUM INTO ?", [.text(target)])
    }

    /// Runs a bulk load (`trip import`) with foreign keys off, checked by the caller once per trip
    /// at the end rather than by a parent lookup per row, and with a second sorter thread. The
    /// foreign-key pragma only takes effect outside a transaction: inside a caller's transaction it
    /// is a no-op and SQLite keeps checking. Temporary storage stays at SQLite's default (files):
    /// SQLite's sorter uses worker threads only then (`temp_store = MEMORY` turns them off), and the
    /// inserts need no statement journal. The threads pragma only tunes speed, so a refusal is not
    /// an error.
    package func bulkLoad<T>(_ body: () throws -> T) throws -> T {
        let foreignKeys = try db.scalarInt("PRAGMA foreign_keys") ?? 1
        try db.execute("PRAGMA foreign_keys = OFF")
        defer { try? db.execute(foreignKeys == 0 ? "PRAGMA foreign_keys = OFF" : "PRAGMA foreign_keys = ON") }
        _ = try? db.execute("PRAGMA threads = 2")
        defer { try? db.execute("PRAGMA threads = 0") }
        return try body()
    }
}

extension LedgerDatabase {
    /// The sharing tables of this ledger.
    package var syncStore: SyncStore { SyncStore(db: db) }

    /// The purchase_splits table of this ledger.
    package var splitStore: SplitStore { SplitStore(db: db) }

    /// The transfers table of this ledger.
    package var transferStore: TransferStore { TransferStore(db: db) }

    /// The id_high_water table of this ledger.
    package var idStore: IDStore { IDStore(db: db) }

    /// The ledger_settings table of this ledger.
    package var settingsStore: SettingsStore { SettingsStore(db: db) }

    /// The purchases table of this ledger.
    package var purchaseStore: PurchaseStore { PurchaseStore(db: db) }

    /// The trips table of this ledger.
    package var tripStore: TripStore { TripStore(db: db) }

    /// The rate tables of this ledger.
    package var rateStore: RateStore { RateStore(db: db) }

    /// The members table of this ledger.
    package var memberStore: MemberStore { MemberStore(db: db) }
}
