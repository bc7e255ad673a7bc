import Embedded
import Foundation
import Testing
import TestSupport
import TripCore
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
        #expect(try Migrator.version(of: t.ledger.db) == Migrator.latestVersion)
        var names: [String] = []
        try t.ledger.db.prepare("SELECT name FROM schema_migrations ORDER BY version").forEach { names.append($0.text(0)) }
        #expect(names == Embedded.migrations.map(\.name))
        #expect(try t.ledger.db.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try t.ledger.db.scalarInt("PRAGMA foreign_keys") == 1)
    }

    @Test func reopeningDoesNotReapply() throws {
        let t = try TestLedger()
        let again = try Ledger(path: t.path, settings: t.ledger.settings, clock: t.ledger.clock)
        #expect(try again.db.scalarInt("SELECT count(*) FROM schema_migrations") == Int64(Migrator.latestVersion))
    }

    @Test func ledgerFromANewerTripIsRefusedAndLeftUntouched() throws {
        let t = try TestLedger()
        try t.ledger.db.execute("PRAGMA user_version = \(Migrator.latestVersion + 5)")
        try t.ledger.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let before = try Data(contentsOf: URL(fileURLWithPath: t.path))
        #expect(throws: TripError.newerLedger(path: t.path, version: Migrator.latestVersion + 5, known: Migrator.latestVersion)) {
            try Ledger(path: t.path, settings: t.ledger.settings, clock: t.ledger.clock)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: t.path)) == before)
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
        #expect(e?.code == 2067)    // SQLITE_CONSTRAINT_UNIQUE
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

    @Test func notADatabaseIsAClearError() throws {
        let folder = TemporaryFolder()
        let path = folder.file("junk.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect(throws: TripError.self) {
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
