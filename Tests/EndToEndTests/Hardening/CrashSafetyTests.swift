import FXTestServer
import Foundation
import TestSupport
import Testing

/// SIGKILL at random moments of `trip import` (100,000 rows) and `trip rates sync` (re-rating a
/// large trip): the ledger must stay sound, hold all of a command's writes or none, and the next
/// command must work.
///
/// Kill moments come from SplitMix64 with a fixed seed (printed), drawn uniformly over the kill
/// window: the shortest uninterrupted run seen so far (one measured first, then every complete
/// re-run after a kill, and any killed run that ended before its kill), so a slow first run on a
/// busy machine cannot push the kills past the end. Every other kill first waits until the command
/// holds the ledger's write lock, so that many land inside the write transaction. At least half the
/// kills must land while the command runs, or the suite proves nothing. `make test` runs 5
/// kills of each on smaller inputs; `make test-long` (`TRIP_LONG_TESTS=1`, the release binary
/// through `TRIP_BIN`) runs 50 of each on 100,000 rows and 40,000 purchases.
@Suite("Hardening: SIGKILL during import and rates sync", .serialized)
struct CrashSafetyTests {
    static let seed: UInt64 = 0x7219_5EED_0000_0005

    /// What the kills found; the test fails unless `corrupted` and `partial` stay 0.
    struct Tally: CustomStringConvertible {
        var kills = 0, whileWriting = 0, finishedFirst = 0, corrupted = 0, partial = 0, none = 0, all = 0
        var description: String {
            "kills \(kills) (\(whileWriting) with the write lock held, \(finishedFirst) after the command had ended), "
                + "corrupted ledgers \(corrupted), partial \(partial), nothing written \(none), everything written \(all)"
        }
    }

    /// Starts `args`, waits a seeded random moment within `window` seconds (or, when
    /// `inTransaction`, until the write lock is held and then a random moment within what is left),
    /// and sends SIGKILL. A command that ended first shortens `window` to its own run time.
    static func killAtRandom(
        _ trip: TripProcess, _ args: [String], window: inout Double, inTransaction: Bool,
        rng: inout SplitMix64, tally: inout Tally
    ) throws {
        let start = DispatchTime.now()
        let child = try SpawnedTrip(trip, args, label: "killed")
        var delay = rng.seconds(upTo: window)
        if inTransaction {
            while !ledgerWriteLockIsHeld(trip.ledgerPath) && child.isRunning && secondsSince(start) < window * 4 {
                usleep(500)
            }
            delay = rng.seconds(upTo: max(0, window - secondsSince(start)))
        }
        let deadline = secondsSince(start) + delay
        while child.isRunning && secondsSince(start) < deadline { usleep(1_000) }
        if ledgerWriteLockIsHeld(trip.ledgerPath) { tally.whileWriting += 1 }
        let ran = secondsSince(start)
        child.kill()
        if child.wait().signal == nil {
            tally.finishedFirst += 1
            window = min(window, ran)
        }
        tally.kills += 1
    }

    // MARK: import

    static let header =
        "id,trip,date,note,category,paid_with,currency,expression,price,discount,discount_spec,service,service_spec,tax,tax_spec,tax_included,tip,tip_spec,total,rounding,preset,rate,rate_date,rate_source,rate_provider,rate_fetched_at,provisional,home_currency,home_total,charged"

    /// `count` export-format rows in USD (identity rate), each with its own note.
    static func usdCSV(rows count: Int) -> String {
        var text = header + "\r\n"
        text.reserveCapacity(count * 140)
        for i in 1...count {
            let p = "\(4 + i / 100).\(i % 100 < 10 ? "0" : "")\(i % 100)"
            text +=
                "\(i),Japan,2026-03-01,coffee \(i),food,,USD,\(p),\(p),0.00,,0.00,,0.00,,false,0.00,,\(p),half-up,,1,2026-03-01,identity,,,false,USD,\(p),\r\n"
        }
        return text
    }

    @Test func killedImportWritesAllRowsOrNone() throws {
        // `make test` runs the debug binary: a 100,000-row import there takes half a minute.
        let rows = HardeningScale.pick(short: 10_000, long: 100_000)
        let kills = HardeningScale.pick(short: 5, long: 50)
        let folder = TemporaryFolder("trip-crash-import")
        let csv = folder.file("purchases.csv")
        try Self.usdCSV(rows: rows).write(toFile: csv, atomically: false, encoding: .utf8)
        let template = folder.file("template.sqlite")
        try #require(TripProcess(ledgerPath: template).run("new", "Japan", "--currency", "USD", "--home", "USD").exitCode == 0)

        // One uninterrupted import sets the range the kill moments are drawn from.
        let measured = folder.file("measured.sqlite")
        try LedgerInspection.copy(template, to: measured)
        let began = DispatchTime.now()
        let first = try TripProcess(ledgerPath: measured).run("import", csv)
        let duration = secondsSince(began)
        var window = duration
        try #require(first.exitCode == 0, "\(first.stderr)")
        try #require(try LedgerInspection.count(measured, "SELECT count(*) FROM purchases") == rows)

        var rng = SplitMix64(seed: Self.seed)
        var tally = Tally()
        let suiteStart = DispatchTime.now()
        for k in 0..<kills {
            let path = folder.file("kill\(k).sqlite")
            try LedgerInspection.copy(template, to: path)
            let trip = TripProcess(ledgerPath: path)
            try Self.killAtRandom(trip, ["import", csv], window: &window, inTransaction: k % 2 == 1, rng: &rng, tally: &tally)

            let integrity = try LedgerInspection.integrity(path)
            if integrity != "ok" { tally.corrupted += 1 }
            #expect(integrity == "ok", "kill \(k)")
            let count = try LedgerInspection.count(path, "SELECT count(*) FROM purchases")
            switch count {
            case 0: tally.none += 1
            case rows: tally.all += 1
            default: tally.partial += 1
            }
            #expect(count == 0 || count == rows, "kill \(k): \(count) purchases")

            let next = try trip.run("trips")
            #expect(next.exitCode == 0, "kill \(k): \(next.stderr)")
            let rerun = DispatchTime.now()
            let again = try trip.run("import", csv, "--format", "json")
            if count == 0 && again.exitCode == 0 { window = min(window, secondsSince(rerun)) }
            #expect(again.exitCode == 0, "kill \(k): \(again.stderr)")
            #expect(again.json["imported"] as? Int == rows - count, "kill \(k)")
            #expect(try LedgerInspection.count(path, "SELECT count(*) FROM purchases") == rows, "kill \(k)")
            #expect(try LedgerInspection.count(path, "SELECT count(DISTINCT import_key) FROM purchases") == rows, "kill \(k)")
            #expect(try LedgerInspection.count(path, "SELECT count(DISTINCT note) FROM purchases") == rows, "kill \(k)")
            for suffix in ["", "-wal", "-shm", ".killed.out", ".killed.err"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        print(
            "crash safety, import of \(rows) rows: seed \(String(Self.seed, radix: 16)), first import \(String(format: "%.2f", duration)) s, "
                + "kill window \(String(format: "%.2f", window)) s; \(tally); \(String(format: "%.1f", secondsSince(suiteStart))) s")
        #expect(tally.kills == kills)
        #expect(tally.kills - tally.finishedFirst >= kills / 2, "most kills must land while the import runs: \(tally)")
        #expect(tally.corrupted == 0)
        #expect(tally.partial == 0)
    }

    // MARK: rates sync

    /// `count` unconverted JPY purchases (rate_source none) spread over the days the ECB file covers.
    static func unconvertedJPYCSV(rows count: Int) -> String {
        var text = header + "\r\n"
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let first = calendar.date(from: DateComponents(year: 2016, month: 12, day: 5))!
        let days = (0..<88).map { d in
            let c = calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: d, to: first)!)
            return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        }
        for i in 1...count {
            let p = String(100 + i % 9_000)
            text += "\(i),Xmas,\(days[i % days.count]),ramen \(i),food,,JPY,\(p),\(p),0,,0,,0,,false,0,,\(p),half-up,,,,none,,,true,USD,,\r\n"
        }
        return text
    }

    @Test func killedSyncCachesEachResponseWholeAndReratesAllOrNone() throws {
        let purchases = HardeningScale.pick(short: 5_000, long: 40_000)
        let kills = HardeningScale.pick(short: 5, long: 50)
        let folder = TemporaryFolder("trip-crash-sync")
        let mirror = try ECBMirror(folder: folder)
        defer { withExtendedLifetime(mirror) {} }  // the server serves until the test ends
        let trip = mirror.trip
        let template = folder.file("template.sqlite")
        try #require(trip(template).run("new", "Xmas", "--currency", "JPY", "--home", "USD").exitCode == 0)
        let csv = folder.file("ramen.csv")
        try Self.unconvertedJPYCSV(rows: purchases).write(toFile: csv, atomically: false, encoding: .utf8)
        let imported = try trip(template).run("import", csv)
        try #require(imported.exitCode == 0, "\(imported.stderr)")
        let rerated = "SELECT count(*) FROM purchases WHERE rate_source = 'provider' AND provisional = 0"
        try #require(try LedgerInspection.count(template, rerated) == 0)

        let measured = folder.file("measured.sqlite")
        try LedgerInspection.copy(template, to: measured)
        let began = DispatchTime.now()
        let first = try trip(measured).run("rates", "sync")
        let duration = secondsSince(began)
        var window = duration
        try #require(first.exitCode == 0, "\(first.stderr)")
        let observations = try LedgerInspection.count(measured, "SELECT count(*) FROM rate_observations")
        let states = try LedgerInspection.count(measured, "SELECT count(*) FROM provider_state")
        try #require(observations > 1_000)
        try #require(states == 1)
        try #require(try LedgerInspection.count(measured, rerated) == purchases)

        var rng = SplitMix64(seed: Self.seed ^ 0x5_1AC)
        var tally = Tally()
        var cachedOnly = 0
        let suiteStart = DispatchTime.now()
        for k in 0..<kills {
            let path = folder.file("kill\(k).sqlite")
            try LedgerInspection.copy(template, to: path)
            let t = trip(path)
            try Self.killAtRandom(t, ["rates", "sync"], window: &window, inTransaction: k % 2 == 1, rng: &rng, tally: &tally)

            let integrity = try LedgerInspection.integrity(path)
            if integrity != "ok" { tally.corrupted += 1 }
            #expect(integrity == "ok", "kill \(k)")
            // The response batch (its observations and its provider_state row) is stored whole or not
            // at all; re-rating is one later transaction over every purchase.
            let cached = try LedgerInspection.count(path, "SELECT count(*) FROM rate_observations")
            let state = try LedgerInspection.count(path, "SELECT count(*) FROM provider_state")
            let done = try LedgerInspection.count(path, rerated)
            let untouched = try LedgerInspection.count(path, "SELECT count(*) FROM purchases WHERE rate_source = 'none' AND provisional = 1")
            let batchWhole = (cached == 0 && state == 0) || (cached == observations && state == states)
            let rerateWhole = (done == 0 && untouched == purchases) || (done == purchases && cached == observations)
            if !batchWhole || !rerateWhole { tally.partial += 1 }
            if done == purchases { tally.all += 1 } else if cached == 0 { tally.none += 1 } else { cachedOnly += 1 }
            #expect(batchWhole, "kill \(k): \(cached) observations, \(state) provider rows")
            #expect(rerateWhole, "kill \(k): \(done) re-rated, \(untouched) untouched of \(purchases)")

            #expect(try t.run("trips").exitCode == 0, "kill \(k)")
            let rerun = DispatchTime.now()
            let again = try t.run("rates", "sync")
            if cached == 0 && again.exitCode == 0 { window = min(window, secondsSince(rerun)) }
            #expect(again.exitCode == 0, "kill \(k): \(again.stderr)")
            #expect(try LedgerInspection.count(path, rerated) == purchases, "kill \(k)")
            #expect(try LedgerInspection.count(path, "SELECT count(*) FROM rate_observations") == observations, "kill \(k)")
            for suffix in ["", "-wal", "-shm", ".killed.out", ".killed.err"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        print(
            "crash safety, rates sync re-rating \(purchases) purchases (\(observations) observations per response): seed "
                + "\(String(Self.seed ^ 0x5_1AC, radix: 16)), first sync \(String(format: "%.2f", duration)) s, kill window "
                + "\(String(format: "%.2f", window)) s; \(tally), "
                + "cached but not yet re-rated \(cachedOnly); \(String(format: "%.1f", secondsSince(suiteStart))) s")
        #expect(tally.kills == kills)
        #expect(tally.kills - tally.finishedFirst >= kills / 2, "most kills must land while the sync runs: \(tally)")
        #expect(tally.corrupted == 0)
        #expect(tally.partial == 0)
    }
}
