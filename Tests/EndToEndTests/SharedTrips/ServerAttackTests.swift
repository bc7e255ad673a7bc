import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 36, the server's side: a grantee (Ben) and a stranger (Dave) write by hand with `psql`
/// what a device never would, by every route the server offers (the tables directly, and schema
/// 8's functions), and the server refuses each one, naming it; the owner's devices keep syncing.
@Suite("Server attacks: the server accepts only well-formed changes from its own roles")
struct ServerAttackTests {
    /// Ana's trip "Japan" shared with Ben, who joined it, and her trip "Old" (shared with nobody);
    /// the global ids of both trips and of a purchase of "Old".
    struct Scene {
        let world: SharedTripWorld
        let ana: TripProcess
        let ben: TripProcess
        let japan: String
        let old: String
        let oldPurchase: String

        init() throws {
            world = try SharedTripWorld()
            (ana, ben) = try world.anaSharesWithBen("Japan", purchases: [("10", "ramen")])
            try #require(ana.run("new", "Old", "--currency", "EUR", "--home", "EUR").exitCode == 0)
            try #require(ana.run("add", "30", "museum").exitCode == 0)
            try #require(ana.run("add", "40", "train").exitCode == 0)
            try #require(ana.run("share").exitCode == 0)
            try #require(ana.run("sync").exitCode == 0)
            try #require(ana.run("use", "Japan").exitCode == 0)
            japan = try world.admin("SELECT gid FROM trip_ledger.trips WHERE name = 'Japan'")
            old = try world.admin("SELECT gid FROM trip_ledger.trips WHERE name = 'Old'")
            oldPurchase = try world.admin(
                "SELECT r ->> 0 FROM trip_ledger.changes, json_array_elements(payload::json -> 'rows') r WHERE kind = 'snapshot' AND trip_gid = '\(old)' LIMIT 1"
            )
            try #require(!japan.isEmpty && !old.isEmpty && !oldPurchase.isEmpty)
        }

        /// What `role` gets for `sql`: psql's output, or its error.
        func attempt(_ role: String, _ sql: String) -> Result<String, PostgresClusterError> {
            do {
                return .success(try world.cluster.psql(role, database: world.database, sql).trimmingCharacters(in: .whitespacesAndNewlines))
            } catch let error as PostgresClusterError {
                return .failure(error)
            } catch {
                return .failure(PostgresClusterError(message: "\(error)"))
            }
        }
    }

    /// Neither a grantee nor a stranger reads or writes a table: SELECT, INSERT and the planner
    /// probe of issue 36 (item 7: `EXPLAIN ANALYZE` with index scans forced, whose "Rows Removed
    /// by Filter" counted rows row-level security hid) are refused on every table.
    @Test func theTablesAreClosedToGranteesAndStrangers() throws {
        let s = try Scene()
        for role in ["ben", "dave"] {
            for (table, column) in [("trips", "gid"), ("changes", "gid"), ("grants", "trip_gid")] {
                let probe = """
                    SET enable_seqscan = off; EXPLAIN (ANALYZE) SELECT 1 FROM trip_ledger.\(table) WHERE \(column) >= '0' AND \(column) < 'z'
                    """
                for sql in [probe, "SELECT count(*) FROM trip_ledger.\(table)"] {
                    let got = s.attempt(role, sql)
                    guard case let .failure(error) = got else {
                        Issue.record("\(role): \(sql) was allowed: \(got)")
                        continue
                    }
                    #expect(error.message.contains("permission denied for table \(table)"), "\(role): \(error.message)")
                }
            }
            let insert = s.attempt(
                role,
                """
                INSERT INTO trip_ledger.changes (trip_gid, seq, change_id, kind, gid, op, hlc, base_hlc, device, payload)
                SELECT '\(s.japan)', trip_ledger.lock_trip('\(s.japan)') + 1, 'by-hand', 'purchase', 'by-hand', 'delete', 1, 0, 'x', NULL
                """)
            #expect(throws: PostgresClusterError.self, "\(role) inserted a change by hand") { try insert.get() }
        }
        // Through the functions, each sees its own trips only.
        #expect(try s.attempt("ben", "SELECT string_agg(name, ',' ORDER BY name) FROM trip_ledger.my_trips()").get() == "Japan")
        #expect(try s.attempt("dave", "SELECT count(*) FROM trip_ledger.my_trips()").get() == "0")
        #expect(try s.attempt("dave", "SELECT count(*) FROM trip_ledger.read_log('\(s.japan)', 0, NULL)").get() == "0")
        #expect(try s.attempt("ben", "SELECT count(*) FROM trip_ledger.read_log('\(s.old)', 0, NULL)").get() == "0")
        #expect(try s.attempt("ben", "SELECT count(*) > 0 FROM trip_ledger.read_log('\(s.japan)', 0, NULL)").get() == "t")
    }

    /// Each malformed change of issue 36 (items 1, 3, 4, 5, 8), written by Ben, a grantee of
    /// "Japan", both into the table after `lock_trip` (as schema 7 allowed) and through `push`:
    /// refused every way, with a reason naming what is wrong; a well-formed change goes through
    /// `push`; nothing reaches the log, and Ana's "Old" is untouched.
    @Test func pushRefusesEveryMalformedChange() throws {
        let s = try Scene()
        let anaDevice = try s.world.admin("SELECT device FROM trip_ledger.changes WHERE author = 'ana' LIMIT 1")
        let before = try s.world.admin("SELECT count(*) FROM trip_ledger.changes")
        let big = String(repeating: "x", count: 70_000)
        /// A change as `push` takes it, and as a row of the table (the values after trip_gid and seq).
        struct Forged {
            let name: String
            let kind: String
            let gid: String
            let hlc: String
            let payload: String
            var device = "ben-device"
            let refusal: String
        }
        let attacks = [
            Forged(name: "an unknown kind", kind: "bogus", gid: "bogus-1", hlc: "1", payload: "{}", refusal: "kind 'bogus' is not one of"),
            Forged(
                name: "a payload that is not JSON", kind: "purchase", gid: "p-notjson", hlc: "1", payload: "{not json",
                refusal: "its payload is not a JSON object"),
            Forged(
                name: "a 70,000-byte note", kind: "purchase", gid: "p-big", hlc: "1", payload: "{\"note\":\"\(big)\"}",
                refusal: "over the limit of 65536 bytes"),
            Forged(
                name: "a purchase of another trip", kind: "purchase", gid: s.oldPurchase, hlc: "1", payload: "{}",
                refusal: "belongs to another trip"),
            Forged(
                name: "the trip change of another trip", kind: "trip", gid: s.old, hlc: "1", payload: "{}",
                refusal: "is not one of this trip's trip ids"),
            Forged(
                name: "a member of another trip", kind: "member", gid: "member:\(s.old):ana", hlc: "1", payload: "{}",
                refusal: "is not one of this trip's member ids"),
            Forged(
                name: "a clock of 2^63-1", kind: "purchase", gid: "p-clock", hlc: "9223372036854775807", payload: "{}",
                refusal: "more than a day ahead of the server's time"),
            Forged(
                name: "Ana's device id", kind: "purchase", gid: "p-device", hlc: "1", payload: "{}", device: anaDevice,
                refusal: "registered to another role"),
        ]
        for a in attacks {
            let quoted = a.payload.replacingOccurrences(of: "'", with: "''")
            let byHand = s.attempt(
                "ben",
                """
                BEGIN;
                INSERT INTO trip_ledger.changes (trip_gid, seq, change_id, kind, gid, op, hlc, base_hlc, device, payload)
                SELECT '\(s.japan)', trip_ledger.lock_trip('\(s.japan)') + 1, 'forged', '\(a.kind)', '\(a.gid)', 'put', \(a.hlc), 0,
                       '\(a.device)', '\(quoted)';
                COMMIT;
                """)
            #expect(throws: PostgresClusterError.self, "\(a.name): written into the table by hand") { try byHand.get() }
            let json =
                "[{\"change_id\":\"forged\",\"kind\":\"\(a.kind)\",\"gid\":\"\(a.gid)\",\"op\":\"put\",\"hlc\":\(a.hlc),\"base_hlc\":0,"
                + "\"payload\":\(jsonString(a.payload))}]"
            let pushed = s.attempt(
                "ben", "SELECT added FROM trip_ledger.push('\(s.japan)', '\(a.device)', '\(json.replacingOccurrences(of: "'", with: "''"))')")
            switch pushed {
            case let .success(out): Issue.record("\(a.name): push accepted it (\(out))")
            case let .failure(error):
                #expect(error.message.contains("change forged: \(a.refusal)") || error.message.contains(a.refusal), "\(a.name): \(error.message)")
            }
        }
        #expect(try s.world.admin("SELECT count(*) FROM trip_ledger.changes") == before, "nothing reached the log")
        // A well-formed change from Ben's own device goes through.
        let good =
            "[{\"change_id\":\"fine\",\"kind\":\"held\",\"gid\":\"held:\(s.japan):ben-device\",\"op\":\"put\",\"hlc\":1,\"base_hlc\":0,"
            + "\"payload\":\"{\\\"count\\\":0}\"}]"
        #expect(try s.attempt("ben", "SELECT added FROM trip_ledger.push('\(s.japan)', 'ben-device', '\(good)')").get() == "1")
        // Ana's devices still sync, and "Old" is as she left it.
        try #require(s.ana.run("add", "5", "tea").exitCode == 0)
        let sync = try s.ana.run("sync", "--all")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(try s.ben.run("sync").exitCode == 0)
        #expect(try notes(s.ben) == ["ramen", "tea"])
        try #require(s.ana.run("use", "Old").exitCode == 0)
        #expect(try notes(s.ana) == ["museum", "train"])
    }

    /// Item 9: grants are kept by role OID. A role dropped and created again under its old name
    /// finds none of the old one's trips.
    @Test func aRoleDroppedAndCreatedAgainInheritsNoTrip() throws {
        let world = try SharedTripWorld()
        let erin = "erin_\(world.database)"
        let make = "CREATE ROLE \(erin) LOGIN PASSWORD '\(erin)-pw'"
        try world.cluster.psql("tripadmin", database: "postgres", make)
        defer { _ = try? world.cluster.psql("tripadmin", database: "postgres", "DROP ROLE IF EXISTS \(erin)") }
        let ana = world.device("ana")
        try #require(ana.run("new", "Riga", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("add", "12", "soup").exitCode == 0)
        try #require(ana.run("share", "--with", erin).exitCode == 0)
        let first = world.device(erin, ledger: "erin-1")
        #expect(try first.run("join", "Riga").exitCode == 0)
        try world.cluster.psql("tripadmin", database: "postgres", "DROP ROLE \(erin)")
        try world.cluster.psql("tripadmin", database: "postgres", make)
        let again = world.device(erin, ledger: "erin-2")
        let join = try again.run("join", "Riga")
        #expect(join.exitCode == 65, "\(join.stdout)\(join.stderr)")
        #expect(try world.cluster.psql(erin, database: world.database, "SELECT count(*) FROM trip_ledger.my_trips()") == "0\n")
        let sync = try first.run("sync")
        #expect(sync.exitCode == 77, "the old device, now the new role's: \(sync.stderr)")
    }

    /// Item 9: `trip remote init` refuses a schema `trip_ledger` another role owns (which could
    /// drop or replace every table), and one it did not create, each in one line saying how to
    /// fix it; nothing is created.
    @Test func initRefusesASchemaItDidNotCreate() throws {
        let cluster = try PostgresCluster.start()
        let folder = TemporaryFolder("trip-foreign-schema")
        let owned = try cluster.freshDatabase()
        try cluster.psql("tripadmin", database: owned, "GRANT CREATE ON DATABASE \(owned) TO dave")
        try cluster.psql("dave", database: owned, "CREATE SCHEMA trip_ledger; GRANT ALL ON SCHEMA trip_ledger TO PUBLIC")
        let other = try cluster.freshDatabase()
        try cluster.psql("tripadmin", database: other, "CREATE SCHEMA trip_ledger; CREATE TABLE trip_ledger.notes (body text)")
        for (database, says) in [(owned, "schema trip_ledger is owned by role dave, not by tripadmin"), (other, "was not created by trip")] {
            let admin = TripProcess(
                ledgerPath: folder.file("\(database).sqlite"), extra: ["TRIP_REMOTE": cluster.url("tripadmin", database: database)])
            let r = try admin.run("remote", "init")
            #expect(r.exitCode == 77, "\(r.stdout)\(r.stderr)")
            #expect(r.stderr.contains(says) && r.stderr.contains("DROP SCHEMA trip_ledger CASCADE"), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(try cluster.psql("tripadmin", database: database, "SELECT to_regclass('trip_ledger.meta') IS NULL") == "t\n")
        }
    }

    /// Item 9: a trip the administrator deleted is not created again: not by a grantee's
    /// hand-written SQL, not by `create_trip`, not by a sync of any device that had it.
    @Test func aTripTheAdministratorDeletedIsNotCreatedAgain() throws {
        let s = try Scene()
        try s.world.admin("DELETE FROM trip_ledger.trips WHERE gid = '\(s.japan)'")
        for sql in [
            "INSERT INTO trip_ledger.trips (gid, name, owner) VALUES ('\(s.japan)', 'Japan', current_user)",
            "SELECT trip_ledger.create_trip('\(s.japan)', 'Japan')",
        ] {
            #expect(throws: PostgresClusterError.self, "\(sql)") { try s.attempt("ben", sql).get() }
        }
        try #require(s.ben.run("add", "3", "gum").exitCode == 0)
        for device in [s.ben, s.ana] {
            let sync = try device.run("sync")
            #expect(sync.exitCode == 77, "\(sync.stdout)\(sync.stderr)")
        }
        #expect(try s.world.admin("SELECT count(*) FROM trip_ledger.trips WHERE gid = '\(s.japan)'") == "0")
        let share = try s.ana.run("share")
        #expect(share.exitCode == 77 && share.stderr.contains("was deleted from this server by its administrator"), "\(share.stderr)")
    }

    /// Item 8: a grantee holding the trip's lock in an open transaction stalls nobody for long:
    /// Ana's sync waits a few seconds, then names who holds it in one line and changes nothing.
    @Test func aHeldLockTimesOutNamingItsHolder() throws {
        let s = try Scene()
        try #require(s.ana.run("add", "7", "sake").exitCode == 0)
        let before = try s.world.admin("SELECT last_seq FROM trip_ledger.trips WHERE gid = '\(s.japan)'")
        let folder = TemporaryFolder("trip-lock")
        let holder = try spawn(
            "/usr/bin/psql",
            [
                "-X", "-q", "-At", s.world.cluster.url("ben", database: s.world.database), "-c",
                "BEGIN; SELECT trip_ledger.lock_trip('\(s.japan)'); SELECT pg_sleep(25); COMMIT;",
            ].map { Array($0.utf8) },
            environment: ["PATH": "/usr/bin:/bin"], stdin: "/dev/null", stdout: folder.file("out"), stderr: folder.file("err"))
        defer {
            kill(holder, SIGTERM)
            _ = waitForExit(holder)
        }
        // The lock is taken once psql's session shows it.
        for _ in 0..<100 {
            let held = try s.world.admin(
                "SELECT count(*) FROM pg_stat_activity WHERE usename = 'ben' AND query LIKE '%pg_sleep%' AND state = 'active'")
            if held == "1" { break }
            usleep(100_000)
        }
        usleep(500_000)
        let started = Date()
        let sync = try s.ana.run("sync")
        let waited = Date().timeIntervalSince(started)
        #expect(sync.exitCode == 69, "\(sync.stdout)\(sync.stderr)")
        #expect(sync.stderr.contains("the trip's lock is held by ben (process "), "\(sync.stderr)")
        #expect(sync.stderr.split(separator: "\n").count == 1, "\(sync.stderr)")
        #expect(waited < 15, "waited \(waited) s")
        #expect(try s.world.admin("SELECT last_seq FROM trip_ledger.trips WHERE gid = '\(s.japan)'") == before)
    }

    /// Item 5 (the server's part): a trip change whose payload is not JSON, left in the log (by an
    /// older server, or by the administrator), no longer makes every push fail on the server.
    @Test func aTripChangeThatIsNotJSONDoesNotStopPushes() throws {
        let s = try Scene()
        try s.world.admin(
            """
            INSERT INTO trip_ledger.changes (trip_gid, seq, change_id, kind, gid, op, hlc, base_hlc, device, payload)
            SELECT gid, last_seq + 1, 'broken-trip', 'trip', gid, 'put', 1, 0, 'elsewhere', '{not json' FROM trip_ledger.trips WHERE name = 'Japan'
            """)
        try #require(s.ben.run("add", "8", "onigiri").exitCode == 0)
        let sync = try s.ben.run("sync")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(try s.world.admin("SELECT count(*) FROM trip_ledger.changes WHERE author = 'ben'") != "0")
    }

    /// `trip remote init` upgrades a server of schema 7 (built here from the steps of
    /// ServerSchema.swift, with a trip, a grant and changes as schema 7 kept them): the grant
    /// carries over by OID, the device ids to the roles that pushed them, and the trip syncs.
    @Test func initUpgradesASchema7Server() throws {
        let world = try SharedTripWorld(initialize: false)
        let c = world.cluster, db = world.database
        try c.psql(
            "tripadmin", database: db,
            "CREATE SCHEMA trip_ledger; CREATE TABLE trip_ledger.meta (key text PRIMARY KEY, value text NOT NULL);"
                + ServerAttackTests.schemaSteps().prefix(7).joined(separator: "\n")
                + "INSERT INTO trip_ledger.meta VALUES ('schema_version', '7'), ('server_id', gen_random_uuid()::text);")
        let ana = world.device("ana"), ben = world.device("ben"), dave = world.device("dave")
        try #require(ana.run("new", "Tallinn", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("add", "9", "bread").exitCode == 0)
        let share = try ana.run("share", "--with", "ben")
        #expect(share.exitCode == 69 && share.stderr.contains("has trip schema 7, this trip needs 8"), "\(share.stderr)")
        // Ana's trip as schema 7 kept it: written as Ana, into the tables, as schema 7 let her.
        try c.psql(
            "ana", database: db,
            """
            BEGIN;
            INSERT INTO trip_ledger.trips (gid, name) VALUES ('old-trip', 'Vilnius');
            INSERT INTO trip_ledger.grants (trip_gid, role) VALUES ('old-trip', 'ben');
            INSERT INTO trip_ledger.changes (trip_gid, seq, change_id, kind, gid, op, hlc, base_hlc, device, payload)
            VALUES ('old-trip', 1, 'c1', 'trip', 'old-trip', 'put', 1, 0, 'ana-old-device',
                    '{"name":"Vilnius","currency":"EUR","home_currency":"EUR","created_at":"2026-03-01T00:00:00Z"}');
            COMMIT;
            """)
        let admin = TripProcess(ledgerPath: world.folder.file("admin.sqlite"), extra: ["TRIP_REMOTE": c.url("tripadmin", database: db)])
        let upgrade = try admin.run("remote", "init")
        #expect(upgrade.exitCode == 0, "\(upgrade.stderr)")
        #expect(try c.psql("tripadmin", database: db, "SELECT value FROM trip_ledger.meta WHERE key = 'schema_version'") == "8\n")
        #expect(try c.psql("ben", database: db, "SELECT string_agg(name || '/' || owner, ',') FROM trip_ledger.my_trips()") == "Vilnius/ana\n")
        #expect(try c.psql("dave", database: db, "SELECT count(*) FROM trip_ledger.my_trips()") == "0\n")
        #expect(
            try c.psql(
                "tripadmin", database: db, "SELECT d.device || '/' || r.rolname FROM trip_ledger.devices d JOIN pg_roles r ON r.oid = d.role_oid")
                == "ana-old-device/ana\n")
        #expect(try ana.run("share", "--with", "ben").exitCode == 0)
        let join = try ben.run("join", "Tallinn")
        #expect(join.exitCode == 0, "\(join.stderr)")
        #expect(try notes(ben) == ["bread"])
        #expect(try dave.run("join", "Tallinn").exitCode == 65)
    }

    /// The upgrade steps as ServerSchema.swift writes them, read from the source (the test target
    /// cannot import the server's module).
    static func schemaSteps() throws -> [String] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/RemoteSync/Schema/ServerSchema.swift").path
        let source = try String(contentsOfFile: path, encoding: .utf8)
        let steps = source.components(separatedBy: "static let steps")[1].components(separatedBy: "/// The server's schema version (0")[0]
        return steps.components(separatedBy: "\"\"\"").enumerated().filter { $0.offset % 2 == 1 }.map { block in
            block.element.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix("        ") ? $0.dropFirst(8) : $0 }
                .joined(separator: "\n")
        }
    }
}

/// `text` as a JSON string.
private func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

extension SharedTripWorld {
    /// Runs SQL as the administrator; its output, trimmed.
    @discardableResult
    func admin(_ sql: String) throws -> String {
        try cluster.psql("tripadmin", database: database, sql).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
