import Foundation
import TestSupport
import Testing

/// Issue 34's smaller items: what `trip` prints must be true of the ledger.
@Suite("End to end: output that is true")
struct TruthfulOutputEndToEndTests {
    /// A credit is money received, not a price the trip's tax-included preset describes.
    @Test func aCreditShowsNoTaxFromTheTripsPreset() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2026-03-05")
        try #require(trip.run("new", "Japan", "--currency", "JPY", "--home", "USD", "--preset", "jp").exitCode == 0)
        try #require(trip.run("rates", "set", "JPY", "0.0067", "--date", "2026-03-01").exitCode == 0)
        let credit = try trip.run("add", "1500", "tax-free", "--refund")
        #expect(credit.exitCode == 0, "\(credit.stderr)")
        #expect(!credit.stdout.contains("tax".appending(" 10%")), "\(credit.stdout)")
        #expect(!credit.stdout.contains("preset"), "\(credit.stdout)")
        // A purchase still takes the preset, and the report's included tax is the lunch's alone.
        let lunch = try trip.run("add", "1000", "lunch")
        #expect(lunch.stdout.contains("of which tax 10% (included)"), "\(lunch.stdout)")
        let report = try trip.run("report", "--format", "json").json
        #expect((report["totals"] as? [String: Any])?["tax_included"] as? String == "0.60")
    }

    @Test func aListFilterThatMatchesNothingSaysSo() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2026-03-05")
        try #require(trip.run("new", "S", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        #expect(try trip.run("list", "-c", "food").stdout == "No purchases in S.\n")
        try #require(trip.run("add", "4", "coffee", "--category", "drinks").exitCode == 0)
        let r = try trip.run("list", "-c", "food")
        #expect(r.exitCode == 0)
        #expect(r.stdout == "No purchases in S match --category food.\n")
        #expect(try trip.run("list", "--since", "2026-03-06").stdout == "No purchases in S match --since 2026-03-06.\n")
    }

    /// Counts beside the breakdown lines are grouped as the subtitle's are: `(1,200)`, not `(1200)`.
    @Test func reportCountsAreGroupedLikeTheRestOfTheReport() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan", "--currency", "USD", "--home", "USD").exitCode == 0)
        let path = folder.file("many.csv")
        try ImportEndToEndTests.csv(rows: 1200).write(toFile: path, atomically: true, encoding: .utf8)
        try #require(trip.run("import", path).exitCode == 0)
        let text = try trip.run("report").stdout
        #expect(text.contains("1,200 purchases"), "\(text)")
        #expect(text.contains("(1,200)"), "\(text)")
        #expect(!text.contains("1200"), "\(text)")
        let markdown = try trip.run("report", "--format", "markdown").stdout
        #expect(markdown.contains("| 1,200 |"), "\(markdown)")
        #expect(!markdown.contains("1200"), "\(markdown)")
    }
}
