import Foundation
import TestSupport
import Testing

/// One change a grantee writes by hand into a shared trip's log (issue 36, items 1, 3, 4, 5 and
/// 8): what it is, and the SQL of its columns. `Attack.world` is the trip it is written into.
struct Attack: Sendable, CustomStringConvertible {
    let description: String
    let kind: String
    /// SQL expressions (the attacker may read Japan's log: its own trip).
    let gid: String
    let hlc: String
    let device: String
    let payload: String
    /// Refused only by a device that holds the row under another trip: a purchase's global id does
    /// not carry its trip, so a device that never had that trip cannot tell (the server's binding
    /// of global ids to trips, issue 36's server half, closes it).
    var local = false

    /// A purchase of Japan as Ana pushed it, with `patch` (a JSON object) merged in: realistic
    /// but for what the attack changes.
    static func purchase(_ patch: String) -> String {
        "(SELECT (payload::jsonb || '\(patch)'::jsonb)::text FROM trip_ledger.changes WHERE trip_gid = :japan AND kind = 'purchase' ORDER BY seq DESC LIMIT 1)"
    }

    /// A new purchase's global id (UUIDv7 form), the attacker's.
    static let newGID = "'019ac000-0000-7000-8000-000000000001'"
    static let daveDevice = "'d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0'"
    static let now = "((extract(epoch FROM now()) * 1000)::bigint * 65536)"

    static func new(_ description: String, kind: String = "purchase", gid: String = newGID, payload: String) -> Attack {
        Attack(description: description, kind: kind, gid: gid, hlc: now, device: daveDevice, payload: payload)
    }

    static let all: [Attack] = [
        Attack(
            description: "a trip change with the gid of the victim's other trip", kind: "trip", gid: ":old", hlc: now, device: daveDevice,
            payload:
                "(SELECT (payload::jsonb || '{\"name\": \"Pwned\", \"home_currency\": \"USD\", \"closed_at\": \"2026-03-09T00:00:00Z\"}'::jsonb)::text FROM trip_ledger.changes WHERE trip_gid = :japan AND kind = 'trip' ORDER BY seq LIMIT 1)"
        ),
        Attack(
            description: "a purchase change with the gid of a purchase in another trip", kind: "purchase", gid: ":oldPurchase", hlc: now,
            device: daveDevice, payload: purchase("{\"note\": \"moved\"}"), local: true),
        new(
            "a member change moving a member of another trip", kind: "member", gid: "'member:' || :old || ':zoe'",
            payload: "'{\"name\": \"Zoe\", \"joined_at\": \"2026-03-08T10:00:00Z\"}'"),
        Attack(
            description: "an edit under the victim's device id", kind: "purchase",
            gid: "(SELECT gid FROM trip_ledger.changes WHERE trip_gid = :japan AND kind = 'purchase' ORDER BY seq DESC LIMIT 1)",
            hlc: now, device: "(SELECT device FROM trip_ledger.changes WHERE trip_gid = :japan AND author = 'ana' LIMIT 1)",
            payload: purchase("{\"note\": \"forged\"}")),
        Attack(
            description: "a clock of 2^63-1", kind: "purchase", gid: newGID, hlc: "9223372036854775807", device: daveDevice,
            payload: purchase("{\"note\": \"from the future\"}")),
        new("a payload that is not JSON", payload: "'{not json'"),
        new("an empty object", payload: "'{}'"),
        new("a negative amount", payload: purchase("{\"price_minor\": -500, \"total_minor\": -500}")),
        new("an unknown kind", kind: "gremlin", gid: "'gremlin:1'", payload: "'{\"x\": 1}'"),
        new("a purchase whose gid is a member's", gid: "'member:' || :japan || ':ana'", payload: purchase("{\"note\": \"member\"}")),
        new("a 5 MB note", payload: purchase("{}").replacingOccurrences(of: "'{}'::jsonb", with: "jsonb_build_object('note', repeat('x', 5242880))")),
        new("currency XXX", payload: purchase("{\"currency\": \"XXX\"}")),
        new("amount \"abc\"", payload: purchase("{\"price_minor\": \"abc\"}")),
        new("date \"garbage\"", payload: purchase("{\"date\": \"garbage\"}")),
    ]
}

/// A grantee of trip "Japan" (Dave) writes changes into its log by hand; the victims are Ana
/// (who owns Japan and another trip, "Old", shared with Ben only) and Ben. Each change is set
/// aside on every device with a reason, no other trip changes, no sync stops, every device
/// agrees, and a new device joins (issue 36: "A device trusts nothing it pulls").
@Suite("Shared trips: a device trusts nothing it pulls")
struct PulledChangeAttackTests {
    /// The role the forged changes are written as. Dave is a grantee of Japan, but server schema 8
    /// refuses his hand-written rows (`ServerAttackTests`), so `tripadmin` (the tables' owner) writes
    /// them in his name: the devices must refuse them all the same.
    static let writer = "tripadmin"

    /// Writes `attack` into Japan's log, numbered after its last, as `writer`.
    static func forge(_ attack: Attack, world: SharedTripWorld, japan: String, old: String, oldPurchase: String) throws {
        let bind = { (sql: String) in
            sql.replacingOccurrences(of: ":japan", with: "'\(japan)'").replacingOccurrences(of: ":oldPurchase", with: "'\(oldPurchase)'")
                .replacingOccurrences(of: ":old", with: "'\(old)'")
        }
        _ = try world.cluster.psql(
            writer, database: world.database,
            bind(
                """
                BEGIN;
                INSERT INTO trip_ledger.changes (trip_gid, seq, change_id, kind, gid, op, hlc, base_hlc, device, author, payload)
                SELECT :japan, (SELECT last_seq FROM trip_ledger.trips WHERE gid = :japan FOR UPDATE) + 1, 'attack-change',
                  '\(attack.kind)', \(attack.gid), 'put', \(attack.hlc), 0, \(attack.device), 'dave', \(attack.payload);
                COMMIT;
                """))
    }

    /// What a device shows of every trip: each trip's report, purchases and members.
    static func everything(_ d: TripProcess) throws -> [String] {
        var out: [String] = []
        for trip in ["Old", "Japan"] {
            for args in [["report", "--format", "json"], ["list", "--format", "json"], ["members", "--format", "json"]] {
                let r = try d.run(args + ["--trip", trip])
                #expect(r.exitCode == 0, "\(args) --trip \(trip): \(r.stderr)")
                out.append(r.stdout)
            }
        }
        return out
    }

    @Test(arguments: Attack.all)
    func aForgedChangeIsSetAsideOnEveryDevice(_ attack: Attack) throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        try #require(ana.run("new", "Old", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben", "Zoe").exitCode == 0)
        try #require(ana.run("add", "50", "museum", "--paid-by", "Ana", "--split", "all").exitCode == 0)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        try #require(ben.run("join", "Old").exitCode == 0)
        try #require(ana.run("new", "Japan", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben", "Dave").exitCode == 0)
        try #require(ana.run("add", "30", "lunch", "--paid-by", "Ana", "--split", "all").exitCode == 0)
        try #require(ana.run("share", "--with", "ben", "--with", "carla", "--with", "dave").exitCode == 0)
        try #require(ben.run("join", "Japan").exitCode == 0)
        try #require(ana.run("add", "12", "taxi", "--paid-by", "Ana", "--split", "all").exitCode == 0)
        for d in [ana, ben] { try #require(d.run("sync", "--all").exitCode == 0) }

        func admin(_ sql: String) throws -> String {
            try world.cluster.psql("tripadmin", database: world.database, sql).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let japan = try admin("SELECT gid FROM trip_ledger.trips WHERE name = 'Japan'")
        let old = try admin("SELECT gid FROM trip_ledger.trips WHERE name = 'Old'")
        let oldPurchase = try admin(
            "SELECT row ->> 0 FROM trip_ledger.changes, jsonb_array_elements(payload::jsonb -> 'rows') row WHERE trip_gid = '\(old)' AND kind = 'snapshot'"
        )
        try #require(!japan.isEmpty && !old.isEmpty && !oldPurchase.isEmpty)
        let before = (ana: try Self.everything(ana), ben: try Self.everything(ben))
        #expect(try snapshot(ben) == snapshot(ana))

        try Self.forge(attack, world: world, japan: japan, old: old, oldPurchase: oldPurchase)
        for d in [ana, ben, ana, ben] {
            let s = try d.run("sync", "--all")
            #expect(s.exitCode == 0, "\(attack): \(s.stderr)")
        }
        for (name, d, shown) in [("ana", ana, before.ana), ("ben", ben, before.ben)] {
            #expect(try Self.everything(d) == shown, "\(attack): \(name)'s trips changed")
            let aside = try openSetAside(d)
            #expect(aside.count == 1, "\(attack): \(name) set aside \(aside)")
            #expect((aside.first?["reason"] as? String)?.isEmpty == false, "\(attack): \(aside)")
        }
        // The victim's clock did not move: her next change is numbered by her own clock.
        try #require(ana.run("add", "5", "tea", "--trip", "Japan", "--paid-by", "Ana", "--split", "all").exitCode == 0)
        try #require(ana.run("sync", "--all").exitCode == 0)
        let clock = try #require(
            Int64(try admin("SELECT hlc FROM trip_ledger.changes WHERE trip_gid = '\(japan)' AND author = 'ana' ORDER BY seq DESC LIMIT 1")))
        #expect(clock >> 16 < Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000, "\(attack): Ana's clock was pinned: \(clock)")
        #expect(try ben.run("sync", "--all").exitCode == 0)
        #expect(try snapshot(ben) == snapshot(ana), "\(attack): the devices disagree")

        // A new device joins the trip past the change, and sets it aside too.
        let join = try carla.run("join", "Japan")
        #expect(join.exitCode == 0, "\(attack): \(join.stderr)")
        // Compared by what the trip holds: the local trip id differs (Carla never had trip Old).
        let shown = (carla: try notes(carla), ana: try notes(ana)), aside = try openSetAside(carla).count
        withKnownIssue("Carla holds no trip Old: she cannot tell the purchase is Old's") {
            #expect(shown.carla == shown.ana, "\(attack)")
            #expect(aside == 1, "\(attack)")
        } when: {
            attack.local
        }
        let text = try ana.run("conflicts").stdout
        #expect(text.contains("Set aside: 1 pulled change"), "\(text)")
    }
}
