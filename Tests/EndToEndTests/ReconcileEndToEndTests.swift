import Foundation
import TestSupport
import Testing

/// Issue 37, "Reconcile": a card statement imported into a trip gives each purchase already logged
/// its charged amount and adds only what was never logged. Before, the Wise and Monzo cases below
/// left the trip with the purchase twice and its total counted twice.
@Suite("End to end: a statement reconciles with what was logged")
struct ReconcileEndToEndTests {
    /// A trip in `local` with home `home`, today 2025-08-10, the purchases `adds` logged by hand.
    static func trip(_ folder: TemporaryFolder, local: String, home: String, adds: [[String]] = [], extra: [String: String] = [:]) throws
        -> TripProcess
    {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2025-08-10", extra: extra)
        try #require(trip.run("new", "Trip", "--currency", local, "--home", home).exitCode == 0)
        for a in adds {
            let r = try trip.run(["add"] + a)
            try #require(r.exitCode == 0, "\(a): \(r.stderr)")
        }
        return trip
    }

    static func write(_ text: String, _ folder: TemporaryFolder, _ name: String = "statement.csv") throws -> String {
        let path = folder.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func list(_ trip: TripProcess) throws -> [[String: Any]] {
        (try trip.run("list", "--format", "json").json["purchases"] as? [[String: Any]]) ?? []
    }

    /// `currency price charged` of each purchase, by id.
    static func rows(_ trip: TripProcess) throws -> [String] {
        try list(trip).map { "#\($0["id"]!) \($0["currency"]!) \($0["price"]!) \($0["charged"] as? String ?? "-")" }
    }

    static let wiseHeader = """
        TransferWise ID,Date,Amount,Currency,Description,Payment Reference,Running Balance,Exchange From,Exchange To,Exchange Rate,Payer Name,Payee Name,Payee Account Number,Merchant,Card Last Four Digits,Card Holder Full Name,Attachment,Note,Total fees,Exchange To Amount
        """

    /// A Wise GBP account's card payment in USD: `CARD-ID,DD-MM-YYYY,-GBP,...,USD amount`.
    static func wiseRow(_ id: Int, _ date: String, gbp: String, usd: String, _ merchant: String) -> String {
        "CARD-\(id),\(date),-\(gbp),GBP,Card transaction of USD issued by \(merchant),,100.00,GBP,USD,0.75,,,,\(merchant),1234,A Traveller,,,0.00,\(usd)"
    }

    static func wise(_ rows: [String]) -> String { ([wiseHeader] + rows).joined(separator: "\n") + "\n" }

    static let software = wise([wiseRow(1, "01-08-2025", gbp: "15.05", usd: "20.00", "Software Service")])

    @Test func theIssuesWiseCaseGivesTheLoggedPurchaseItsChargedAmount() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "USD", home: "GBP", adds: [["20", "USD", "--date", "2025-07-31", "--note", "software"]])
        let r = try trip.run("import", try Self.write(Self.software, folder))
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("matched 1 (charged set), added 0, ambiguous 0"), "\(r.stdout)")
        #expect(try Self.rows(trip) == ["#1 USD 20.00 15.05"])
        let report = try trip.run("report", "--format", "json")
        #expect((report.json["totals"] as? [String: Any])?["net"] as? String == "15.05", "\(report.stdout)")
    }

    static let monzo = """
        Transaction ID,Date,Time,Type,Name,Emoji,Category,Amount,Currency,Local amount,Local currency,Notes and #tags,Address,Receipt,Description,Category split,Money Out,Money In
        tx_0001,01/08/2025,19:30:00,Card payment,Chez Lucie,,Eating out,-13.75,GBP,-24.00,CAD,,Montreal,,CHEZ LUCIE,,-13.75,

        """

    @Test func theIssuesMonzoCaseGivesTheLoggedPurchaseItsChargedAmount() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "CAD", home: "GBP", adds: [["24", "CAD", "--date", "2025-07-31", "--note", "dinner"]])
        let r = try trip.run("import", try Self.write(Self.monzo, folder))
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("matched 1 (charged set), added 0, ambiguous 0"), "\(r.stdout)")
        #expect(try Self.rows(trip) == ["#1 CAD 24.00 13.75"])
        // The note typed when it was logged stays.
        #expect(try Self.list(trip).first?["note"] as? String == "dinner")
    }

    /// Logged: #1 USD 20 on 31 July, #2 and #3 USD 30 on 2 and 3 August. The statement: the 20
    /// (matched), a 30 on 2 August (both 30s fit: ambiguous), a 12 nobody logged (added).
    static let mixed = wise([
        wiseRow(1, "01-08-2025", gbp: "15.05", usd: "20.00", "Software Service"),
        wiseRow(2, "02-08-2025", gbp: "22.58", usd: "30.00", "Museum Shop"),
        wiseRow(3, "04-08-2025", gbp: "9.03", usd: "12.00", "Metro"),
    ])

    static let mixedAdds = [
        ["20", "USD", "--date", "2025-07-31", "--note", "software"], ["30", "USD", "--date", "2025-08-02", "--note", "shop"],
        ["30", "USD", "--date", "2025-08-03", "--note", "tickets"],
    ]

    @Test func matchedAddedAndAmbiguousAreCountedAndTheAmbiguousListed() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "USD", home: "GBP", adds: Self.mixedAdds)
        let r = try trip.run("import", try Self.write(Self.mixed, folder))
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("matched 1 (charged set), added 1, ambiguous 1"), "\(r.stdout)")
        #expect(r.stdout.contains("row 2") && r.stdout.contains("#2 or #3") && r.stdout.contains("trip edit"), "\(r.stdout)")
        let rows = try Self.rows(trip)
        #expect(rows.count == 4, "\(rows)")
        #expect(rows.contains("#1 USD 20.00 15.05") && rows.contains { $0.hasSuffix("USD 12.00 9.03") }, "\(rows)")
        // Neither 30 was guessed.
        #expect(rows.filter { $0.contains("USD 30.00") }.allSatisfy { $0.hasSuffix("-") }, "\(rows)")
        // Settled as the listing asks, the same statement again matches it.
        #expect(try trip.run("edit", "2", "--charged", "22.58").exitCode == 0)
        let again = try trip.run("import", try Self.write(Self.mixed, folder))
        #expect(again.stdout.contains("matched 2 (charged set), added 0, ambiguous 0"), "\(again.stdout)")
    }

    @Test func addUnmatchedAddsTheAmbiguousRowAsItsOwnPurchase() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "USD", home: "GBP", adds: Self.mixedAdds)
        let r = try trip.run("import", try Self.write(Self.mixed, folder), "--add-unmatched")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("matched 1 (charged set), added 2, ambiguous 0"), "\(r.stdout)")
        #expect(try Self.rows(trip).count == 5)
    }

    @Test func aChargedAmountTypedByHandIsNotOverwrittenButListed() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(
            folder, local: "USD", home: "GBP", adds: [["20", "USD", "--date", "2025-07-31", "--note", "software", "--charged", "15.00"]])
        let r = try trip.run("import", try Self.write(Self.software, folder))
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("difference") && r.stdout.contains("#1") && r.stdout.contains("15.05"), "\(r.stdout)")
        #expect(try Self.rows(trip) == ["#1 USD 20.00 15.00"])
    }

    @Test func dryRunPrintsThePlanRowByRowAndWritesNothing() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "USD", home: "GBP", adds: Self.mixedAdds)
        let before = try Self.rows(trip)
        let r = try trip.run("import", try Self.write(Self.mixed, folder), "--dry-run")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("row 1") && r.stdout.contains("match #1"), "\(r.stdout)")
        #expect(r.stdout.contains("row 2") && r.stdout.contains("ambiguous"), "\(r.stdout)")
        #expect(r.stdout.contains("row 3") && r.stdout.contains("add"), "\(r.stdout)")
        #expect(r.stdout.contains("dry run: nothing written"), "\(r.stdout)")
        #expect(try Self.rows(trip) == before)
    }

    @Test func importingTheSameStatementAgainMatchesAndAddsNothing() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "USD", home: "GBP", adds: Self.mixedAdds)
        let path = try Self.write(Self.mixed, folder)
        #expect(try trip.run("import", path).exitCode == 0)
        let after = try Self.rows(trip)
        let again = try trip.run("import", path)
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(again.stdout.contains("matched 1 (charged set), added 0, ambiguous 1"), "\(again.stdout)")
        #expect(try Self.rows(trip) == after)
    }

    @Test func aPurchaseOutsideTheWindowIsNotMatchedUnlessTheSettingWidensIt() throws {
        let folder = TemporaryFolder()
        let adds = [["20", "USD", "--date", "2025-07-27", "--note", "software"]]
        let trip = try Self.trip(folder, local: "USD", home: "GBP", adds: adds)
        let path = try Self.write(Self.software, folder)
        let dry = try trip.run("import", path, "--dry-run")
        #expect(dry.stdout.contains("matched 0 (charged set), added 1"), "\(dry.stdout)")
        let config = folder.file("config.toml")
        try "statement_match_days = 5\n".write(toFile: config, atomically: true, encoding: .utf8)
        let wide = try trip.run("import", path, "--config", config)
        #expect(wide.stdout.contains("matched 1 (charged set), added 0"), "\(wide.stdout)")
        #expect(try Self.rows(trip) == ["#1 USD 20.00 15.05"])
    }

    @Test func aGroupTripsPurchaseKeepsItsPayer() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "USD", home: "GBP")
        for args in [["member", "add", "Ana", "Ben"], ["whoami", "ana"], ["add", "20", "USD", "--date", "2025-07-31", "--paid-by", "ben"]] {
            let r = try trip.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        }
        let r = try trip.run("import", try Self.write(Self.software, folder))
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("matched 1 (charged set), added 0"), "\(r.stdout)")
        let balances = try trip.run("balances", "--format", "json")
        let members = (balances.json["members"] as? [[String: Any]]) ?? []
        #expect(members.map { "\($0["name"]!) \($0["paid"]!)" } == ["Ana 0.00", "Ben 15.05"], "\(balances.stdout)")
    }

    @Test func theJSONFormGivesThePlan() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "USD", home: "GBP", adds: Self.mixedAdds)
        let r = try trip.run("import", try Self.write(Self.mixed, folder), "--format", "json")
        #expect(r.exitCode == 0, "\(r.stderr)")
        let plan = r.json["reconcile"] as? [String: Any]
        #expect(plan?["matched"] as? Int == 1 && plan?["added"] as? Int == 1 && plan?["ambiguous"] as? Int == 1, "\(r.stdout)")
        let rows = (plan?["rows"] as? [[String: Any]]) ?? []
        try #require(rows.map { $0["outcome"] as? String ?? "" } == ["matched", "ambiguous", "added"], "\(r.stdout)")
        #expect(rows[1]["candidates"] as? [Int] == [2, 3], "\(r.stdout)")
    }
}
