import Foundation
import TestSupport
import Testing

/// `trip import` through the binary: atomic on a bad row, duplicates skipped on re-import.
@Suite("End to end: trip import")
struct ImportEndToEndTests {
    static let header =
        "id,trip,date,note,category,paid_with,currency,expression,price,discount,discount_spec,service,service_spec,tax,tax_spec,tax_included,tip,tip_spec,total,rounding,preset,rate,rate_date,rate_source,rate_provider,rate_fetched_at,provisional,home_currency,home_total,charged"

    /// `count` export-format rows in USD (identity), `coffee N` costing N cents + 4.00; row `bad`
    /// (if any) has the price `12,34,5`.
    static func csv(rows count: Int, bad: Int? = nil) -> String {
        var lines = [header]
        for i in 1...count {
            let p = "\(4 + i / 100).\(String(format: "%02d", i % 100))"
            let price = i == bad ? "\"12,34,5\"" : p
            lines.append(
                "\(i),Japan,2026-03-01,coffee \(i),food,,USD,\(p),\(price),0.00,,0.00,,0.00,,false,0.00,,\(p),half-up,,1,2026-03-01,identity,,,false,USD,\(p),"
            )
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    func setUp() throws -> (TemporaryFolder, TripProcess) {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(trip.run("add", "1200", "ramen", "--rate", "0.0067").exitCode == 0)
        return (folder, trip)
    }

    @Test func badRow317ImportsNothingAndNamesRowAndColumn() throws {
        let (folder, trip) = try setUp()
        let path = folder.file("bad.csv")
        try Self.csv(rows: 500, bad: 317).write(toFile: path, atomically: true, encoding: .utf8)
        let before = try dumpLedger(folder.file("ledger.sqlite"))
        let r = try trip.run("import", path)
        #expect(r.exitCode == 65)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "trip: import: row 317, column price: \"12,34,5\" is not a valid number\n")
        #expect(try dumpLedger(folder.file("ledger.sqlite")) == before)
    }

    @Test func reimportSkipsDuplicates() throws {
        let (folder, trip) = try setUp()
        let path = folder.file("good.csv")
        // Row 501 repeats row 500 exactly: the same purchase twice in one file imports twice.
        var text = Self.csv(rows: 500)
        text += text.split(separator: "\r\n").last! + "\r\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let first = try trip.run("import", path)
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout == "imported 501 purchases into \"Japan\" (0 duplicates skipped)\n")
        let before = try dumpLedger(folder.file("ledger.sqlite"))
        let second = try trip.run("import", path, "--format", "json")
        #expect(second.exitCode == 0)
        #expect(second.json["imported"] as? Int == 0)
        #expect(second.json["skipped"] as? Int == 501)
        #expect(second.json["trip"] as? String == "Japan")
        #expect(try dumpLedger(folder.file("ledger.sqlite")) == before)
        let report = try trip.run("report", "--format", "json")
        #expect(report.exitCode == 0)
        #expect(report.stdout.contains("\"purchase_count\":502") || report.stdout.contains("502"))
    }

    @Test func cardStatementThroughTheBinary() throws {
        let (folder, trip) = try setUp()
        let path = folder.file("card.csv")
        try "Transaction Date,Description,Amount,Currency,Billed Amount\n03/02/2026,\"Coffee, Shibuya\",450,JPY,3.05\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let r = try trip.run(
            "import", path, "--date-column", "Transaction Date", "--amount-column", "Amount",
            "--currency-column", "Currency", "--note-column", "Description",
            "--charged-column", "Billed Amount", "--date-format", "MM/DD/YYYY")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout == "imported 1 purchase into \"Japan\" (0 duplicates skipped)\n")
        let list = try trip.run("list", "--format", "json")
        #expect(list.stdout.contains("\"charged\":\"3.05\"") || list.stdout.contains("3.05"))
        #expect(list.stdout.contains("2026-03-02"))
    }

    @Test func missingFileIsAUsageError() throws {
        let (folder, trip) = try setUp()
        let r = try trip.run("import", folder.file("nope.csv"))
        #expect(r.exitCode == 64)
        #expect(r.stderr.hasPrefix("trip: import: cannot open"))
    }

    /// Issue 34: `trip import` of an export into a ledger with no trip creates the trip the file
    /// names, with its dates, budget and presets, instead of "no current trip".
    @Test func anExportIntoALedgerWithNoTripCreatesItsTrip() throws {
        let folder = TemporaryFolder()
        let source = TripProcess(ledgerPath: folder.file("source.sqlite"), today: "2026-03-05")
        for args in [
            [
                "new", "Japan", "--currency", "JPY", "--home", "USD", "--start", "2026-03-01", "--end", "2026-03-10", "--budget", "500",
                "--preset", "jp",
            ],
            ["rates", "set", "JPY", "0.0067", "--date", "2026-03-01"], ["add", "1000", "lunch", "--date", "2026-03-02"],
        ] {
            let r = try source.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        }
        let path = folder.file("exp.csv")
        try source.run("export", "--format", "csv").stdout.write(toFile: path, atomically: true, encoding: .utf8)

        let fresh = TripProcess(ledgerPath: folder.file("fresh.sqlite"), today: "2026-03-05")
        let r = try fresh.run("import", path)
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout == "imported 1 purchase into \"Japan\" (0 duplicates skipped)\n")
        #expect(try fresh.run("show").stdout == source.run("show").stdout)
        #expect(try fresh.run("report").stdout == source.run("report").stdout)
    }

    /// A file from before the trip columns still imports into a ledger with no trip: the trip is
    /// created with the rows' home currency.
    @Test func anOldExportIntoALedgerWithNoTripCreatesItsTripFromItsHomeCurrency() throws {
        let folder = TemporaryFolder()
        let path = folder.file("old.csv")
        try Self.csv(rows: 3).write(toFile: path, atomically: true, encoding: .utf8)
        let fresh = TripProcess(ledgerPath: folder.file("fresh.sqlite"))
        let r = try fresh.run("import", path)
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout == "imported 3 purchases into \"Japan\" (0 duplicates skipped)\n")
        let show = try fresh.run("show").stdout
        #expect(show.contains("home currency   USD"), "\(show)")
    }
}
