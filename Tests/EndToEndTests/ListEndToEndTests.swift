import Foundation
import Testing
import TestSupport

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
        #expect(text == """
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
        #expect(r.stdout == """
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
