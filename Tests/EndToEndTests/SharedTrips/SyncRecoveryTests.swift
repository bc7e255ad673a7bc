import Foundation
import TestSupport
import Testing

/// What a traveller sees when a join or a sync is cut short, when a grant is taken back, and when
/// a role may not do what it asked: each says what happened in one line, with the right exit code,
/// and the next command completes the work.
@Suite("Shared trips: interrupted joins and syncs, grants taken back")
struct SyncRecoveryTests {
    /// The purchases of the ledger at `path` (0 when it has no such table yet).
    static func purchases(_ path: String) -> Int { (try? LedgerInspection.count(path, "SELECT count(*) FROM purchases")) ?? 0 }

    /// A join killed after it created the trip and before it pulled everything: joining again
    /// completes it (before, it said `trip: trip: "Big" is already on this ledger` and left it
    /// half-joined). Joining a trip fully joined says so and exits 0.
    @Test func aKilledJoinIsCompletedByJoiningAgain() throws {
        let world = try SharedTripWorld()
        let (ana, ben) = try #require(try Self.halfJoined(world), "a kill landed between the trip's creation and the end of the join")
        let again = try ben.run("join", "Big")
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(again.stdout.hasPrefix("Big: already joined here, brought up to date: "), "\(again.stdout)")
        #expect(try notes(ben) == notes(ana))
        let once = try ben.run("join", "Big", "--format", "json")
        #expect(once.exitCode == 0, "\(once.stderr)")
        #expect(once.json["joined_before"] as? Bool == true && once.json["pulled"] as? Int == 0, "\(once.stdout)")
        #expect(try snapshot(ben) == snapshot(ana))
    }

    /// Ana shares "Big" (2,000 purchases) and Ben's join of it is killed once the trip is on his
    /// ledger and before all its purchases are: Ana and Ben, or nil when no kill of 10 landed there.
    static func halfJoined(_ world: SharedTripWorld) throws -> (ana: TripProcess, ben: TripProcess)? {
        let template = try SyncCrashSafetyTests.template(world, rows: 2_000)
        let ana = world.device("ana", ledger: "ana")
        try LedgerInspection.copy(template, to: ana.ledgerPath)
        try #require(ana.run("share", "Big", "--with", "ben").exitCode == 0)
        for attempt in 0..<10 {
            let ben = world.device("ben", ledger: "ben-\(attempt)")
            let join = try SpawnedTrip(ben, ["join", "Big"], label: "join")
            // Killed as soon as the trip is on the ledger, while its purchases are still coming.
            var polls = 0
            while join.isRunning && polls < 20_000
                && ((try? LedgerInspection.count(ben.ledgerPath, "SELECT count(*) FROM shared_trips")) ?? 0) == 0
            {
                polls += 1
                usleep(200)
            }
            join.kill()
            _ = join.wait()
            let half =
                FileManager.default.fileExists(atPath: ben.ledgerPath)
                && ((try? LedgerInspection.count(ben.ledgerPath, "SELECT count(*) FROM shared_trips")) ?? 0) == 1
                && purchases(ben.ledgerPath) < 2_000
            if half { return (ana, ben) }
        }
        return nil
    }

    /// A pull cut off by the server after its first batch of 5,000: the sync says how far it got
    /// (before: "nothing was changed", though 5,000 had been applied and were never reported), and
    /// the next sync pulls the rest.
    @Test func anInterruptedPullSaysHowFarItGot() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        try #require(ana.run("new", "Big", "--currency", "JPY", "--home", "JPY").exitCode == 0)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        try #require(ben.run("join", "Big").exitCode == 0)
        let rows = 12_000
        let file = world.folder.file("statement.csv")
        try SyncCrashSafetyTests.statement(rows: rows).write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try ana.run("import", file, "--date-column", "date", "--amount-column", "amount", "--note-column", "note")
        try #require(imported.exitCode == 0, "\(imported.stderr)")
        try #require(ana.run("sync").exitCode == 0)

        let pulledSeq = "SELECT pulled_seq FROM shared_trips"
        let start = try LedgerInspection.count(ben.ledgerPath, pulledSeq)
        let onServer = try world.cluster.psql("tripadmin", database: world.database, "SELECT last_seq FROM trip_ledger.trips")
        let total = try #require(Int(onServer.trimmingCharacters(in: .whitespacesAndNewlines))) - start
        #expect(total >= rows)
        let sync = try SpawnedTrip(ben, ["sync"], label: "sync")
        var polls = 0
        while sync.isRunning && polls < 100_000 && ((try? LedgerInspection.count(ben.ledgerPath, pulledSeq)) ?? start) == start {
            polls += 1
            usleep(200)
        }
        // The first batch is in; the server now ends Ben's session.
        _ = try world.cluster.psql(
            "tripadmin", database: "postgres",
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'trip' AND datname = '\(world.database)'")
        let end = sync.wait()
        let stderr = (try? String(contentsOfFile: sync.stderrPath, encoding: .utf8)) ?? ""
        let applied = try LedgerInspection.count(ben.ledgerPath, pulledSeq) - start
        try #require(applied > 0 && applied < total, "the cut landed during the pull (applied \(applied)): \(stderr)")
        #expect(end.exitCode == 69, "\(stderr)")
        let said = "pulled \(grouped(applied)) of \(grouped(total)) changes before the connection failed"
        #expect(stderr.hasPrefix("trip: remote: ") && stderr.contains(said) && stderr.contains("run `trip sync` again"), "\(stderr)")
        #expect(!stderr.contains("nothing was changed") && stderr.split(separator: "\n").count == 1, "\(stderr)")

        let rest = try ben.run("sync", "--format", "json")
        #expect(rest.exitCode == 0, "\(rest.stderr)")
        #expect((rest.json["trips"] as? [[String: Any]])?.first?["pulled"] as? Int == total - applied, "\(rest.stdout)")
        #expect(try notes(ben).count == rows)
    }

    /// `trip unshare --with ben`: Ben's next sync is refused (77) and says why; his ledger keeps
    /// its copy; `sync --all` still syncs his other trips and names the one that failed. Only the
    /// owner grants and revokes, said in one line.
    @Test func aGrantTakenBackIsSaidAtTheNextSync() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        for name in ["Alps", "Big Lakes"] {
            try #require(ana.run("new", name, "--currency", "EUR", "--home", "EUR").exitCode == 0)
            try #require(ana.run("add", "12", "fondue").exitCode == 0)
            try #require(ana.run("share", "--with", "ben").exitCode == 0)
            try #require(ben.run("join", name).exitCode == 0)
        }
        let notOwner = try ben.run("share", "Alps", "--with", "dave")
        #expect(notOwner.exitCode == 77, "\(notOwner.stderr)")
        #expect(notOwner.stderr == "trip: share: only the owner of \"Alps\", ana, grants or revokes it (you are ben); nothing was changed\n")
        #expect(try ben.run("unshare", "Alps", "--with", "ana").exitCode == 77)
        let unknown = try ana.run("unshare", "Alps", "--with", "dave")
        #expect(unknown.exitCode == 65, "\(unknown.stderr)")

        let revoke = try ana.run("unshare", "Alps", "--with", "ben")
        #expect(revoke.exitCode == 0, "\(revoke.stderr)")
        #expect(revoke.stdout == "No longer shared with ben.\n")
        try #require(ana.run("add", "30", "lake ferry", "--trip", "Big Lakes").exitCode == 0)
        try #require(ana.run("sync", "--all").exitCode == 0)
        try #require(ben.run("use", "Alps").exitCode == 0)
        let refused = try ben.run("sync")
        #expect(refused.exitCode == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("no longer has access to \"Alps\"") && refused.stderr.contains("keeps its copy"), "\(refused.stderr)")
        #expect(try notes(ben) == ["fondue"], "the copy stays")

        let all = try ben.run("sync", "--all")
        #expect(all.exitCode == 77, "\(all.stderr)")
        #expect(all.stdout.contains("Big Lakes: pushed 0, pulled 1") && all.stdout.contains("Alps: not synced: "), "\(all.stdout)")
        #expect(all.stderr == "trip: sync: 1 of 2 trips not synced (\"Alps\"); the others were\n", "\(all.stderr)")
    }

    /// A change that cannot be applied (here one written by hand on the server, breaking a NOT
    /// NULL column) is set aside (issue 34): the sync goes on past it and says so, `trip conflicts`
    /// names the change and why, and the next sync does not stop at it. Before, it stopped that
    /// trip's sync for good.
    @Test func aChangeThatCannotBeAppliedIsSetAsideAndTheSyncGoesOn() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        for name in ["Bad", "Good"] {
            try #require(ana.run("new", name, "--currency", "EUR", "--home", "EUR").exitCode == 0)
            try #require(ana.run("add", "10", "tea").exitCode == 0)
            try #require(ana.run("share", "--with", "ben").exitCode == 0)
            try #require(ben.run("join", name).exitCode == 0)
        }
        try world.cluster.psql(
            "tripadmin", database: world.database,
            """
            INSERT INTO trip_ledger.changes (trip_gid, seq, change_id, kind, gid, op, hlc, base_hlc, device, payload)
            SELECT t.gid, t.last_seq + 1, 'broken', 'purchase', 'broken-purchase', 'put', 1, 0, 'elsewhere',
                   '{"date":"2026-03-02","currency":null,"note":"broken"}'
            FROM trip_ledger.trips t WHERE t.name = 'Bad'
            """)
        try #require(ana.run("add", "20", "cake", "--trip", "Good").exitCode == 0)
        try #require(ana.run("sync", "Good").exitCode == 0)
        try #require(ben.run("use", "Bad").exitCode == 0)
        let one = try ben.run("sync")
        #expect(one.exitCode == 0, "\(one.stderr)")
        #expect(one.stdout.contains("1 set aside"), "\(one.stdout)")
        let aside = try ben.run("conflicts")
        #expect(aside.stdout.contains("Bad  purchase broken-purchase (put, server seq "), "\(aside.stdout)")
        // Refused before it is applied (`PulledChangeCheck`), naming the field at fault.
        #expect(aside.stdout.contains("by tripadmin): purchase.currency: is null"), "\(aside.stdout)")
        let all = try ben.run("sync", "--all")
        #expect(all.exitCode == 0, "\(all.stderr)")
        #expect(all.stdout.contains("Good: pushed 0, pulled 1") && !all.stdout.contains("set aside"), "\(all.stdout)")
        try #require(ben.run("use", "Good").exitCode == 0)
        #expect(try notes(ben) == ["cake", "tea"])
    }

    /// A role never granted the trip: `trip join` on a new device creates no ledger and quotes the
    /// name so the hint can be pasted. A wrong password in `trip remote status` is 77 ("refused the
    /// login"), with no empty `trip: ` line.
    @Test func refusalsCreateNothingAndSayWhy() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), dave = world.device("dave")
        try #require(ana.run("new", "Big Trip", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("share").exitCode == 0)
        let join = try dave.run("join", "Big Trip")
        #expect(join.exitCode == 65, "\(join.stderr)")
        #expect(join.stderr.contains("`trip share \"Big Trip\" --with ROLE`"), "\(join.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dave.ledgerPath), "no ledger was created")

        var wrong = ana
        wrong.environment["TRIP_REMOTE"] = "postgresql://ana:wrong-pw@127.0.0.1:\(world.cluster.port)/\(world.database)"
        let status = try wrong.run("remote", "status")
        #expect(status.exitCode == 77, "\(status.stderr)")
        #expect(status.stdout.contains("refused the login"), "\(status.stdout)")
        #expect(!status.stderr.contains("trip: \n") && status.stderr.isEmpty, "\(status.stderr)")
    }
}

/// A count as a person reads it: thousands grouped (`12,000`).
private func grouped(_ n: Int) -> String {
    let digits = Array(String(n))
    var out = ""
    for (i, d) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(d)
    }
    return out
}
