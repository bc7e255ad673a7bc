import FXTestServer
import Foundation
import TestSupport
import Testing

/// Several ledgers in temporary folders play several travellers' devices, each logging in as its
/// own PostgreSQL role on a real throwaway PostgreSQL 15 (`PostgresCluster`), through the binary.
struct SharedTripWorld {
    let cluster: PostgresCluster
    let database: String
    let folder = TemporaryFolder("trip-shared")

    /// A fresh database on `cluster` (default: the shared one), set up by `trip remote init`
    /// unless `initialize` is false.
    init(cluster: PostgresCluster? = nil, initialize: Bool = true) throws {
        let server = try cluster ?? PostgresCluster.start()
        self.cluster = server
        database = try server.freshDatabase()
        guard initialize else { return }
        let admin = TripProcess(ledgerPath: folder.file("admin.sqlite"), extra: ["TRIP_REMOTE": server.url("tripadmin", database: database)])
        let r = try admin.run("remote", "init")
        guard r.exitCode == 0 else { throw PostgresClusterError(message: "remote init: \(r.stderr)") }
    }

    /// The server's versions of the trip's purchases (changes of kind `purchase`, and the rows of a
    /// first share's snapshot), and the distinct purchases among them.
    func purchases() throws -> (all: Int, rows: Int) {
        let out = try cluster.psql(
            "tripadmin", database: database,
            """
            WITH versions (gid) AS (
              SELECT gid FROM trip_ledger.changes WHERE kind = 'purchase'
              UNION ALL SELECT row ->> 0 FROM trip_ledger.changes, jsonb_array_elements(payload::jsonb -> 'rows') row WHERE kind = 'snapshot')
            SELECT count(*) || ' ' || count(DISTINCT gid) FROM versions
            """)
        let parts = out.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        return (parts.first ?? -1, parts.last ?? -1)
    }

    /// Ana's new trip `name` in EUR with `purchases` (amount, note), shared with Ben, who joined
    /// it: the two devices of a conflict. With `members`, a group trip of them whose purchases the
    /// first one paid.
    func anaSharesWithBen(
        _ name: String, members: [String] = [], purchases: [(String, String)]
    ) throws -> (ana: TripProcess, ben: TripProcess) {
        let ana = device("ana"), ben = device("ben")
        try #require(ana.run("new", name, "--currency", "EUR", "--home", "EUR").exitCode == 0)
        if !members.isEmpty { try #require(ana.run(["member", "add"] + members).exitCode == 0) }
        let paidBy = members.first.map { ["--paid-by", $0] } ?? []
        for (amount, note) in purchases { try #require(ana.run(["add", amount, note] + paidBy).exitCode == 0) }
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        try #require(ben.run("join", name).exitCode == 0)
        return (ana, ben)
    }

    /// A device: its own ledger, logged in as `role`.
    func device(_ role: String, ledger: String? = nil, today: String = "2026-03-08") -> TripProcess {
        TripProcess(
            ledgerPath: folder.file((ledger ?? role) + ".sqlite"), today: today,
            extra: ["TRIP_REMOTE": cluster.url(role, database: database)])
    }
}

/// Everything a device shows of a trip, for comparing devices: the report, the members (without
/// `whoami`, which is this device's own), and on a group trip the balances and the settle-up.
func snapshot(_ trip: TripProcess) throws -> [String] {
    let members = try trip.run("members", "--format", "json")
    #expect(members.exitCode == 0, "\(members.stderr)")
    let names = (members.json["members"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    let commands = [["report", "--format", "json"]] + (names.isEmpty ? [] : [["balances", "--format", "json"], ["settle", "--format", "json"]])
    return try [names.joined(separator: ",")]
        + commands.map { args in
            let r = try trip.run(args)
            #expect(r.exitCode == 0, "\(args): \(r.stderr)")
            return r.stdout
        }
}

/// The notes of the trip's purchases, sorted. A failed `trip list` fails the test (it must never
/// read as an empty trip).
func notes(_ trip: TripProcess) throws -> [String] {
    let r = try trip.run("list", "--format", "json")
    try #require(r.exitCode == 0, "trip list: \(r.stderr)")
    let list = try #require(r.json["purchases"] as? [[String: Any]], "trip list printed no purchases array: \(r.stdout)")
    return list.compactMap { $0["note"] as? String }.sorted()
}

/// The open conflicts of the current trip; a failed `trip conflicts` fails the test.
func openConflicts(_ trip: TripProcess) throws -> [[String: Any]] {
    let r = try trip.run("conflicts", "--format", "json")
    try #require(r.exitCode == 0, "trip conflicts: \(r.stderr)")
    return try #require(r.json["conflicts"] as? [[String: Any]], "trip conflicts printed no conflicts array: \(r.stdout)")
}

@Suite("End to end: shared trips through PostgreSQL")
struct SharedTripEndToEndTests {
    /// Ana shares a group trip with Ben and Carla; each logs offline; syncs in an order that
    /// varies by seed. After everyone synced twice, every device shows the same report, balances,
    /// settle-up and members, and every purchase exactly once.
    @Test(arguments: [0, 1, 2])
    func offlineAddsOnThreeDevicesConvergeWhateverTheSyncOrder(seed: Int) throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        try #require(ana.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(ana.run("member", "add", "ana", "ben", "carla").exitCode == 0)
        try #require(ana.run("whoami", "ana").exitCode == 0)  // the payer is never a guess (issue 27)
        try #require(ana.run("add", "9000", "hotel", "--paid-by", "ana", "--split", "all").exitCode == 0)
        let share = try ana.run("share", "--with", "ben", "--with", "carla")
        #expect(share.exitCode == 0, "\(share.stderr)")
        #expect(share.stdout.hasPrefix("Japan: pushed "), "\(share.stdout)")
        for d in [ben, carla] {
            let join = try d.run("join", "Japan")
            #expect(join.exitCode == 0, "\(join.stderr)")
            #expect(join.stdout.contains("pulled "), "\(join.stdout)")
        }
        // Offline, on each device.
        #expect(try ana.run("add", "1000", "ramen", "--split", "ana,ben").exitCode == 0)
        #expect(try ana.run("add", "25.50", "USD", "museum", "--paid-by", "ana=20,carla=rest", "--split", "ana=2,carla=1").exitCode == 0)
        #expect(try ben.run("whoami", "ben").exitCode == 0)
        #expect(try ben.run("add", "3000", "taxi", "--split", "ben=60%,carla=40%").exitCode == 0)
        #expect(try ben.run("add", "4500", "izakaya", "--items", "ana=1500,ben=2000,carla=rest", "--tip", "10%").exitCode == 0)
        #expect(try carla.run("whoami", "carla").exitCode == 0)
        #expect(try carla.run("add", "800", "coffee").exitCode == 0)
        #expect(try carla.run("transfer", "carla", "ana", "20", "USD").exitCode == 0)
        #expect(try carla.run("refund", "1", "900").exitCode == 0)

        let devices = [ana, ben, carla]
        let orders = [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
        for round in 0..<2 {
            for i in orders[(seed + round) % orders.count] {
                let s = try devices[i].run("sync")
                #expect(s.exitCode == 0, "\(s.stderr)")
            }
        }
        let expected = try snapshot(ana)
        #expect(try snapshot(ben) == expected)
        #expect(try snapshot(carla) == expected)
        let all = try notes(ana)
        #expect(all.count == 7 && ["coffee", "hotel", "izakaya", "museum", "ramen", "taxi"].allSatisfy(all.contains), "\(all)")
        for d in devices {
            let n = try notes(d)
            #expect(n == all, "every purchase exactly once on every device")
        }
        #expect(try ana.run("balances", "--format", "json").stdout.contains("\"ana\""))
        // Nothing left to send, and a sync with nothing to do says so.
        let idle = try ana.run("sync", "--format", "json")
        #expect(idle.json["trips"] as? [[String: Any]] != nil)
        #expect((idle.json["trips"] as? [[String: Any]])?.first?["pushed"] as? Int == 0)
        #expect((idle.json["trips"] as? [[String: Any]])?.first?["pulled"] as? Int == 0)
    }

    /// Ana and Ben edit the same purchase between syncs: the later edit wins whole on both
    /// devices, and both list the conflict with both versions.
    @Test func concurrentEditsPickTheSameWinnerEverywhereAndKeepTheLoser() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        try #require(ana.run("new", "Seoul", "--currency", "KRW", "--home", "USD").exitCode == 0)
        try #require(ana.run("add", "12000", "bibimbap", "--category", "food").exitCode == 0)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        try #require(ben.run("join", "Seoul").exitCode == 0)
        #expect(try ana.run("edit", "1", "--note", "bibimbap for two", "--tip", "1000").exitCode == 0)
        usleep(20_000)
        #expect(try ben.run("edit", "1", "--note", "bibimbap and tea").exitCode == 0)
        for d in [ana, ben, ana] { #expect(try d.run("sync").exitCode == 0) }
        #expect(try notes(ana) == ["bibimbap and tea"])
        #expect(try notes(ben) == ["bibimbap and tea"])
        #expect(try snapshot(ana) == snapshot(ben))
        for d in [ana, ben] {
            let list = try #require(try d.run("conflicts", "--format", "json").json["conflicts"] as? [[String: Any]])
            #expect(list.count == 1, "\(list)")
            let c = try #require(list.first)
            let versions = [c["mine"] as? String ?? "", c["theirs"] as? String ?? ""]
            #expect(versions.contains { $0.contains("bibimbap for two") }, "the losing edit is kept: \(versions)")
            #expect(versions.contains { $0.contains("bibimbap and tea") })
        }
        // Ana keeps hers: written again, it wins on every device at the next sync.
        let id = try #require((try ana.run("conflicts", "--format", "json").json["conflicts"] as? [[String: Any]])?.first?["id"] as? Int)
        let resolved = try ana.run(
            "resolve", String(id), "--keep",
            (try ana.run("conflicts", "--format", "json").json["conflicts"] as? [[String: Any]])?.first?["winner"] as? String == "mine"
                ? "theirs" : "mine")
        #expect(resolved.exitCode == 0, "\(resolved.stderr)")
        for d in [ana, ben] { #expect(try d.run("sync").exitCode == 0) }
        #expect(try notes(ana) == ["bibimbap for two"])
        #expect(try notes(ben) == ["bibimbap for two"])
        #expect(try openConflicts(ana).isEmpty)
    }

    /// A delete against an edit: the delete wins on every device, and the edit stays restorable.
    @Test func aDeleteWinsOverAnEditAndTheEditStaysRestorable() throws {
        let world = try SharedTripWorld()
        let (ana, ben) = try world.anaSharesWithBen("Paris", purchases: [("12", "croissants"), ("30", "metro")])
        let benID = try #require(
            (try ben.run("list", "--format", "json").json["purchases"] as? [[String: Any]])?
                .first { $0["note"] as? String == "metro" }?["id"] as? Int)
        #expect(try ana.run("rm", "2").exitCode == 0)
        usleep(20_000)
        #expect(try ben.run("edit", String(benID), "--note", "metro pass").exitCode == 0)
        for d in [ben, ana, ben] { #expect(try d.run("sync").exitCode == 0) }
        #expect(try notes(ana) == ["croissants"])
        #expect(try notes(ben) == ["croissants"])
        // Both devices list it: Ben's edit lost to Ana's removal.
        for (device, edit) in [(ana, "theirs"), (ben, "mine")] {
            let list = try #require(try device.run("conflicts", "--format", "json").json["conflicts"] as? [[String: Any]])
            #expect(list.count == 1, "\(list)")
            let c = try #require(list.first)
            #expect(c["reason"] as? String == "removed on one device, edited on another; the edit is in the trash")
            #expect(c["winner"] as? String == (edit == "mine" ? "theirs" : "mine"), "\(c)")
            #expect((c[edit] as? String)?.contains("metro pass") == true, "\(c)")
            #expect(c[edit == "mine" ? "theirs" : "mine"] is NSNull, "\(c)")
        }
        let text = try ben.run("conflicts")
        #expect(text.stdout.contains("version 1, by ana on device ") && text.stdout.contains(": (removed)"), "\(text.stdout)")
        // The edit is in Ben's trash; restoring it brings it back everywhere.
        let restore = try ben.run("restore", String(benID))
        #expect(restore.exitCode == 0, "\(restore.stderr)")
        #expect(restore.stdout.contains("metro pass"), "\(restore.stdout)")
        for d in [ben, ana] { #expect(try d.run("sync").exitCode == 0) }
        #expect(try notes(ana) == ["croissants", "metro pass"])
        #expect(try snapshot(ana) == snapshot(ben))
    }

    /// `trip resolve` keeping the edit a removal won over brings it back from the trash, on every
    /// device; keeping the removal changes nothing.
    @Test func resolvingARemovalAgainstAnEditCanKeepEither() throws {
        let world = try SharedTripWorld()
        let (ana, ben) = try world.anaSharesWithBen("Rome", purchases: [("8", "espresso"), ("25", "museum")])
        // Ben removes both while Ana edits both.
        #expect(try ben.run("rm", "1").exitCode == 0)
        #expect(try ben.run("rm", "2").exitCode == 0)
        usleep(20_000)
        #expect(try ana.run("edit", "1", "--note", "espresso and cornetto").exitCode == 0)
        #expect(try ana.run("edit", "2", "--note", "museum and guide").exitCode == 0)
        for d in [ben, ana, ben] { #expect(try d.run("sync").exitCode == 0) }
        #expect(try notes(ana) == [])
        let conflicts = try #require(try ana.run("conflicts", "--format", "json").json["conflicts"] as? [[String: Any]])
        #expect(conflicts.count == 2, "\(conflicts)")
        func conflictID(_ note: String) throws -> String {
            let c = try #require(conflicts.first { ($0["mine"] as? String)?.contains(note) == true }, "\(conflicts)")
            return String(try #require(c["id"] as? Int))
        }
        let keep = try ana.run("resolve", try conflictID("espresso and cornetto"), "--keep", "mine")
        #expect(keep.exitCode == 0, "\(keep.stderr)")
        let drop = try ana.run("resolve", try conflictID("museum and guide"), "--keep", "theirs")
        #expect(drop.exitCode == 0, "\(drop.stderr)")
        #expect(try notes(ana) == ["espresso and cornetto"])
        for d in [ana, ben] { #expect(try d.run("sync").exitCode == 0) }
        #expect(try notes(ben) == ["espresso and cornetto"])
        #expect(try snapshot(ana) == snapshot(ben))
        let open = try openConflicts(ana)
        #expect(open.isEmpty, "\(open)")
    }

    /// Ana closes the trip while Ben, offline, edits a purchase, adds one and removes one. Ben's
    /// sync sends none of them: each waits in `trip conflicts` with both versions, and Ben's
    /// ledger shows what Ana's shows. `--keep mine` sends one anyway; `--keep theirs` drops one.
    @Test func changesToATripClosedElsewhereWaitInConflicts() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        try #require(ana.run("new", "Lisbon", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "ana", "ben").exitCode == 0)
        try #require(ana.run("whoami", "ana").exitCode == 0)  // the payer is never a guess (issue 27)
        try #require(ana.run("add", "40", "dinner", "--paid-by", "ana").exitCode == 0)
        try #require(ana.run("add", "12", "taxi", "--paid-by", "ben").exitCode == 0)
        try #require(ana.run("share", "--with", "ben", "--with", "carla").exitCode == 0)
        try #require(ben.run("join", "Lisbon").exitCode == 0)
        #expect(try ben.run("edit", "1", "--amount", "45").exitCode == 0)
        #expect(try ben.run("add", "9", "gelato", "--paid-by", "ben").exitCode == 0)
        #expect(try ben.run("rm", "2").exitCode == 0)
        #expect(try ana.run("close").exitCode == 0)
        #expect(try ana.run("sync").exitCode == 0)
        let sync = try ben.run("sync", "--format", "json")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        let result = (sync.json["trips"] as? [[String: Any]])?.first
        #expect(result?["conflicts"] as? Int == 3, "\(sync.stdout)")
        #expect(result?["pushed"] as? Int == 0, "\(sync.stdout)")
        #expect(try ana.run("sync").exitCode == 0)
        #expect(try carla.run("join", "Lisbon").exitCode == 0)
        // Every device shows the trip as Ana closed it.
        #expect(try notes(ben) == ["dinner", "taxi"])
        #expect(try snapshot(ana) == snapshot(ben))
        #expect(try snapshot(carla) == snapshot(ben))
        let waiting = try #require(try ben.run("conflicts", "--format", "json").json["conflicts"] as? [[String: Any]])
        #expect(waiting.count == 3)
        #expect(waiting.allSatisfy { ($0["reason"] as? String)?.contains("closed on another device") == true && $0["theirs_by"] as? String == "ana" })
        func conflict(_ note: String) -> [String: Any]? {
            waiting.first { (($0["mine"] as? String) ?? ($0["theirs"] as? String) ?? "").contains("\"\(note)\"") }
        }
        // As text: what differs, field by field, and a one-line summary of a version alone.
        let text = try ben.run("conflicts")
        #expect(text.stdout.contains("total  1: EUR 40.00  2: EUR 45.00"), "\(text.stdout)")
        #expect(text.stdout.contains("by this device (ben): EUR 9.00 on 2026-03-08 · \"gelato\" · paid by ben"), "\(text.stdout)")
        #expect(text.stdout.contains("by this device (ben):      (removed)"), "\(text.stdout)")
        #expect(text.stdout.contains("on the other devices: (not there)"), "\(text.stdout)")
        let gelato = try #require(conflict("gelato")), dinner = try #require(conflict("dinner")), taxi = try #require(conflict("taxi"))
        #expect(gelato["theirs"] is NSNull && (gelato["mine"] as? String)?.contains("\"price_minor\":900") == true)
        #expect((dinner["mine"] as? String)?.contains("\"price_minor\":4500") == true)
        #expect((dinner["theirs"] as? String)?.contains("\"price_minor\":4000") == true)
        #expect(taxi["mine"] is NSNull && taxi["theirs"] is String)
        // Ben sends the gelato anyway and drops his edit of the dinner.
        let keep = try ben.run("resolve", String(gelato["id"] as? Int ?? 0), "--keep", "mine")
        #expect(keep.exitCode == 0, "\(keep.stderr)")
        #expect(try ben.run("resolve", String(dinner["id"] as? Int ?? 0), "--keep", "theirs").exitCode == 0)
        for d in [ben, ana, carla] { #expect(try d.run("sync").exitCode == 0) }
        #expect(try notes(ana) == ["dinner", "gelato", "taxi"])
        #expect(try snapshot(ana) == snapshot(ben))
        #expect(try snapshot(carla) == snapshot(ben))
        let left = try ben.run("conflicts", "--format", "json").json["conflicts"] as? [[String: Any]] ?? []
        #expect(left.count == 1)
    }

    /// `trip sync --all` pushes and pulls every shared trip of the ledger over one connection.
    @Test func syncAllCarriesEverySharedTrip() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        for name in ["Oslo", "Bergen"] {
            try #require(ana.run("new", name, "--currency", "NOK", "--home", "NOK").exitCode == 0)
            try #require(ana.run("add", "100", "coffee").exitCode == 0)
            try #require(ana.run("share", "--with", "ben").exitCode == 0)
            try #require(ben.run("join", name).exitCode == 0)
        }
        #expect(try ana.run("add", "250", "ferry", "--trip", "Oslo").exitCode == 0)
        // A note with what COPY's text format must escape (a backslash, here before "t" and "n")
        // and what it must not touch (quotes, non-ASCII) arrives as typed.
        #expect(try ana.run("add", "80", #"bun \t \n "søt" C:\kaffe"#, "--trip", "Bergen").exitCode == 0)
        let sync = try ana.run("sync", "--all", "--format", "json")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        let pushed = (sync.json["trips"] as? [[String: Any]] ?? []).map { $0["pushed"] as? Int }
        #expect(pushed == [1, 1], "\(sync.stdout)")
        #expect(try ben.run("sync", "--all").exitCode == 0)
        #expect(try notes(ben) == [#"bun \t \n "søt" C:\kaffe"#, "coffee"])
        try #require(ben.run("use", "Oslo").exitCode == 0)
        #expect(try notes(ben) == ["coffee", "ferry"])
    }

    /// Members added under the same name on two devices are one member.
    @Test func aMemberAddedOnTwoDevicesIsOneMember() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        try #require(ana.run("new", "Rome", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "ana", "ben").exitCode == 0)
        try #require(ana.run("whoami", "ana").exitCode == 0)  // the payer is never a guess (issue 27)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        try #require(ben.run("join", "Rome").exitCode == 0)
        #expect(try ana.run("member", "add", "dora").exitCode == 0)
        #expect(try ben.run("member", "add", "dora").exitCode == 0)
        #expect(try ana.run("add", "30", "pizza", "--split", "ana,dora").exitCode == 0)
        #expect(try ben.run("add", "12", "gelato", "--paid-by", "ben", "--split", "ben,dora").exitCode == 0)
        for d in [ana, ben, ana] { #expect(try d.run("sync").exitCode == 0) }
        let members = try #require(try ana.run("members", "--format", "json").json["members"] as? [[String: Any]])
        #expect(members.compactMap { $0["name"] as? String } == ["ana", "ben", "dora"])
        #expect(try snapshot(ana) == snapshot(ben))
    }

    /// A shared row names the members of its trip as `@NAME` (schema 3), not by whole global ids;
    /// a change written before, with whole ids, is still read, and gives the same balances.
    @Test func membersTravelByNameAndWholeIDsAreStillRead() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        try #require(ana.run("new", "Lima", "--currency", "PEN", "--home", "PEN").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben").exitCode == 0)
        try #require(ana.run("whoami", "Ana").exitCode == 0)  // the payer is never a guess (issue 27)
        try #require(ana.run("add", "12", "chicha", "--paid-by", "Ben", "--split", "Ana,Ben").exitCode == 0)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        // The first share's snapshot names them so too.
        let snapshotRow = try world.cluster.psql(
            "tripadmin", database: world.database,
            "SELECT payload::jsonb -> 'rows' -> 0 ->> -2, payload::jsonb -> 'rows' -> 0 ->> -1 FROM trip_ledger.changes WHERE kind = 'snapshot'")
        #expect(snapshotRow == "@ben=1200|@ana=1,@ben=1\n")
        // A purchase added after the share travels as a change of its own.
        try #require(ana.run("add", "90", "ceviche", "--paid-by", "Ana", "--split", "Ana=2,Ben=1").exitCode == 0)
        try #require(ana.run("sync").exitCode == 0)
        let sent = try world.cluster.psql(
            "tripadmin", database: world.database,
            "SELECT payload::jsonb ->> 'payers', payload::jsonb ->> 'shares' FROM trip_ledger.changes WHERE kind = 'purchase'")
        #expect(sent == "@ana=9000|@ana=2,@ben=1\n")
        // A purchase as schema 2 wrote it: the same row, with whole global ids, from another device.
        try world.cluster.psql(
            "tripadmin", database: world.database,
            """
            INSERT INTO trip_ledger.changes (trip_gid, seq, change_id, kind, gid, op, hlc, base_hlc, device, author, payload)
            SELECT t.gid, t.last_seq + 1, 'older-change', 'purchase', 'older-purchase', 'put', c.hlc + 1, 0, 'older-device', 'ben',
                   replace(replace(c.payload, '"ceviche"', '"pisco"'), '@', 'member:' || t.gid || ':')
            FROM trip_ledger.trips t, trip_ledger.changes c WHERE c.kind = 'purchase'
            """)
        try #require(ben.run("join", "Lima").exitCode == 0)
        #expect(try ana.run("sync").exitCode == 0)
        #expect(try notes(ben) == ["ceviche", "chicha", "pisco"])
        let balances = try ben.run("balances", "--format", "json")
        let benRow = (balances.json["members"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "Ben" }
        #expect(benRow.map { "\($0["balance"] ?? "")" } == "-54.00", "\(balances.stdout)")
        #expect(try snapshot(ana) == snapshot(ben))
    }

    /// A first share sends its purchases as one snapshot (server schema 4): the server holds one
    /// change for them, the share counts every purchase it pushed, and a join applies them in bulk
    /// to the same trip. A later edit of one of them travels alone, built on the snapshot's
    /// version: no conflict.
    @Test func aFirstShareSendsItsPurchasesAsOneSnapshot() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        try #require(ana.run("new", "Cusco", "--currency", "PEN", "--home", "PEN").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben").exitCode == 0)
        try #require(ana.run("whoami", "Ana").exitCode == 0)  // the payer is never a guess (issue 27)
        try #require(ana.run("add", "120", "train", "--paid-by", "Ana", "--split", "all").exitCode == 0)
        try #require(ana.run("add", "45.50", "dinner", "--paid-by", "Ben", "--split", "Ana=1,Ben=2", "--tip", "10%").exitCode == 0)
        try #require(ana.run("add", "30", "museum \"Qorikancha\"\tguide").exitCode == 0)
        try #require(ana.run("refund", "1", "20").exitCode == 0)
        let share = try ana.run("share", "--with", "ben", "--format", "json")
        #expect(share.exitCode == 0, "\(share.stderr)")
        #expect(share.json["pushed"] as? Int == 7 && share.json["sent"] as? Int == 7, "the trip, 2 members, 4 purchases: \(share.stdout)")
        let kinds = try world.cluster.psql(
            "tripadmin", database: world.database, "SELECT kind, count(*) FROM trip_ledger.changes GROUP BY kind ORDER BY kind")
        #expect(kinds == "member|2\nsnapshot|1\ntrip|1\n")
        #expect(try world.purchases() == (4, 4))

        let join = try ben.run("join", "Cusco", "--format", "json")
        #expect(join.exitCode == 0, "\(join.stderr)")
        #expect(join.json["pulled"] as? Int == 7, "\(join.stdout)")
        #expect(try notes(ben) == notes(ana))
        #expect(try snapshot(ben) == snapshot(ana))

        #expect(try ben.run("edit", "2", "--note", "dinner, anticuchos").exitCode == 0)
        #expect(try ben.run("sync").exitCode == 0)
        #expect(try ana.run("sync").exitCode == 0)
        #expect(try notes(ana).contains("dinner, anticuchos"))
        for d in [ana, ben] {
            #expect(try openConflicts(d).isEmpty)
        }
        #expect(try snapshot(ben) == snapshot(ana))
    }

    /// A role the trip was not shared with can neither read nor write it, even with hand-written
    /// SQL; `trip join` does not find it.
    @Test func aRoleWithoutTheGrantCanNeitherReadNorWriteTheTrip() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), dave = world.device("dave")
        try #require(ana.run("new", "Oslo", "--currency", "NOK", "--home", "NOK").exitCode == 0)
        try #require(ana.run("add", "100", "waffles").exitCode == 0)
        try #require(ana.run("share").exitCode == 0)
        let c = world.cluster, db = world.database
        // Server schema 8: no role reads the tables; the functions answer with its own trips only.
        let gid = try c.psql("ana", database: db, "SELECT gid FROM trip_ledger.my_trips()").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try c.psql("ana", database: db, "SELECT count(*) FROM trip_ledger.read_log('\(gid)', 0, NULL)") != "0\n")
        #expect(try c.psql("dave", database: db, "SELECT count(*) FROM trip_ledger.read_log('\(gid)', 0, NULL)") == "0\n")
        #expect(try c.psql("dave", database: db, "SELECT count(*) FROM trip_ledger.my_trips()") == "0\n")
        #expect(throws: PostgresClusterError.self) { try c.psql("dave", database: db, "SELECT count(*) FROM trip_ledger.changes") }
        #expect(throws: PostgresClusterError.self) {
            try c.psql(
                "dave", database: db,
                """
                INSERT INTO trip_ledger.changes (trip_gid, seq, change_id, kind, gid, op, hlc, base_hlc, device, payload)
                VALUES ('\(gid)', 99, 'x', 'purchase', 'g', 'delete', 1, 0, 'd', NULL)
                """)
        }
        #expect(throws: PostgresClusterError.self) {
            try c.psql("dave", database: db, "INSERT INTO trip_ledger.grants (trip_gid, role, granted_by) VALUES ('\(gid)', 'dave', 'dave')")
        }
        #expect(throws: PostgresClusterError.self) {
            try c.psql("dave", database: db, "UPDATE trip_ledger.trips SET last_seq = 0 RETURNING gid")
        }
        #expect(throws: PostgresClusterError.self) {
            try c.psql("dave", database: db, "DELETE FROM trip_ledger.changes")
        }
        let join = try dave.run("join", "Oslo")
        #expect(join.exitCode == 65)
        #expect(join.stderr.hasPrefix("trip: join: no shared trip \"Oslo\" visible to this role"), "\(join.stderr)")
        #expect(try c.psql("tripadmin", database: db, "SELECT count(*) FROM trip_ledger.changes WHERE seq = 99") == "0\n")
    }

    /// Server down, wrong password, no schema, weak TLS: one line each, the right exit code,
    /// nothing changed locally, and the password never printed.
    @Test func connectionFailuresAreOneLineAndChangeNothing() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana")
        try #require(ana.run("new", "Lima", "--currency", "PEN", "--home", "USD").exitCode == 0)
        try #require(ana.run("add", "40", "ceviche").exitCode == 0)
        let before = try dumpLedger(ana.ledgerPath)
        func attempt(_ remote: String, _ code: Int32, _ words: String) throws {
            var d = ana
            d.environment["TRIP_REMOTE"] = remote
            let r = try d.run("share")
            #expect(r.exitCode == code, "\(remote): \(r.stderr)")
            #expect(r.stderr.hasPrefix("trip: remote: ") && r.stderr.contains(words), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
            #expect(!r.stderr.contains("-pw") && !r.stdout.contains("-pw"), "no password printed")
            #expect(try dumpLedger(ana.ledgerPath) == before)
        }
        let c = world.cluster
        try attempt("postgresql://ana:ana-pw@127.0.0.1:1/\(world.database)", 69, "unreachable")
        try attempt("postgresql://ana:wrong-pw@127.0.0.1:\(c.port)/\(world.database)", 77, "refused the login")
        try attempt(c.url("ana", database: try c.freshDatabase()), 69, "run `trip remote init`")
        try attempt("postgresql://ana:ana-pw@db.example.invalid/trips?sslmode=require", 64, "sslmode require")
        try attempt("host=db.example.invalid user=ana password=ana-pw sslmode=disable", 64, "verify-full")
        // `trip config` names the server without its password, in either form.
        for remote in [
            "postgresql://ana:s3cret-pw@db.example.org:5433/trips?sslmode=verify-full",
            "host=db.example.org user=ana password=s3cret-pw dbname=trips",
        ] {
            var d = ana
            d.environment["TRIP_REMOTE"] = remote
            let config = try d.run("config")
            #expect(config.stdout.contains("sync.remote") && config.stdout.contains("db.example.org"), "\(config.stdout)")
            #expect(!config.stdout.contains("s3cret") && !config.stderr.contains("s3cret"), "\(config.stdout)")
        }
        var d = ana
        d.environment["TRIP_REMOTE"] = nil
        let none = try d.run("sync")
        #expect(none.exitCode == 64, "no server configured is a usage error: \(none.stderr)")
    }

    /// `trip add` on a shared trip records the change and returns: libpq is not loaded. The
    /// dynamic loader lists what it loads on stderr (glibc's `LD_DEBUG`, macOS's dyld).
    @Test func addOnASharedTripNeverLoadsLibpq() throws {
        let world = try SharedTripWorld()
        var ana = world.device("ana")
        try #require(ana.run("new", "Bern", "--currency", "CHF", "--home", "CHF").exitCode == 0)
        try #require(ana.run("share").exitCode == 0)
        #if os(Linux)
        ana.environment["LD_DEBUG"] = "libs"
        #else
        ana.environment["DYLD_PRINT_LIBRARIES"] = "1"
        #endif
        let add = try ana.run("add", "8.50", "rösti")
        #expect(add.exitCode == 0)
        #expect(add.stderr.contains("libsqlite3"), "the loader trace is on")
        #expect(!add.stderr.contains("libpq"))
        for args in [["report"], ["list"], ["balances"], ["conflicts"]] {
            #expect(!(try ana.run(args).stderr.contains("libpq")), "\(args)")
        }
        let sync = try ana.run("sync")
        #expect(sync.exitCode == 0)
        #expect(sync.stderr.contains("libpq"), "sync loads it when it needs it")
    }
}

@Suite("End to end: shared trips, rates and server versions")
struct SharedTripRatesAndSchemaTests {
    /// Rates fetched on one device reach the others through the server: after everyone synced,
    /// a device that never fetched a rate converts every purchase, its own included, exactly as
    /// the one that did, and both print the same report, balances and settle-up.
    @Test func ratesSyncedOnOneDeviceReachTheOthers() throws {
        let server = try FXTestServer()
        server.route("/eurofxref-hist-90d.xml", .file(Array(RatesSyncEndToEndTests.xml.utf8), contentType: "text/xml"))
        let world = try SharedTripWorld()
        let config = world.folder.file("config.toml")
        try "[rates]\nchain = \"ecb\"\necb_history = \"90d\"\ntotal_timeout = 3\n".write(toFile: config, atomically: true, encoding: .utf8)
        var ana = world.device("ana", today: "2017-03-10")
        ana.environment.merge(["TRIP_CONFIG": config, "TRIP_RATES_URL": server.baseURL, "no_proxy": "*"]) { $1 }
        // Ben's config names the same rate chain (which rates a device prefers is its config), but
        // Ben never reaches the rate server: no TRIP_RATES_URL, and he never runs `rates sync`.
        var ben = world.device("ben", today: "2017-03-10")
        ben.environment["TRIP_CONFIG"] = config
        try #require(ana.run("new", "Xmas", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(ana.run("member", "add", "ana", "ben").exitCode == 0)
        try #require(ana.run("whoami", "ana").exitCode == 0)  // the payer is never a guess (issue 27)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        try #require(ben.run("join", "Xmas").exitCode == 0)
        #expect(try ana.run("add", "12345", "--date", "2016-12-23", "--note", "ana's").exitCode == 0)
        #expect(try ben.run("add", "6789", "--date", "2016-12-27", "--note", "ben's", "--paid-by", "ben").exitCode == 0)
        for d in [ana, ben] { #expect(try d.run("sync").exitCode == 0) }
        let fetched = try ana.run("rates", "sync")
        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        for d in [ana, ben, ana] { #expect(try d.run("sync").exitCode == 0) }
        let list = try #require(try ben.run("list", "--format", "json").json["purchases"] as? [[String: Any]])
        #expect(list.count == 2)
        for p in list {
            let text = "\(p)"
            #expect(text.contains("ecb"), "converted at the ECB rate Ana fetched: \(text)")
            #expect(!text.contains("fallback"), "\(text)")
        }
        #expect(try snapshot(ana) == snapshot(ben))
    }

    /// A rate set by hand (`trip rates set`, no network) travels with the trip: a device that joins
    /// converts at it. Two devices setting a rate for the same pair and day, offline, either way
    /// round, end with the later one on both, whichever syncs first, and the same numbers.
    @Test func manualRatesTravelAndTheLaterOneWinsEverywhere() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        try #require(ana.run("new", "Osaka", "--currency", "JPY", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "ana", "ben").exitCode == 0)
        try #require(ana.run("whoami", "ana").exitCode == 0)  // the payer is never a guess (issue 27)
        try #require(ana.run("rates", "set", "JPY", "0.0061", "--in", "EUR", "--date", "2026-03-01").exitCode == 0)
        try #require(ana.run("add", "10000", "--date", "2026-03-05", "--note", "ramen").exitCode == 0)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        try #require(ben.run("join", "Osaka").exitCode == 0)
        let joined = try ben.run("list", "--format", "json")
        let converted = try #require((joined.json["purchases"] as? [[String: Any]])?.first)
        #expect("\(converted)".contains("61.00") && "\(converted)".contains("manual"), "at Ana's rate: \(converted)")
        #expect(try ben.run("rates", "show").stdout.contains("1 JPY = 0.0061 EUR"))
        #expect(try snapshot(ana) == snapshot(ben))
        // Offline, Ana sets another rate for the day, then Ben sets one the other way round: his is
        // the later write, and Ana syncing last does not bring hers back.
        try #require(ana.run("rates", "set", "JPY", "0.0063", "--in", "EUR", "--date", "2026-03-01").exitCode == 0)
        try #require(ben.run("rates", "set", "EUR", "160", "--in", "JPY", "--date", "2026-03-01").exitCode == 0)
        for d in [ben, ana, ben, ana] { #expect(try d.run("sync").exitCode == 0) }
        for d in [ana, ben] {
            let shown = try d.run("rates", "show").stdout
            #expect(shown.contains("1 EUR = 160 JPY") && !shown.contains("0.0061") && !shown.contains("0.0063"), "\(shown)")
        }
        #expect(try ana.run("report").stdout.contains("EUR 62.50"))
        #expect(try snapshot(ana) == snapshot(ben))
    }

    /// A rate set by hand on a device whose shared trip is closed converts that trip's purchases
    /// there too, as on the devices that pull it. Before, `rates set` re-rated only open trips and
    /// the sync that sent the rate did not pull it back, so Ana kept the fallback rate while Ben
    /// converted at hers (convergence seed 74).
    @Test func aRateSetWhileTheSharedTripIsClosedConvertsItOnThatDeviceToo() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        try #require(ana.run("new", "Kyoto", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "ana", "ben").exitCode == 0)
        try #require(ana.run("whoami", "ana").exitCode == 0)
        try #require(ana.run("add", "30", "USD", "taxi", "--date", "2026-03-02").exitCode == 0)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        try #require(ben.run("join", "Kyoto").exitCode == 0)
        try #require(ana.run("close").exitCode == 0)
        for d in [ana, ben] { #expect(try d.run("sync").exitCode == 0) }
        try #require(ana.run("rates", "set", "USD", "0.87", "--in", "EUR", "--date", "2026-03-02").exitCode == 0)
        for d in [ana, ben, ana] { #expect(try d.run("sync").exitCode == 0) }
        for d in [ana, ben] {
            let taxi = try #require((try d.run("list", "--format", "json").json["purchases"] as? [[String: Any]])?.first)
            #expect("\(taxi)".contains("26.10") && "\(taxi)".contains("manual"), "at Ana's rate: \(taxi)")
        }
        #expect(try snapshot(ana) == snapshot(ben))
    }

    /// Two shared trips of one name visible to a role: `trip join` names their owners, and
    /// OWNER/NAME picks one.
    @Test func joiningAnAmbiguousNameListsTheOwners() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        for (d, role) in [(ana, "ana"), (ben, "ben")] {
            try #require(d.run("new", "Summer", "--currency", "EUR", "--home", "EUR").exitCode == 0)
            try #require(d.run("add", "10", "\(role)'s ice cream").exitCode == 0)
            try #require(d.run("share", "--with", "carla").exitCode == 0)
        }
        let ambiguous = try carla.run("join", "Summer")
        #expect(ambiguous.exitCode == 65)
        #expect(ambiguous.stderr.contains("owners: ana, ben") && ambiguous.stderr.contains("OWNER/Summer"), "\(ambiguous.stderr)")
        let picked = try carla.run("join", "ben/Summer")
        #expect(picked.exitCode == 0, "\(picked.stderr)")
        #expect(try notes(carla) == ["ben's ice cream"])
    }

    /// `trip remote init` is idempotent; a server schema newer than this trip is refused by every
    /// command and left untouched.
    @Test func aNewerServerSchemaIsRefusedAndLeftUntouched() throws {
        let world = try SharedTripWorld()
        let admin = world.device("tripadmin", ledger: "admin")
        let again = try admin.run("remote", "init", "--format", "json")
        #expect(again.exitCode == 0)
        #expect(again.json["schema_before"] as? Int == again.json["schema"] as? Int)
        let c = world.cluster, db = world.database
        try c.psql("tripadmin", database: db, "UPDATE trip_ledger.meta SET value = '99' WHERE key = 'schema_version'")
        let before = try c.psql("tripadmin", database: db, "SELECT count(*) FROM pg_class WHERE relnamespace = 'trip_ledger'::regnamespace")
        let refused = try admin.run("remote", "init")
        #expect(refused.exitCode == 69)
        #expect(refused.stderr.contains("schema 99, newer than this trip knows"), "\(refused.stderr)")
        let ana = world.device("ana")
        try #require(ana.run("new", "Cork", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        let share = try ana.run("share")
        #expect(share.exitCode == 69)
        #expect(share.stderr.contains("upgrade trip"), "\(share.stderr)")
        #expect(try c.psql("tripadmin", database: db, "SELECT value FROM trip_ledger.meta WHERE key = 'schema_version'") == "99\n")
        #expect(try c.psql("tripadmin", database: db, "SELECT count(*) FROM pg_class WHERE relnamespace = 'trip_ledger'::regnamespace") == before)
        let status = try ana.run("remote", "status", "--format", "json")
        #expect(status.json["schema"] as? Int == 99)
    }
}
