import Foundation
import TestSupport
import Testing

/// What a later release writes into a shared trip's log, as this release meets it (issue 35 item 3,
/// issue 36 "the wire format's version lets later releases keep syncing with this one"): a change of
/// a newer minor version is applied and the fields it adds come back unchanged when this device
/// edits the row; one of a newer major version is set aside on every device alike, and the pull
/// goes on. The later release's changes are written by hand into the log, as `tripadmin`.
@Suite("Shared trips: the wire format's version, and fields a newer release wrote")
struct WireFormatEndToEndTests {
    static func admin(_ world: SharedTripWorld, _ sql: String) throws -> String {
        try world.cluster.psql("tripadmin", database: world.database, sql).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A newer release's device.
    static let newerDevice = "'e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1'"
    static let now = "((extract(epoch FROM now()) * 1000)::bigint * 65536)"

    /// Writes a change into trip `trip`'s log, numbered after its last (SQL expressions but `trip`
    /// and `changeID`).
    static func forge(
        _ world: SharedTripWorld, trip: String, changeID: String, kind: String = "purchase", gid: String, baseHLC: String = "0",
        author: String = "ben", payload: String
    ) throws {
        _ = try admin(
            world,
            """
            BEGIN;
            INSERT INTO trip_ledger.changes (trip_gid, seq, change_id, kind, gid, op, hlc, base_hlc, device, author, payload)
            SELECT '\(trip)', (SELECT last_seq FROM trip_ledger.trips WHERE gid = '\(trip)' FOR UPDATE) + 1, '\(changeID)',
              '\(kind)', \(gid), 'put', \(now), \(baseHLC), \(newerDevice), '\(author)', \(payload);
            COMMIT;
            """)
    }

    /// The local number of the purchase noted `note` on device `d`.
    static func localID(_ d: TripProcess, note: String) throws -> Int {
        let r = try d.run("list", "--format", "json")
        try #require(r.exitCode == 0, "\(r.stderr)")
        let list = try #require(r.json["purchases"] as? [[String: Any]])
        return try #require(list.first { ($0["note"] as? String) == note }?["id"] as? Int, "no purchase \(note): \(r.stdout)")
    }

    @Test func aNewerMinorVersionsFieldsAreKeptAndSentBackUnchanged() throws {
        let world = try SharedTripWorld()
        let (ana, ben) = try world.anaSharesWithBen("Japan", purchases: [("30", "lunch"), ("12", "taxi")])
        let japan = try Self.admin(world, "SELECT gid FROM trip_ledger.trips WHERE name = 'Japan'")
        // A change of the taxi of its own, for the newer release to build on.
        try #require(ana.run("edit", String(try Self.localID(ana, note: "taxi")), "--note", "taxi to the hotel").exitCode == 0)
        try #require(ana.run("sync").exitCode == 0)
        let latest = "FROM trip_ledger.changes WHERE trip_gid = '\(japan)' AND kind = 'purchase' ORDER BY seq DESC LIMIT 1"
        #expect(try Self.admin(world, "SELECT payload::jsonb ->> 'v' \(latest)") == "1.0", "this release versions what it pushes")

        // Release 1.3 adds a receipt and a claim to a purchase, and edits the taxi.
        try Self.forge(
            world, trip: japan, changeID: "newer-minor", gid: "(SELECT gid \(latest))", baseHLC: "(SELECT hlc \(latest))",
            payload: """
                (SELECT ('{"v": "1.3", "receipt_id": "R-77", "claim_minor": 1200}'::jsonb || (payload::jsonb - 'v')
                  || '{"note": "taxi (receipt)"}'::jsonb)::text \(latest))
                """)
        for d in [ana, ben] {
            let s = try d.run("sync")
            #expect(s.exitCode == 0, "\(s.stderr)")
            #expect(try openSetAside(d).isEmpty)
            #expect(try notes(d) == ["lunch", "taxi (receipt)"])
            // Kept, never applied: no command shows them.
            for args in [["list", "--format", "json"], ["export", "--format", "json"]] {
                #expect(!(try d.run(args).stdout.contains("R-77")), "\(args)")
            }
        }
        #expect(try snapshot(ben) == snapshot(ana))

        // Ben edits the taxi: his change carries the newer release's fields as they came.
        try #require(ben.run("edit", String(try Self.localID(ben, note: "taxi (receipt)")), "--note", "taxi, shared").exitCode == 0)
        try #require(ben.run("sync").exitCode == 0)
        let sent = try Self.admin(
            world,
            """
            SELECT concat_ws('|', author, payload::jsonb ->> 'v', payload::jsonb ->> 'note', payload::jsonb -> 'receipt_id',
              payload::jsonb -> 'claim_minor') \(latest)
            """)
        #expect(sent == #"ben|1.0|taxi, shared|"R-77"|1200"#)
        try #require(ana.run("sync").exitCode == 0)
        #expect(try notes(ana) == ["lunch", "taxi, shared"])
        #expect(try snapshot(ben) == snapshot(ana))

        // A removal carries the purchase's last version: with them too.
        try #require(ana.run("rm", String(try Self.localID(ana, note: "taxi, shared"))).exitCode == 0)
        try #require(ana.run("sync").exitCode == 0)
        let removed = try Self.admin(
            world, "SELECT concat_ws('|', author, op, payload::jsonb -> 'receipt_id', payload::jsonb -> 'claim_minor') \(latest)")
        #expect(removed == #"ana|delete|"R-77"|1200"#)
    }

    /// An edit by release 1.3 of a purchase removed here goes into the trash with its fields kept
    /// beside it; `trip restore` brings the purchase back, and its change carries them.
    @Test func aNewerMinorVersionsFieldsSurviveTheTrash() throws {
        let world = try SharedTripWorld()
        let (ana, ben) = try world.anaSharesWithBen("Japan", purchases: [("30", "lunch"), ("12", "taxi")])
        let japan = try Self.admin(world, "SELECT gid FROM trip_ledger.trips WHERE name = 'Japan'")
        try #require(ben.run("rm", String(try Self.localID(ben, note: "lunch"))).exitCode == 0)
        try #require(ben.run("sync").exitCode == 0)
        let lunchID = String(try Self.localID(ana, note: "lunch"))
        try #require(ana.run("sync").exitCode == 0)
        #expect(try notes(ana) == ["taxi"])
        let latest = "FROM trip_ledger.changes WHERE trip_gid = '\(japan)' AND kind = 'purchase' ORDER BY seq DESC LIMIT 1"
        // Written without seeing the removal (built on the snapshot's version), later than it.
        try Self.forge(
            world, trip: japan, changeID: "newer-minor-trash", gid: "(SELECT gid \(latest))",
            payload: """
                (SELECT ('{"v": "1.3", "receipt_id": "R-9"}'::jsonb || (payload::jsonb - 'v')
                  || '{"note": "lunch (receipt)"}'::jsonb)::text \(latest))
                """)
        let s = try ana.run("sync")
        #expect(s.exitCode == 0, "\(s.stderr)")
        #expect(try notes(ana) == ["taxi"], "a removal wins over an edit that did not see it")
        let restore = try ana.run("restore", lunchID)
        try #require(restore.exitCode == 0, "\(restore.stderr)")
        try #require(ana.run("sync").exitCode == 0)
        #expect(try notes(ana) == ["lunch (receipt)", "taxi"])
        let sent = try Self.admin(world, "SELECT concat_ws('|', author, op, payload::jsonb ->> 'note', payload::jsonb ->> 'receipt_id') \(latest)")
        #expect(sent == "ana|restore|lunch (receipt)|R-9")
    }

    /// A first share written by release 1.3, whose purchases carry one more column: a join inserts
    /// them in bulk and keeps the column's values beside them; an edit sends its row's back.
    @Test func aNewerMinorVersionsSnapshotColumnIsKeptOnJoin() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        try #require(ana.run("new", "Japan", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        for (amount, note) in [("30", "lunch"), ("12", "taxi")] { try #require(ana.run("add", amount, note).exitCode == 0) }
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        let japan = try Self.admin(world, "SELECT gid FROM trip_ledger.trips WHERE name = 'Japan'")
        // The snapshot's head in its fixed order, its version first; each row gets `R-N`.
        _ = try Self.admin(
            world,
            """
            UPDATE trip_ledger.changes SET payload = '{"v":"1.3","count":' || (payload::jsonb ->> 'count')
              || ',"columns":' || ((payload::jsonb -> 'columns') || '["receipt_id"]'::jsonb)::text
              || ',"rows":' || (SELECT jsonb_agg(r.value || jsonb_build_array('R-' || r.n) ORDER BY r.n)
                                FROM jsonb_array_elements(payload::jsonb -> 'rows') WITH ORDINALITY r(value, n))::text || '}'
            WHERE trip_gid = '\(japan)' AND kind = 'snapshot'
            """)
        let join = try ben.run("join", "Japan")
        try #require(join.exitCode == 0, "\(join.stderr)")
        #expect(try openSetAside(ben).isEmpty)
        #expect(try notes(ben) == ["lunch", "taxi"])
        #expect(try snapshot(ben) == snapshot(ana))

        try #require(ben.run("edit", String(try Self.localID(ben, note: "taxi")), "--note", "taxi, shared").exitCode == 0)
        try #require(ben.run("sync").exitCode == 0)
        let sent = try Self.admin(
            world,
            """
            SELECT concat_ws('|', payload::jsonb ->> 'note', payload::jsonb ->> 'receipt_id') FROM trip_ledger.changes
            WHERE trip_gid = '\(japan)' AND kind = 'purchase' ORDER BY seq DESC LIMIT 1
            """)
        #expect(sent == "taxi, shared|R-2")
    }

    @Test func aNewerMajorVersionIsSetAsideOnEveryDeviceAndThePullGoesOn() throws {
        let world = try SharedTripWorld()
        let (ana, ben) = try world.anaSharesWithBen("Japan", purchases: [("30", "lunch")])
        let japan = try Self.admin(world, "SELECT gid FROM trip_ledger.trips WHERE name = 'Japan'")
        let before = (ana: try snapshot(ana), ben: try snapshot(ben))
        // Release 2.0 writes a purchase this release would misread: the version says so first
        // (as this release writes it), or anywhere in the payload (as PostgreSQL's jsonb orders it).
        try Self.forge(
            world, trip: japan, changeID: "newer-major-1", gid: "'019ac000-0000-7000-8000-0000000000a1'",
            payload: #"'{"v":"2.0","amount":{"minor":500,"currency":"EUR"},"note":"from release 2"}'"#)
        try Self.forge(
            world, trip: japan, changeID: "newer-major-2", gid: "'019ac000-0000-7000-8000-0000000000a2'",
            payload: #"'{"date": "2026-03-08", "note": "also from release 2", "v": "2.1"}'"#)
        for d in [ana, ben, ana, ben] {
            let s = try d.run("sync")
            #expect(s.exitCode == 0, "\(s.stderr)")
        }
        for (d, shown) in [(ana, before.ana), (ben, before.ben)] {
            #expect(try snapshot(d) == shown)
            let aside = try openSetAside(d)
            #expect(aside.count == 2, "\(aside)")
            for a in aside {
                let reason = a["reason"] as? String ?? ""
                #expect(reason.contains("written by a newer release") && reason.contains("upgrade trip"), "\(a)")
            }
            #expect(try d.run("conflicts").stdout.contains("upgrade trip"))
        }
        // The pull goes on past them.
        try #require(ana.run("add", "5", "tea").exitCode == 0)
        try #require(ana.run("sync").exitCode == 0)
        try #require(ben.run("sync").exitCode == 0)
        #expect(try notes(ben) == ["lunch", "tea"])
        #expect(try snapshot(ben) == snapshot(ana))
    }
}
