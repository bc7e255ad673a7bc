import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `trip share`, `join` and `sync` killed with SIGKILL at seeded moments, the server restarted and
/// connections cut mid-sync, and many devices syncing at once. After each: the ledger passes
/// `integrity_check`, the next sync completes, and every purchase is on every device exactly once.
/// `make test` runs them small; `make test-long` (TRIP_LONG_TESTS=1) at full size: 50 kills during
/// a push and 50 during a pull of a 10,000-purchase trip.
@Suite("Hardening: shared trips under kills, server restarts and load")
struct SyncCrashSafetyTests {
    /// A card statement of `rows` purchases with distinct notes (`p00001`…), in JPY.
    static func statement(rows: Int, prefix: String = "p") -> String {
        var csv = "date,amount,note\n"
        for i in 1...rows {
            csv += "2026-03-\(String(format: "%02d", 1 + i % 9)),\(100 + i % 997),\(prefix)\(String(format: "%05d", i))\n"
        }
        return csv
    }

    /// A ledger holding one unshared trip "Big" of `rows` purchases, with members ana and ben.
    static func template(_ world: SharedTripWorld, rows: Int) throws -> String {
        let ana = world.device("ana", ledger: "template")
        try #require(ana.run("new", "Big", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(ana.run("member", "add", "ana", "ben").exitCode == 0)
        try #require(ana.run("whoami", "ana").exitCode == 0)  // the payer is never a guess (issue 27)
        let file = world.folder.file("statement.csv")
        try statement(rows: rows).write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try ana.run("import", file, "--date-column", "date", "--amount-column", "amount", "--note-column", "note", "--currency", "JPY")
        try #require(imported.exitCode == 0, "\(imported.stderr)")
        try LedgerInspection.checkpoint(ana.ledgerPath)
        return ana.ledgerPath
    }

    /// The `i`-th of `count` kill moments in a run of `window` seconds: spread evenly over its first
    /// 90%, each moved by a seeded jitter of up to a tenth of a step, so that every part of the
    /// push or pull is hit and the early kills surely land while it runs.
    static func moment(_ i: Int, of count: Int, in window: Double, _ random: inout SplitMix64) -> Double {
        let step = window * 0.9 / Double(count)
        return step * (Double(i) + 0.45) + random.seconds(upTo: step / 10)
    }

    /// Runs `args` and kills it after `delay` seconds; whether the kill landed. Read from how the
    /// process ended (by SIGKILL, not by an exit), not from whether it ran just before the kill:
    /// it could exit between that look and the signal.
    static func killed(_ trip: TripProcess, _ args: [String], after delay: Double, label: String) throws -> Bool {
        let p = try SpawnedTrip(trip, args, label: label)
        usleep(UInt32(delay * 1_000_000))
        p.kill()
        return p.wait().signal == SIGKILL
    }

    /// Tries of one kill, restart or cut before the test fails: a run faster than the timed one
    /// can end before the event, and is then run again (earlier, for a kill) instead of passing
    /// without it.
    static let tries = 5

    /// The `trip` connections the server has now (`trip` sets `application_name`).
    static func tripBackends(_ cluster: PostgresCluster) throws -> Int {
        let out = try cluster.psql(
            "tripadmin", database: "postgres", "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'trip'")
        return Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test func aSyncKilledAtAnyMomentOfAPushOrAPullLosesNothingAndDoublesNothing() throws {
        let rows = HardeningScale.pick(short: 2_000, long: 10_000)
        let kills = HardeningScale.pick(short: 6, long: 50)
        var random = SplitMix64(seed: 0x5EED_0013)
        let setup = try SharedTripWorld()
        let template = try Self.template(setup, rows: rows)

        // How long an uninterrupted first share takes: the kills are drawn inside it.
        let timed = try SharedTripWorld(cluster: setup.cluster)
        let first = timed.device("ana", ledger: "timed")
        try LedgerInspection.copy(template, to: first.ledgerPath)
        let start = DispatchTime.now()
        let shared = try first.run("share", "Big", "--with", "ben")
        try #require(shared.exitCode == 0, "\(shared.stderr)")
        let pushSeconds = secondsSince(start)
        #expect(try timed.purchases() == (rows, rows))

        var interrupted = 0
        for i in 0..<kills {
            var delay = Self.moment(i, of: kills, in: pushSeconds, &random)
            var world = try SharedTripWorld(cluster: setup.cluster)
            var ana = world.device("ana", ledger: "push-\(i)")
            for attempt in 1...Self.tries {
                try LedgerInspection.copy(template, to: ana.ledgerPath)
                if try Self.killed(ana, ["share", "Big", "--with", "ben"], after: delay, label: "share") {
                    interrupted += 1
                    break
                }
                guard attempt < Self.tries else { break }
                // The share ended before the kill: a fresh server database, and a kill earlier on.
                delay /= 2
                world = try SharedTripWorld(cluster: setup.cluster)
                ana = world.device("ana", ledger: "push-\(i)-\(attempt)")
            }
            #expect(try LedgerInspection.integrity(ana.ledgerPath) == "ok", "kill \(i) at \(delay) s")
            let again = try ana.run("share", "Big", "--with", "ben")
            #expect(again.exitCode == 0, "kill \(i) at \(delay) s: \(again.stderr)")
            #expect(try world.purchases() == (rows, rows), "kill \(i) at \(delay) s: every purchase on the server exactly once")
            let idle = try ana.run("sync", "--format", "json").json["trips"] as? [[String: Any]]
            #expect(idle?.first?["pushed"] as? Int == 0 && idle?.first?["sent"] as? Int == 0, "nothing left to send after kill \(i)")
        }
        #expect(interrupted == kills, "every kill landed while the push ran")

        // Pulls: Ben joins the trip `first` shared, killed at seeded moments.
        let ben0 = timed.device("ben", ledger: "ben-timed")
        let joinStart = DispatchTime.now()
        try #require(ben0.run("join", "Big").exitCode == 0)
        let pullSeconds = secondsSince(joinStart)
        let expected = try notes(ben0)
        #expect(expected.count == rows)
        interrupted = 0
        for i in 0..<kills {
            var delay = Self.moment(i, of: kills, in: pullSeconds, &random)
            var ben = timed.device("ben", ledger: "pull-\(i)")
            for attempt in 1...Self.tries {
                if try Self.killed(ben, ["join", "Big"], after: delay, label: "join") {
                    interrupted += 1
                    break
                }
                guard attempt < Self.tries else { break }
                // The join ended before the kill: a fresh ledger, and a kill earlier on.
                delay /= 2
                ben = timed.device("ben", ledger: "pull-\(i)-\(attempt)")
            }
            if FileManager.default.fileExists(atPath: ben.ledgerPath) {
                #expect(try LedgerInspection.integrity(ben.ledgerPath) == "ok", "kill \(i) at \(delay) s")
            }
            // Joined already (the trip is here): the next sync completes it; else join again.
            let here = (try? ben.run("trips").stdout.contains("Big")) ?? false
            let finish = try ben.run(here ? ["sync", "Big"] : ["join", "Big"])
            #expect(finish.exitCode == 0, "kill \(i) at \(delay) s: \(finish.stderr)")
            #expect(try notes(ben) == expected, "kill \(i) at \(delay) s: every purchase exactly once")
        }
        #expect(interrupted == kills, "every kill landed while the pull ran")
        #expect(try snapshot(ben0) == snapshot(first))
    }

    /// The server stopped or restarted while a sync runs, or its connection cut mid-transaction:
    /// the sync fails with one line (exit 69) and changes nothing; the next one completes. The
    /// restart and the cuts are observed, not assumed: the restart is issued while the share's
    /// connection is on the server and the share ends with exit 69, and each cut counts the `trip`
    /// connections `pg_terminate_backend` ended during the join.
    @Test func aServerRestartOrACutConnectionMidSyncLosesNothing() throws {
        let cluster = try PostgresCluster.startPrivate("restart")
        defer { try? cluster.control("stop") }
        let setup = try SharedTripWorld(cluster: cluster)
        let rows = HardeningScale.pick(short: 2_000, long: 10_000)
        let template = try Self.template(setup, rows: rows)

        // Restart while the first share pushes. A share that ends before the restart reaches it
        // (exit 0) proves nothing: it is run again on a fresh server database.
        var world = setup
        var ana = world.device("ana", ledger: "ana")
        var restarted = false
        for attempt in 1...Self.tries {
            try LedgerInspection.copy(template, to: ana.ledgerPath)
            let share = try SpawnedTrip(ana, ["share", "Big", "--with", "ben"], label: "share")
            while share.isRunning, try Self.tripBackends(cluster) == 0 { usleep(1_000) }
            if share.isRunning {
                try cluster.control("restart")
                let ended = share.wait()
                if ended.exitCode == 69 {
                    #expect(
                        share.stderr.hasPrefix("trip: remote: ") && share.stderr.split(separator: "\n").count == 1,
                        "\(share.stderr)")
                    restarted = true
                } else {
                    // It finished its last statement before the restart: the only other outcome.
                    #expect(ended.exitCode == 0, "\(share.stderr)")
                }
            } else {
                #expect(share.wait().exitCode == 0, "\(share.stderr)")
            }
            if restarted || attempt == Self.tries { break }
            world = try SharedTripWorld(cluster: cluster)
            ana = world.device("ana", ledger: "ana-\(attempt)")
        }
        try #require(restarted, "a restart landed while the share ran (\(Self.tries) tries)")
        #expect(try LedgerInspection.integrity(ana.ledgerPath) == "ok")
        let again = try ana.run("share", "Big", "--with", "ben")
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(try world.purchases() == (rows, rows))

        // Server down: exit 69, nothing changed; back up: the sync completes.
        try #require(ana.run("add", "500", "late snack").exitCode == 0)
        try cluster.control("halt")
        let before = try dumpLedger(ana.ledgerPath)
        let down = try ana.run("sync")
        #expect(down.exitCode == 69, "\(down.stderr)")
        #expect(down.stderr.contains("unreachable"), "\(down.stderr)")
        #expect(try dumpLedger(ana.ledgerPath) == before)
        try cluster.control("restart")
        #expect(try ana.run("sync").exitCode == 0)
        #expect(try world.purchases() == (rows + 1, rows + 1))

        // Connections cut mid-pull, again and again, until Ben's join completes. A cut landed
        // when `pg_terminate_backend` answers `t` for a `trip` connection while the join runs (the
        // only `trip` process then); a join that ends before any lands is run again.
        var ben = world.device("ben")
        var landed = 0
        for attempt in 1...Self.tries {
            let join = try SpawnedTrip(ben, ["join", "Big"], label: "join")
            var cuts = 0
            while join.isRunning && cuts < 50 {
                let ended = try cluster.psql(
                    "tripadmin", database: "postgres",
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'trip'")
                landed += ended.split(separator: "\n").filter { $0 == "t" }.count
                cuts += 1
                usleep(20_000)
            }
            _ = join.wait()
            if landed > 0 || attempt == Self.tries { break }
            ben = world.device("ben", ledger: "ben-\(attempt)")
        }
        #expect(landed > 0, "a cut ended a trip connection during the join (\(Self.tries) tries)")
        // A join cut before it made the trip current leaves no current trip: ask for Big by name.
        func listed() throws -> Int {
            (try ben.run("list", "--trip", "Big", "--format", "json").json["purchases"] as? [Any])?.count ?? -1
        }
        for _ in 0..<5 where try listed() != rows + 1 {
            let here = (try? ben.run("trips").stdout.contains("Big")) ?? false
            _ = try ben.run(here ? ["sync", "Big"] : ["join", "Big"])
        }
        _ = try ben.run("use", "Big")
        if FileManager.default.fileExists(atPath: ben.ledgerPath) {
            #expect(try LedgerInspection.integrity(ben.ledgerPath) == "ok")
        }
        #expect(try notes(ben) == notes(ana))
        #expect(try snapshot(ben) == snapshot(ana))
    }

    /// 20 devices, 200 purchases each, all syncing at once against one server: after a final
    /// sync, all 4,000 are on every device, none twice.
    @Test func twentyDevicesSyncingAtOnceEndWithEveryPurchaseOnce() throws {
        let world = try SharedTripWorld()
        let devices = 20, each = 200
        let ana = world.device("ana", ledger: "device-0")
        try #require(ana.run("new", "Crowd", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        var all = [ana]
        for i in 1..<devices {
            let d = world.device("ben", ledger: "device-\(i)")
            try #require(d.run("join", "Crowd").exitCode == 0)
            all.append(d)
        }
        for (i, d) in all.enumerated() {
            let file = world.folder.file("device-\(i).csv")
            try Self.statement(rows: each, prefix: "d\(i)-").write(toFile: file, atomically: true, encoding: .utf8)
            let r = try d.run("import", file, "--date-column", "date", "--amount-column", "amount", "--note-column", "note")
            try #require(r.exitCode == 0, "\(r.stderr)")
        }
        let start = DispatchTime.now()
        let running = try all.enumerated().map { i, d in try SpawnedTrip(d, ["sync"], label: "sync-\(i)") }
        for (i, p) in running.enumerated() {
            let end = p.wait()
            #expect(end.exitCode == 0, "device \(i): \(p.stderr)")
        }
        let seconds = secondsSince(start)
        for d in all { #expect(try d.run("sync").exitCode == 0) }
        #expect(try world.purchases() == (devices * each, devices * each))
        let expected = try notes(ana)
        #expect(expected.count == devices * each)
        for d in all { #expect(try notes(d) == expected) }
        print("load: \(devices) devices x \(each) purchases synced at once in \(String(format: "%.2f", seconds)) s")
    }
}
