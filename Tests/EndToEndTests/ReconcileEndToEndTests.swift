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

    /// A match writes the charged amount in place (`PurchaseStore.writeCharged`), not by deleting
    /// and inserting the purchase as `trip edit` does: on a shared group trip it must still leave
    /// everything as `trip edit ID --charged` leaves it. One ledger imports the statement, its
    /// twin (a copy of the same device, same global ids) runs the edit; they must then agree on
    /// the listing, the exports, every column of the purchase but where its charged amount came
    /// from, its split, the sync rows and what waits in the outbox, and the next id handed out.
    @Test func aMatchLeavesASharedTripAsTripEditChargedDoes() throws {
        let world = try SharedTripWorld()
        // Logged on the 5th, reconciled on the 10th: the write stamps its own time.
        let logging = world.device("ana", today: "2025-08-05"), ana = world.device("ana", today: "2025-08-10")
        let setup = [
            ["new", "NYC", "--currency", "USD", "--home", "GBP"], ["member", "add", "Ana", "Ben"], ["whoami", "ana"],
            // USD 20 + 10% tax + USD 2 tip = USD 24.00: the charge is spread over tax and tip too.
            ["add", "20", "USD", "--date", "2025-07-31", "--note", "software", "--tax", "10%", "--tip", "2", "--paid-by", "ben"],
            ["add", "3*12", "USD", "--date", "2025-08-01", "--note", "lunch", "--split", "ana"],
            ["share", "--with", "ben"],
        ]
        for args in setup {
            let r = try logging.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        }
        try LedgerInspection.checkpoint(ana.ledgerPath)
        let twinPath = world.folder.file("ana-twin.sqlite")
        try LedgerInspection.copy(ana.ledgerPath, to: twinPath)
        let twin = TripProcess(ledgerPath: twinPath, today: "2025-08-10", extra: ["TRIP_REMOTE": ana.environment["TRIP_REMOTE"] ?? ""])

        let statement = try Self.write(Self.wise([Self.wiseRow(1, "01-08-2025", gbp: "18.05", usd: "24.00", "Software Service")]), world.folder)
        let imported = try ana.run("import", statement)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("matched 1 (charged set), added 0"), "\(imported.stdout)")
        let edited = try twin.run("edit", "1", "--charged", "18.05")
        #expect(edited.exitCode == 0, "\(edited.stderr)")

        for args in [
            ["list", "--format", "json"], ["export", "--format", "json"], ["export", "--format", "csv"], ["balances", "--format", "json"],
        ] {
            let a = try ana.run(args), b = try twin.run(args)
            #expect(a.exitCode == 0 && b.exitCode == 0, "\(args): \(a.stderr) \(b.stderr)")
            #expect(a.stdout == b.stdout, "\(args)")
        }
        let listed = try Self.rows(ana)
        #expect(listed == ["#1 USD 20.00 18.05", "#2 USD 36.00 -"], "\(listed)")
        let columns = try LedgerInspection.rows(ana.ledgerPath, "SELECT name FROM pragma_table_info('purchases') WHERE name != 'charged_source'")
        let tables = [
            "SELECT \(columns.joined(separator: ", ")) FROM purchases ORDER BY id",
            "SELECT * FROM purchase_splits ORDER BY trip_id, purchase_id",
            "SELECT * FROM sync_rows ORDER BY kind, local_id",
            // Writes to one row before a sync travel as one change of the row as it then is.
            "SELECT DISTINCT trip_id, kind, local_id FROM sync_outbox WHERE change_id IS NULL ORDER BY 1, 2, 3",
            "SELECT device, applying FROM sync_state",
            "SELECT * FROM removed_purchases ORDER BY id",
        ]
        for sql in tables {
            #expect(try LedgerInspection.rows(ana.ledgerPath, sql) == LedgerInspection.rows(twinPath, sql), "\(sql)")
        }
        let waiting = try LedgerInspection.rows(ana.ledgerPath, "SELECT kind, local_id FROM sync_outbox WHERE change_id IS NULL ORDER BY id")
        #expect(waiting.contains("purchase|1"), "the match waits to travel: \(waiting)")
        // Where the charged amount came from: the statement's row here, typed by hand there.
        let sources = try LedgerInspection.rows(ana.ledgerPath, "SELECT coalesce(charged_source, '-') FROM purchases ORDER BY id")
        #expect(sources.count == 2 && sources[0].hasPrefix("statement:") && sources[1] == "-", "\(sources)")
        #expect(try LedgerInspection.rows(twinPath, "SELECT coalesce(charged_source, '-') FROM purchases ORDER BY id") == ["-", "-"])
        // The edit's delete raised the high-water mark of removed ids; the next id is the same.
        let nextA = try ana.run("add", "1", "USD", "--note", "next"), nextB = try twin.run("add", "1", "USD", "--note", "next")
        #expect(nextA.exitCode == 0 && nextA.stdout.contains("#3") && nextA.stdout == nextB.stdout, "\(nextA.stdout) \(nextB.stdout)")
    }
}
