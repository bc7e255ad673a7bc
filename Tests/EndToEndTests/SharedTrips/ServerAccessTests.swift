import Foundation
import TestSupport
import Testing

/// What a role's hand-written SQL comes to: refused (psql failed), or allowed, with what psql
/// printed (unaligned, tuples only, trimmed).
enum Access: Equatable, Sendable, CustomStringConvertible {
    case refused
    case returns(String)

    var description: String {
        switch self {
        case .refused: "refused"
        case let .returns(out): "allowed, returning \"\(out)\""
        }
    }
}

/// One attempt on one table or function of schema `trip_ledger`, and what each role must get:
/// the owner (ana), the grantee (ben) and the stranger (dave); nil: that role does not try.
struct AccessProbe: Sendable {
    let object: String
    let operation: String
    let sql: String
    let owner: Access?
    let grantee: Access?
    let stranger: Access?
}

@Suite("Server access: each role reaches exactly its own trips")
struct ServerAccessTests {
    /// Ana shares a trip with Ben, who joined it and pushed a purchase; Dave is a stranger. Each of
    /// them tries, with hand-written SQL, every operation on every table and function of the
    /// schema: each is allowed or refused (or sees nothing) exactly as the table says. Afterwards
    /// the trip's numbering, owner and grants are as the allowed attempts left them, and both
    /// devices still sync.
    @Test func everyRoleGetsExactlyWhatTheTableSays() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        try #require(ana.run("new", "Tromso", "--currency", "NOK", "--home", "NOK").exitCode == 0)
        try #require(ana.run("add", "100", "waffles").exitCode == 0)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        try #require(ben.run("join", "Tromso").exitCode == 0)
        // A grantee's push goes through lock_trip and the numbering trigger.
        try #require(ben.run("add", "40", "coffee").exitCode == 0)
        let benSync = try ben.run("sync")
        try #require(benSync.exitCode == 0, "\(benSync.stderr)")
        try #require(ana.run("sync").exitCode == 0)
        #expect(try notes(ana) == ["coffee", "waffles"])

        let c = world.cluster, db = world.database
        func admin(_ sql: String) throws -> String {
            try c.psql("tripadmin", database: db, sql).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let gid = try admin("SELECT gid FROM trip_ledger.trips WHERE name = 'Tromso'")
        try #require(!gid.isEmpty)
        let before = try #require(Int(try admin("SELECT last_seq FROM trip_ledger.trips WHERE gid = '\(gid)'")))
        #expect(try admin("SELECT max(seq) FROM trip_ledger.changes WHERE trip_gid = '\(gid)'") == String(before))

        let no = Access.refused
        func yes(_ out: String) -> Access { .returns(out) }
        /// A data-modifying statement as a count of the rows it touched.
        func count(_ dml: String) -> String { "WITH r AS (\(dml) RETURNING 1) SELECT count(*) FROM r" }
        /// One row of the table: what the owner, the grantee and the stranger get.
        func probe(_ object: String, _ operation: String, _ sql: String, _ owner: Access?, _ grantee: Access?, _ stranger: Access?)
            -> AccessProbe
        { AccessProbe(object: object, operation: operation, sql: sql, owner: owner, grantee: grantee, stranger: stranger) }
        func refused(_ object: String, _ operation: String, _ sql: String) -> AccessProbe { probe(object, operation, sql, no, no, no) }
        let g = "'\(gid)'"
        let change = "INSERT INTO trip_ledger.changes (trip_gid, seq, change_id, kind, gid, op, hlc, base_hlc, device, payload)"
        let tail = "'purchase', 'probe', 'delete', 1, 0, 'probe', NULL"
        /// One well-formed change of the role's own probe device, as `push` takes it.
        let held = """
            jsonb_build_array(jsonb_build_object('change_id', 'probe-' || current_user, 'kind', 'held', 'gid',
              'held:' || \(g) || ':probe-' || current_user, 'op', 'put', 'hlc', 1, 'base_hlc', 0, 'payload', '{"count":0}'))
            """
        // Schema 8: no role but the administrator has any privilege on the tables; everything goes
        // through the functions, which answer with the role's own trips only.
        let probes: [AccessProbe] = [
            refused("trips", "SELECT", "SELECT count(*) FROM trip_ledger.trips WHERE gid = \(g)"),
            refused("trips", "SELECT … FOR UPDATE", "SELECT last_seq FROM trip_ledger.trips WHERE gid = \(g) FOR UPDATE"),
            refused("trips", "INSERT in ana's name", count("INSERT INTO trip_ledger.trips (gid, name, owner) VALUES ('probe-trip', 'Probe', 'ana')")),
            refused("trips", "UPDATE last_seq = 0", count("UPDATE trip_ledger.trips SET last_seq = 0 WHERE gid = \(g)")),
            refused("trips", "UPDATE owner", count("UPDATE trip_ledger.trips SET owner = current_user WHERE gid = \(g)")),
            refused("trips", "UPDATE name", count("UPDATE trip_ledger.trips SET name = 'Mine' WHERE gid = \(g)")),
            refused("trips", "DELETE", count("DELETE FROM trip_ledger.trips WHERE gid = \(g)")),

            refused("grants", "SELECT", "SELECT string_agg(role, ',') FROM trip_ledger.grants WHERE trip_gid = \(g)"),
            refused("grants", "INSERT a grant to carla", count("INSERT INTO trip_ledger.grants (trip_gid, role) VALUES (\(g), 'carla')")),
            refused("grants", "UPDATE", count("UPDATE trip_ledger.grants SET role = 'dave' WHERE trip_gid = \(g)")),
            refused("grants", "DELETE ben's grant", count("DELETE FROM trip_ledger.grants WHERE trip_gid = \(g) AND role = 'ben'")),

            refused("changes", "SELECT", "SELECT count(*) > 0 FROM trip_ledger.changes WHERE trip_gid = \(g)"),
            refused(
                "changes", "INSERT numbered right after the last",
                count("\(change) SELECT \(g), trip_ledger.lock_trip(\(g)) + 1, 'probe-' || current_user, \(tail)")),
            refused("changes", "INSERT numbered from 1 again", count("\(change) VALUES (\(g), 1, 'again-' || current_user, \(tail))")),
            refused("changes", "UPDATE", count("UPDATE trip_ledger.changes SET payload = NULL WHERE trip_gid = \(g)")),
            refused("changes", "DELETE", count("DELETE FROM trip_ledger.changes WHERE trip_gid = \(g)")),
            refused("changes", "DISABLE TRIGGER", "ALTER TABLE trip_ledger.changes DISABLE TRIGGER changes_numbered"),
            refused("devices", "SELECT", "SELECT count(*) FROM trip_ledger.devices"),
            refused("gids", "SELECT", "SELECT count(*) FROM trip_ledger.gids"),
            refused("deleted_trips", "SELECT", "SELECT count(*) FROM trip_ledger.deleted_trips"),

            probe(
                "meta", "SELECT", "SELECT value FROM trip_ledger.meta WHERE key = 'schema_version'",
                yes("8"), yes("8"), yes("8")),
            refused("meta", "INSERT", count("INSERT INTO trip_ledger.meta VALUES ('probe', 'x')")),
            refused("meta", "UPDATE", count("UPDATE trip_ledger.meta SET value = '99'")),
            refused("meta", "DELETE", count("DELETE FROM trip_ledger.meta")),

            probe("my_trips", "EXECUTE", "SELECT count(*) FROM trip_ledger.my_trips() WHERE gid = \(g)", yes("1"), yes("1"), yes("0")),
            probe("read_log", "EXECUTE", "SELECT count(*) > 0 FROM trip_ledger.read_log(\(g), 0, NULL)", yes("t"), yes("t"), yes("f")),
            probe("last_seq", "EXECUTE", "SELECT trip_ledger.last_seq(\(g)) IS NOT NULL", yes("t"), yes("t"), yes("f")),
            probe("trip_known", "EXECUTE (the id is known)", "SELECT trip_ledger.trip_known(\(g))", yes("t"), yes("t"), yes("t")),
            probe("lock_holder", "EXECUTE", "SELECT trip_ledger.lock_holder(\(g)) IS NULL", yes("t"), yes("t"), yes("t")),
            probe("grant_trip", "EXECUTE to carla", "SELECT trip_ledger.grant_trip(\(g), 'carla')", yes("t"), no, no),
            probe("revoke_trip", "EXECUTE from carla", "SELECT trip_ledger.revoke_trip(\(g), 'carla')", yes("t"), no, no),
            probe("revoke_trip", "EXECUTE from ben", "SELECT trip_ledger.revoke_trip(\(g), 'ben')", nil, no, no),
            probe(
                "create_trip", "EXECUTE, a trip of one's own", "SELECT trip_ledger.create_trip('probe-' || current_user, 'Probe')",
                yes("t"), yes("t"), yes("t")),
            probe("create_trip", "EXECUTE, the trip's id", "SELECT trip_ledger.create_trip(\(g), 'Mine')", yes("f"), yes("f"), yes("f")),
            probe(
                "push", "EXECUTE, a well-formed change", "SELECT added FROM trip_ledger.push(\(g), 'probe-' || current_user, \(held))",
                yes("1"), yes("1"), no),
            refused("may_use", "EXECUTE", "SELECT trip_ledger.may_use(\(g), 0)"),
            refused("remember_deleted", "EXECUTE (a trigger's function)", "SELECT trip_ledger.remember_deleted()"),

            probe(
                "trips_of", "EXECUTE for oneself", "SELECT count(*) FROM trip_ledger.trips_of(current_user) t WHERE t = \(g)",
                yes("1"), yes("1"), yes("0")),
            probe(
                "trips_of", "EXECUTE for 'ana'", "SELECT count(*) FROM trip_ledger.trips_of('ana') t WHERE t = \(g)",
                yes("1"), yes("0"), yes("0")),
            probe("trips_of", "EXECUTE for 'ana', every trip", "SELECT count(*) FROM trip_ledger.trips_of('ana')", nil, yes("0"), yes("0")),
            probe(
                "trips_of", "EXECUTE for 'ben'", "SELECT count(*) FROM trip_ledger.trips_of('ben') t WHERE t = \(g)",
                yes("0"), yes("1"), yes("0")),
            probe("can_access", "EXECUTE for oneself", "SELECT trip_ledger.can_access(\(g), current_user)", yes("t"), yes("t"), yes("f")),
            probe("can_access", "EXECUTE for 'ben'", "SELECT trip_ledger.can_access(\(g), 'ben')", yes("f"), yes("t"), yes("f")),
            probe("can_access", "EXECUTE for 'ana'", "SELECT trip_ledger.can_access(\(g), 'ana')", yes("t"), yes("f"), yes("f")),
            probe("lock_trip", "EXECUTE", "SELECT trip_ledger.lock_trip(\(g)) IS NOT NULL", yes("t"), yes("t"), yes("f")),
            refused("number_changes", "EXECUTE (the trigger's function)", "SELECT trip_ledger.number_changes()"),
        ]

        // The owner tries last: what she may change (a grant given, then revoked) does not
        // change what the others find.
        for p in probes {
            for (role, part, expected) in [("dave", "stranger", p.stranger), ("ben", "grantee", p.grantee), ("ana", "owner", p.owner)] {
                guard let expected else { continue }
                let got: Access
                var why = ""
                do {
                    got = .returns(try c.psql(role, database: db, p.sql).trimmingCharacters(in: .whitespacesAndNewlines))
                } catch {
                    got = .refused
                    why = " (\(String(describing: error).trimmingCharacters(in: .whitespacesAndNewlines)))"
                }
                #expect(got == expected, "\(role) (\(part)), \(p.operation) on \(p.object): expected \(expected), got \(got)\(why)")
            }
        }

        // The trip as the allowed attempts left it: two changes more (the owner's and the
        // grantee's pushes), numbered on, same owner and name, Ben its only grantee.
        #expect(
            try admin("SELECT last_seq, owner, name FROM trip_ledger.trips WHERE gid = \(g)") == "\(before + 2)|ana|Tromso",
            "nobody but the trigger moved last_seq")
        let added = "SELECT string_agg(seq::text, ',' ORDER BY seq) FROM trip_ledger.changes WHERE trip_gid = \(g) AND seq > \(before)"
        #expect(try admin(added) == "\(before + 1),\(before + 2)")
        #expect(try admin("SELECT string_agg(role, ',') FROM trip_ledger.grants WHERE trip_gid = \(g)") == "ben")
        // The administrator, who owns the tables, may change and remove changes and trips.
        #expect(try admin(count("UPDATE trip_ledger.changes SET payload = payload WHERE trip_gid = \(g) AND change_id LIKE 'probe-%'")) == "2")
        #expect(try admin(count("DELETE FROM trip_ledger.changes WHERE trip_gid = \(g) AND change_id LIKE 'probe-%'")) == "2")
        #expect(try admin(count("DELETE FROM trip_ledger.trips WHERE gid LIKE 'probe-%'")) == "3")

        // Both devices still sync: Ana's push is numbered after the last number given.
        try #require(ana.run("add", "55", "fjord").exitCode == 0)
        let anaSync = try ana.run("sync")
        #expect(anaSync.exitCode == 0, "\(anaSync.stderr)")
        #expect(try ben.run("sync").exitCode == 0)
        #expect(try notes(ben) == ["coffee", "fjord", "waffles"])
        #expect(try admin("SELECT last_seq FROM trip_ledger.trips WHERE gid = \(g)") == String(before + 3))
    }

    /// Only the owner grants the trip: Ben, a grantee, cannot pass it on with `trip share --with`.
    @Test func onlyTheOwnerGrantsTheTrip() throws {
        let world = try SharedTripWorld()
        let (_, ben) = try world.anaSharesWithBen("Narvik", purchases: [("20", "bus")])
        let share = try ben.run("share", "--with", "dave")
        #expect(share.exitCode == 77, "\(share.stderr)")
        #expect(share.stderr.contains("only the owner of \"Narvik\", ana, grants or revokes it"), "\(share.stderr)")
        let grants = try world.cluster.psql("tripadmin", database: world.database, "SELECT string_agg(role, ',') FROM trip_ledger.grants")
        #expect(grants == "ben\n")
    }
}
