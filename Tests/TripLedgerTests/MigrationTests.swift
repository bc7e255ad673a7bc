import Embedded
import Foundation
import Rendering
import TestSupport
import Testing
import TripCore
import TripModel

@testable import Exchange
@testable import Storage
@testable import TripLedger

@Suite("Migrations")
struct MigrationTests {
    /// The repository's Migrations/ folder, found from this file's path.
    static var migrationsFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Migrations")
    }

    @Test func everyMigrationFileIsRegisteredInOrder() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.migrationsFolder.path)
            .filter { $0.hasSuffix(".sql") }.map { String($0.dropLast(4)) }.sorted()
        #expect(!files.isEmpty)
        #expect(Embedded.migrations.map(\.name) == files, "add new Migrations/*.sql files to Embedded.migrations")
        for (name, sql) in Embedded.migrations {
            let onDisk = try String(contentsOf: Self.migrationsFolder.appendingPathComponent(name + ".sql"), encoding: .utf8)
            #expect(String(decoding: sql, as: UTF8.self) == onDisk, "\(name) embedded copy is stale")
        }
    }

    @Test func freshLedgerIsAtLatestVersionWithEachMigrationRecorded() throws {
        let t = try TestLedger()
        #expect(try Migrator.version(of: t.ledger.database.db) == Migrator.latestVersion)
        var names: [String] = []
        try t.ledger.database.db.prepare("SELECT name FROM schema_migrations ORDER BY version").forEach { names.append($0.text(0)) }
        #expect(names == Embedded.migrations.map(\.name))
        #expect(try t.ledger.database.db.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try t.ledger.database.db.scalarInt("PRAGMA foreign_keys") == 1)
    }

    @Test func reopeningDoesNotReapply() throws {
        let t = try TestLedger()
        let again = try Ledger(path: t.path, settings: t.ledger.settings, clock: t.ledger.clock)
        #expect(try again.database.db.scalarInt("SELECT count(*) FROM schema_migrations") == Int64(Migrator.latestVersion))
    }

    @Test func ledgerFromANewerTripIsRefusedAndLeftUntouched() throws {
        let t = try TestLedger()
        try t.ledger.database.db.execute("PRAGMA user_version = \(Migrator.latestVersion + 5)")
        try t.ledger.database.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let before = try Data(contentsOf: URL(fileURLWithPath: t.path))
        #expect(throws: TripError.newerLedger(path: t.path, version: Migrator.latestVersion + 5, known: Migrator.latestVersion)) {
            try Ledger(path: t.path, settings: t.ledger.settings, clock: t.ledger.clock)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: t.path)) == before)
    }

    /// m0004 rebuilds `purchases`: a ledger at version 3 with purchases in it keeps every row and
    /// column (ids and import keys included), gets the other indexes back without
    /// purchases_provisional, and its rate_source CHECK accepts exactly the six sources.
    @Test func rateSourceCheckRebuildKeepsEveryRow() throws {
        let t = try TestLedger()
        _ = try t.ledger.createTrip(NewTrip(name: "Japan", localCurrency: "JPY", homeCurrency: "USD"))
        _ = try t.ledger.setManualRate(currency: "JPY", rate: "0.0067", in: nil, date: "2026-03-01")
        for d in [
            PurchaseDraft(amount: "3*1200", note: "ramen", category: "food", discount: "10%"),
            PurchaseDraft(amount: "25", currency: "SGD", note: "crab", tip: "10%"),
            PurchaseDraft(amount: "35000", currency: "MNT", note: "ger camp"),
            PurchaseDraft(amount: "180", currency: "SGD", note: "hotel", charged: "134.12"),
        ] {
            _ = try t.ledger.addPurchase(d)
        }
        let db = t.ledger.database.db
        try db.execute("UPDATE purchases SET import_key = id * 1000003")
        // The columns purchases had at version 3, read from a ledger built by m0001…m0003 alone, so
        // that a column a later migration adds is left out without being named here.
        let scratch = try Database(path: t.folder.file("v3.sqlite"))
        for m in Embedded.migrations.prefix(3) { try scratch.execute(String(decoding: m.sql, as: UTF8.self)) }
        var v3: [String] = []
        try scratch.prepare("SELECT name FROM pragma_table_info('purchases') ORDER BY cid").forEach { v3.append($0.text(0)) }
        #expect(v3.first == "id" && v3.last == "import_key" && !v3.contains("kind"), "\(v3)")
        let columns = v3.joined(separator: ", ")
        let rateSource = try #require(v3.firstIndex(of: "rate_source"))
        func rows() throws -> [[String]] {
            var out: [[String]] = []
            try db.prepare("SELECT \(columns) FROM purchases ORDER BY id").forEach { r in
                out.append((0..<r.columnCount).map { r.isNull($0) ? "NULL" : r.text($0) })
            }
            return out
        }
        let before = try rows()
        #expect(Set(before.map { $0[rateSource] }) == ["manual", "fallback", "none", "charged"])

        // Back to version 3: the table as m0001 made it (with m0003's column), its four indexes.
        try db.execute(
            """
            CREATE TABLE old AS SELECT \(columns) FROM purchases;
            DROP TABLE purchases;
            """)
        let m0001 = String(decoding: Embedded.migrations[0].sql, as: UTF8.self)
        let table = m0001[m0001.range(of: "CREATE TABLE purchases (")!.lowerBound...]
        let create = String(table[..<table.range(of: ");")!.upperBound])
        try db.execute(create)
        try db.execute("ALTER TABLE purchases ADD COLUMN import_key INTEGER")
        try db.execute(
            """
            CREATE INDEX purchases_by_trip_date ON purchases (trip_id, date, home_minor);
            CREATE INDEX purchases_report ON purchases (
                trip_id, category, currency, rate_source, provisional, tax_included,
                home_minor, home_discount_minor, home_service_minor, home_tax_minor, home_tip_minor, total_minor, date);
            CREATE INDEX purchases_provisional ON purchases (provisional, currency) WHERE provisional = 1;
            CREATE UNIQUE INDEX purchases_import_key ON purchases (import_key) WHERE import_key IS NOT NULL;
            INSERT INTO purchases (\(columns)) SELECT \(columns) FROM old;
            DROP TABLE old;
            DROP TRIGGER trips_id_high_water;
            DROP TRIGGER trips_trash;
            DROP TABLE id_high_water;
            DROP TABLE removed_purchases;
            DELETE FROM schema_migrations WHERE version >= 4;
            PRAGMA user_version = 3;
            """)
        // What the migrations after m0004 added, so that the ledger is really at version 3.
        try db.execute(
            """
            DROP VIEW sync_next_hlc;
            DROP TABLE sync_unknown_fields; DROP TABLE sync_device_roles; DROP TABLE sync_set_aside; DROP TABLE sync_log_versions; DROP TABLE sync_resolutions; DROP TABLE sync_devices;
            DROP TABLE sync_conflicts; DROP TABLE sync_outbox; DROP TABLE sync_rows;
            DROP TABLE shared_trips; DROP TABLE sync_state;
            DROP TABLE transfers; DROP TABLE purchase_splits; DROP TABLE members; DROP TABLE split_rest;
            ALTER TABLE manual_rates DROP COLUMN hlc; ALTER TABLE manual_rates DROP COLUMN device;
            """)
        #expect(try rows() == before)

        let reopened = try Ledger(path: t.path, settings: t.ledger.settings, clock: t.ledger.clock)
        #expect(try Migrator.version(of: reopened.database.db) == Migrator.latestVersion)
        #expect(try rows() == before)
        var indexes: [String] = []
        try reopened.database.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'purchases' ORDER BY name")
            .forEach { indexes.append($0.text(0)) }
        #expect(indexes == ["purchases_by_trip_date", "purchases_import_key", "purchases_refund_of", "purchases_report"])
        #expect(try reopened.database.db.scalarText("PRAGMA integrity_check") == "ok")
        for source in RateSource.allCases {
            try reopened.database.db.execute("SAVEPOINT s")
            try reopened.database.db.run("UPDATE purchases SET rate_source = ? WHERE id = 1", [.text(source.rawValue)])
            try reopened.database.db.execute("ROLLBACK TO s")
            try reopened.database.db.execute("RELEASE s")
        }
        for bad in ["Provider", "", "cash"] {
            #expect(throws: SQLiteError.self) {
                try reopened.database.db.run("UPDATE purchases SET rate_source = ? WHERE id = 1", [.text(bad)])
            }
        }
    }

    @Test func ledgerFileIsPrivate() throws {
        let t = try TestLedger()
        let attrs = try FileManager.default.attributesOfItem(atPath: t.path)
        #expect((attrs[.posixPermissions] as? Int).map { $0 & 0o077 } == 0)
    }
}

@Suite("SQLite wrapper")
struct SQLiteWrapperTests {
    @Test func errorsCarryCodeMessageAndSQL() throws {
        let folder = TemporaryFolder()
        let db = try Database(path: folder.file("x.sqlite"))
        try db.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT NOT NULL UNIQUE)")
        try db.run("INSERT INTO t (b) VALUES (?)", ["x"])
        let e = sqliteError { () throws(SQLiteError) in try db.run("INSERT INTO t (b) VALUES (?)", ["x"]) }
        #expect(e?.code == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(e?.message.contains("UNIQUE") == true)
        #expect(e?.sql == "INSERT INTO t (b) VALUES (?)")
        let syntaxError = sqliteError { () throws(SQLiteError) in _ = try db.prepare("SELEKT 1") }
        #expect(syntaxError?.primaryCode == 1)
        #expect(syntaxError?.sql == "SELEKT 1")
    }

    @Test func transactionRollsBackOnThrow() throws {
        let folder = TemporaryFolder()
        let db = try Database(path: folder.file("x.sqlite"))
        try db.execute("CREATE TABLE t (a INTEGER)")
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
        try db.transaction { try db.run("INSERT INTO t VALUES (?)", [.integer(2)]) }
        #expect(try db.scalarInt("SELECT sum(a) FROM t") == 2)
    }

    @Test func bindsTextAndNullsExactly() throws {
        let folder = TemporaryFolder()
        let db = try Database(path: folder.file("x.sqlite"))
        try db.execute("CREATE TABLE t (a TEXT)")
        let tricky = "'; DROP TABLE t; -- ✓ \u{1F600}"
        try db.run("INSERT INTO t VALUES (?)", [.text(tricky)])
        try db.run("INSERT INTO t VALUES (?)", [.null])
        #expect(try db.scalarText("SELECT a FROM t WHERE a IS NOT NULL") == tricky)
        #expect(try db.scalarInt("SELECT count(*) FROM t WHERE a IS NULL") == 1)
    }

    /// A new ledger another trip is creating: SQLite extends the file with zeros (the size hint of
    /// the memory map) and then writes the first page, all under its write lock. Opening it then
    /// waits for that lock instead of refusing the zeros as "not a SQLite file" (one process in a
    /// thousand failed so in `ConcurrencyTests.eightProcessesOpeningANewLedgerAtOnce`).
    @Test func aLedgerStillZerosUnderAnotherWritersLockIsWaitedFor() throws {
        let folder = TemporaryFolder()
        let path = folder.file("ledger.sqlite")
        nonisolated(unsafe) let writer = try Database(path: path)  // the thread alone uses it from here on
        try writer.execute("BEGIN EXCLUSIVE")
        // Into the file the writer holds (same inode), as SQLite's ftruncate does.
        #expect(truncate(path, 8192) == 0)
        let release = Thread {
            usleep(300_000)
            truncate(path, 0)  // as the writer's rollback of a new file leaves it
            try? writer.execute("ROLLBACK")
        }
        release.start()
        let ledger = try Ledger(path: path, settings: Settings.defaults(), clock: Clock(today: CivilDate(iso: "2026-03-02")!, now: "x"))
        #expect(try ledger.trips().isEmpty)
        let zeros = folder.file("zeros.sqlite")
        try Data(repeating: 0, count: 4096).write(to: URL(fileURLWithPath: zeros))
        #expect(throws: LedgerFileError(path: zeros, cause: .notSQLite)) {
            try Ledger(path: zeros, settings: Settings.defaults(), clock: Clock(today: CivilDate(iso: "2026-03-02")!, now: "x"))
        }
    }

    @Test func notADatabaseIsAClearError() throws {
        let folder = TemporaryFolder()
        let path = folder.file("junk.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect(throws: LedgerFileError(path: path, cause: .notSQLite)) {
            try Ledger(path: path, settings: Settings.defaults(), clock: Clock(today: CivilDate(iso: "2026-03-02")!, now: "x"))
        }
    }
}

/// The SQLiteError `body` throws, or nil.
func sqliteError(_ body: () throws(SQLiteError) -> Void) -> SQLiteError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

@Suite("Nested transactions")
struct NestedTransactionTests {
    @Test func innerFailureRollsBackOnlyTheInnerPart() throws {
        let folder = TemporaryFolder()
        let db = try Database(path: folder.file("x.sqlite"))
        try db.execute("CREATE TABLE t (a INTEGER)")
        struct Boom: Error {}
        try db.transaction {
            try db.run("INSERT INTO t VALUES (1)")
            _ = try? db.transaction { () throws -> Void in
                try db.run("INSERT INTO t VALUES (2)")
                throw Boom()
            }
            try db.transaction { try db.run("INSERT INTO t VALUES (3)") }
        }
        #expect(try db.scalarText("SELECT group_concat(a) FROM t") == "1,3")
    }
}
