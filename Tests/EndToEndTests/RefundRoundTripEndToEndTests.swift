import Foundation
import TestSupport
import Testing

/// Issue 34, item 3: a refund keeps its purchase through `trip export` and `trip import`, so what
/// remains to refund is the same after the round trip.
@Suite("End to end: refunds through export and import")
struct RefundRoundTripEndToEndTests {
    /// A Japan trip whose purchases are logged out of date order, so the exporting ledger's ids
    /// are not the ones a fresh ledger gives the same rows: a ¥10,200 jacket (#2), ¥4,000 of it
    /// back (#3), and a ¥3,240 ramen (#1, dated later).
    static func source(_ folder: TemporaryFolder) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("source.sqlite"), today: "2026-03-05")
        try #require(trip.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(trip.run("rates", "set", "JPY", "0.0067", "--date", "2026-03-01").exitCode == 0)
        try #require(trip.run("add", "3240", "ramen", "--date", "2026-03-04").exitCode == 0)
        try #require(trip.run("add", "10200", "jacket", "--date", "2026-03-02").exitCode == 0)
        try #require(trip.run("refund", "2", "4000", "--date", "2026-03-03").exitCode == 0)
        return trip
    }

    static func target(_ folder: TemporaryFolder) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("target.sqlite"), today: "2026-03-05")
        try #require(trip.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        return trip
    }

    @Test func aRefundStillRefundsItsPurchaseAfterExportAndImport() throws {
        let folder = TemporaryFolder()
        let export = try Self.source(folder).run("export", "--format", "csv")
        #expect(export.exitCode == 0, "\(export.stderr)")
        let path = folder.file("exp.csv")
        try export.stdout.write(toFile: path, atomically: true, encoding: .utf8)

        let trip = try Self.target(folder)
        let imported = try trip.run("import", path)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        // In the new ledger the jacket is #1 (first by date), its refund #2, the ramen #3.
        let list = try trip.run("list")
        #expect(list.stdout.contains("refund of #1"), "\(list.stdout)")
        #expect(!list.stdout.contains("#?"), "\(list.stdout)")
        let refund = try trip.run("list", "--format", "json")
        #expect(refund.stdout.contains("\"refund_of\":1"), "\(refund.stdout)")

        // What remains is ¥6,200, not the whole ¥10,200 again.
        let tooMuch = try trip.run("refund", "1", "10200")
        #expect(tooMuch.exitCode == 65)
        #expect(tooMuch.stderr == "trip: amount: \"10200\" is more than what remains to refund of purchase #1: 6200 JPY of 10200 JPY\n")
        let rest = try trip.run("refund", "1", "--format", "json")
        #expect(rest.exitCode == 0, "\(rest.stderr)")
        #expect(rest.json["total"] as? String == "6200")
        #expect(try trip.run("refund", "1").stderr == "trip: id: \"1\" is already refunded in full\n")

        // A second import of the same file adds nothing and links nothing twice.
        let again = try trip.run("import", path, "--format", "json")
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(again.json["imported"] as? Int == 0)
    }

    /// The fast path takes the plain purchase rows; the link must survive a file large enough for
    /// the reading pipeline and bulk mode too.
    @Test func refundsOfManyPurchasesKeepTheirLinksInALargeImport() throws {
        let folder = TemporaryFolder()
        let source = TripProcess(ledgerPath: folder.file("source.sqlite"), today: "2026-03-05")
        try #require(source.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(source.run("rates", "set", "JPY", "0.0067", "--date", "2026-03-01").exitCode == 0)
        for i in 0..<40 {
            try #require(source.run("add", "\(1000 + i)", "item \(i)", "--date", "2026-03-0\(4 - i % 3)").exitCode == 0)
        }
        for id in stride(from: 1, through: 40, by: 7) {
            try #require(source.run("refund", "\(id)", "500", "--date", "2026-03-04").exitCode == 0)
        }
        let export = try source.run("export", "--format", "csv")
        let path = folder.file("exp.csv")
        try export.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let trip = try Self.target(folder)
        #expect(try trip.run("import", path).exitCode == 0)
        let before = try source.run("report", "--format", "json").json["totals"] as? [String: Any]
        let after = try trip.run("report", "--format", "json").json["totals"] as? [String: Any]
        #expect(before?["net"] as? String == after?["net"] as? String)
        // Every refund names a purchase whose note is its own (a refund takes its purchase's note).
        let rows = try #require(try trip.run("list", "--format", "json").json["purchases"] as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as! Int, $0) })
        let refunds = rows.filter { $0["kind"] as? String == "refund" }
        #expect(refunds.count == 6)
        for r in refunds {
            let of = try #require(r["refund_of"] as? Int)
            let target = try #require(byID[of])
            #expect(target["note"] as? String == r["note"] as? String)
            #expect(target["kind"] as? String == "purchase")
        }
    }

    @Test func aRefundOfARowTheFileDoesNotHoldIsRefusedNamingTheRow() throws {
        let folder = TemporaryFolder()
        let export = try Self.source(folder).run("export", "--format", "csv")
        // Only the header and the refund row (the jacket's row left out).
        let lines = export.stdout.components(separatedBy: "\r\n")
        let refund = try #require(lines.first { $0.contains(",refund,") })
        let path = folder.file("refund-only.csv")
        try (lines[0] + "\r\n" + refund + "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        let trip = try Self.target(folder)
        let before = try dumpLedger(folder.file("target.sqlite"))
        let r = try trip.run("import", path)
        #expect(r.exitCode == 65)
        #expect(
            r.stderr
                == "trip: import: row 1, column refund_of: \"2\" names row id 2, which is not in this file; export the purchase with its refund\n")
        #expect(try dumpLedger(folder.file("target.sqlite")) == before)
    }
}
