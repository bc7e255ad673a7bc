import Foundation
import TestSupport
import Testing

/// Issue 10, group 6: `trip list` streams, and `--limit` / `--reverse` show the latest purchases.
@Suite("End to end: trip list")
struct ListEndToEndTests {
    /// Trip "Japan" with purchases #1…#5 dated so that date order differs from id order:
    /// #1 03-03, #2 03-01, #3 03-03, #4 03-02, #5 03-04.
    func fivePurchases(_ folder: TemporaryFolder) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        for (i, day) in ["03", "01", "03", "02", "04"].enumerated() {
            try #require(trip.run("add", "\(1000 + i)", "item \(i + 1)", "--rate", "0.0067", "--date", "2026-03-\(day)").exitCode == 0)
        }
        return trip
    }

    func ids(_ trip: TripProcess, _ args: String...) throws -> [Int] {
        let r = try trip.run(["list", "--format", "json"] + args)
        #expect(r.exitCode == 0, "\(r.stderr)")
        return (r.json["purchases"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
    }

    @Test func limitKeepsTheMostRecentAndReverseShowsTheNewestFirst() throws {
        let folder = TemporaryFolder()
        let trip = try fivePurchases(folder)
        #expect(try ids(trip) == [2, 4, 1, 3, 5])
        #expect(try ids(trip, "--reverse") == [5, 3, 1, 4, 2])
        #expect(try ids(trip, "--limit", "3") == [1, 3, 5])
        #expect(try ids(trip, "--limit", "3", "--reverse") == [5, 3, 1])
        #expect(try ids(trip, "--limit", "0") == [])
        #expect(try ids(trip, "--limit", "2", "--until", "2026-03-03") == [1, 3])

        // The text table shows the same rows in the same order, aligned as the full list is.
        let text = try trip.run("list", "--limit", "2", "--reverse").stdout
        #expect(
            text == """
                id  date           amount   USD  rate    note
                #5  2026-03-04  JPY 1,004  6.73  manual  item 5
                #3  2026-03-03  JPY 1,002  6.71  manual  item 3

                """)
        #expect(try trip.run("list", "--limit", "-1").exitCode == 64)
    }

    @Test func theTextTableIsUnchangedByStreaming() throws {
        let folder = TemporaryFolder()
        let trip = try fivePurchases(folder)
        try #require(trip.run("add", "12345678", "JPY", "big one", "--date", "2026-03-05", "--category", "Hotel").exitCode == 0)
        let r = try trip.run("list")
        #expect(
            r.stdout == """
                id  date                amount        USD  rate       note
                #2  2026-03-01       JPY 1,001       6.71  manual     item 2
                #4  2026-03-02       JPY 1,003       6.72  manual     item 4
                #1  2026-03-03       JPY 1,000       6.70  manual     item 1
                #3  2026-03-03       JPY 1,002       6.71  manual     item 3
                #5  2026-03-04       JPY 1,004       6.73  manual     item 5
                #6  2026-03-05  JPY 12,345,678  77,240.64  fallback*  [hotel] big one
                * provisional rate: `trip rates sync` replaces it with the rate of the purchase's date

                """)
    }

    /// 20,000 purchases through `trip import`, then the peak memory of `trip list` in each format
    /// against that of a one-purchase trip: streamed, it does not grow with the trip (a version
    /// that built the whole trip's output first grew with it, most of all for JSON).
    @Test func listRunsInConstantMemory() throws {
        let folder = TemporaryFolder()
        var trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(trip.run("new", "Tiny", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(trip.run("add", "1200", "ramen", "--rate", "0.0067").exitCode == 0)
        let path = folder.file("rows.csv")
        try ImportEndToEndTests.csv(rows: 20_000).write(toFile: path, atomically: true, encoding: .utf8)
        try #require(trip.run("import", path).exitCode == 0)
        trip.environment["TRIP_TRACE"] = "1"
        func peakKiB(_ name: String, _ format: String) throws -> Int {
            let r = try trip.run("list", "--trip", name, "--format", format)
            #expect(r.exitCode == 0)
            let line = try #require(r.stderr.split(separator: "\n").last { $0.contains("peak memory") })
            return Int(line.split(separator: " ").dropLast().last ?? "") ?? 0
        }
        for format in ["text", "json"] {
            let small = try peakKiB("Tiny", format), large = try peakKiB("Japan", format)
            #expect(large - small < 12_000, "\(format): \(small) KiB for 1 purchase, \(large) KiB for 20,000")
        }
        #expect(try trip.run("list", "--trip", "Japan").stdout.split(separator: "\n").count == 20_001)
    }
}

/// Issue 12, "Formats and exchange": `trip list --format json` and `trip export --format json`
/// give each purchase its `paid_by` and `split`, divided as `trip balances` divides them.
@Suite("End to end: paid_by and split in list and export JSON")
struct ListSplitEndToEndTests {
    /// S$100.00 at 1 SGD = 0.74 USD (home 74.00) shared by Ana, Ben and Carla and paid by Ben; a
    /// refund of S$10.00 of it; a taxi paid 30/70 and split 2:1.
    @Test func listAndExportCarryEachShareAndHomeShare() throws {
        let (folder, trip) = try GroupTripEndToEndTests.singapore()
        defer { withExtendedLifetime(folder) {} }
        try #require(trip.run("add", "100", "dinner", "--date", "2026-03-02").exitCode == 0)
        try #require(trip.run("refund", "1", "10", "--date", "2026-03-03").exitCode == 0)
        try #require(
            trip.run(
                "add", "100", "taxi", "--paid-by", "ana=30,ben=rest", "--split", "ana=2,ben=1",
                "--date", "2026-03-04"
            ).exitCode == 0)
        let list = try trip.run("list", "--format", "json")
        #expect(list.exitCode == 0, "\(list.stderr)")
        let purchases = try #require(list.json["purchases"] as? [[String: Any]])
        try #require(purchases.count == 3)
        let (dinner, refund, taxi) = (purchases[0], purchases[1], purchases[2])
        // 100.00 / 3: 33.34, 33.33, 33.33 (the cent left goes to the earliest member); home 74.00 / 3:
        // 24.67, 24.67, 24.66.
        #expect(GroupTripEndToEndTests.shares(dinner) == ["Ana=33.34", "Ben=33.33", "Carla=33.33"])
        #expect(GroupTripEndToEndTests.shares(dinner, "split", "home_share") == ["Ana=24.67", "Ben=24.67", "Carla=24.66"])
        #expect(GroupTripEndToEndTests.shares(dinner, "split", "weight") == ["Ana=1", "Ben=1", "Carla=1"])
        #expect(GroupTripEndToEndTests.shares(dinner, "paid_by", "paid") == ["Ben=100.00"])
        #expect(GroupTripEndToEndTests.shares(dinner, "paid_by", "home_paid") == ["Ben=74.00"])
        // The refund is shared as its purchase was; its amounts are non-negative, like every kind's.
        #expect(refund["kind"] as? String == "refund")
        #expect(GroupTripEndToEndTests.shares(refund) == ["Ana=3.34", "Ben=3.33", "Carla=3.33"])
        #expect(GroupTripEndToEndTests.shares(refund, "split", "home_share") == ["Ana=2.47", "Ben=2.47", "Carla=2.46"])
        #expect(GroupTripEndToEndTests.shares(taxi, "paid_by", "paid") == ["Ana=30.00", "Ben=70.00"])
        #expect(GroupTripEndToEndTests.shares(taxi) == ["Ana=66.67", "Ben=33.33"])
        #expect(GroupTripEndToEndTests.shares(taxi, "split", "weight") == ["Ana=2", "Ben=1"])
        #expect(GroupTripEndToEndTests.shares(taxi, "split", "home_share") == ["Ana=49.33", "Ben=24.67"])

        // Each member's balance share is the sum of their home shares (money back subtracts).
        let balances = try trip.run("balances", "--format", "json")
        let rows = try #require(balances.json["members"] as? [[String: Any]])
        #expect(rows.map { "\($0["name"]!) \($0["share"]!)" } == ["Ana 71.53", "Ben 46.87", "Carla 22.20"])

        // Export carries the same objects, and `trip edit` prints the same one.
        let export = try trip.run("export", "--format", "json")
        #expect(export.exitCode == 0, "\(export.stderr)")
        let exported = try #require(export.json["purchases"] as? [[String: Any]])
        #expect(
            exported.map { GroupTripEndToEndTests.shares($0, "split", "home_share") }
                == purchases.map { GroupTripEndToEndTests.shares($0, "split", "home_share") })
        let edited = try trip.run("edit", "3", "--format", "json").json
        #expect(NSDictionary(dictionary: edited) == NSDictionary(dictionary: taxi))
    }

    /// On a trip without members (and for a purchase logged before the trip had any) the keys are
    /// there, null: one shape of purchase object everywhere.
    @Test func withoutMembersBothKeysAreNull() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(trip.run("add", "1200", "ramen", "--rate", "0.0067").exitCode == 0)
        for args in [["list", "--format", "json"], ["export", "--format", "json"]] {
            let r = try trip.run(args)
            #expect(r.exitCode == 0, "\(r.stderr)")
            let p = try #require((r.json["purchases"] as? [[String: Any]])?.first)
            #expect(p["paid_by"] is NSNull, "\(args)")
            #expect(p["split"] is NSNull, "\(args)")
        }
        try #require(trip.run("member", "add", "Ana", "Ben").exitCode == 0)
        try #require(trip.run("whoami", "Ana").exitCode == 0)  // the payer is never a guess (issue 27)
        try #require(trip.run("add", "1000", "sushi", "--rate", "0.0067").exitCode == 0)
        let r = try trip.run("list", "--format", "json")
        let purchases = try #require(r.json["purchases"] as? [[String: Any]])
        #expect(purchases[0]["split"] is NSNull)
        #expect(GroupTripEndToEndTests.shares(purchases[1]) == ["Ana=500", "Ben=500"])
        #expect(GroupTripEndToEndTests.shares(purchases[1], "split", "home_share") == ["Ana=3.35", "Ben=3.35"])
    }
}
