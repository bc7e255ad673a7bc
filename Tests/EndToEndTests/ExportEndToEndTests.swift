import Exchange
import Foundation
import Rendering
import TestSupport
import Testing
import TripLedger
import TripModel

@testable import Storage

/// `trip export` through the binary: the journal goes to stdout and hledger agrees with
/// `trip report`; bad formats and unknown trips fail with one line and the documented code.
@Suite("End to end: trip export")
struct ExportEndToEndTests {
    static func japan() throws -> (TemporaryFolder, TripProcess) {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Japan 2026", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(trip.run("rates", "set", "JPY", "0.0067", "--date", "2026-03-01").exitCode == 0)
        try #require(trip.run("add", "3*1200", "ramen", "--discount", "10%", "--preset", "JP").exitCode == 0)
        try #require(trip.run("add", "48.50", "USD", "--tax", "8.875%", "--tip", "20%", "--note", "JFK dinner").exitCode == 0)
        try #require(trip.run("add", "35000", "MNT", "ger camp").exitCode == 0)
        return (folder, trip)
    }

    @Test func ledgerJournalOnStdoutAgreesWithTheReport() throws {
        let (folder, trip) = try Self.japan()
        let result = try trip.run("export", "--format", "ledger")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("    Expenses:Uncategorized  3240 JPY @@ 21.71 USD\n    Assets:Cash  -21.71 USD\n"))

        let file = folder.file("trip.journal")
        try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let net = try #require((trip.run("report", "--format", "json").json["totals"] as? [String: Any])?["net"] as? String)
        for tool in [AccountingTool.hledger, .ledger] {
            let bal = try tool.balanceAtCost(file)
            #expect(bal.status == 0, "\(tool): \(bal.stderr)")
            #expect(AccountingTool.totals(bal.stdout)["USD"] == net, "\(tool) printed:\n\(bal.stdout)\nreport net \(net)")
        }
    }

    /// Beancount itself loads the journal without an error, and its expense weights add up to the report.
    @Test func beancountJournalLoadsInBeancountAndAgreesWithTheReport() throws {
        let (folder, trip) = try Self.japan()
        try #require(trip.run("add", "12.5", "EUR", "--category", "Food & drink", "--note", #"say "hi" \ bye"#).exitCode == 0)
        let result = try trip.run("export", "--format", "beancount")
        #expect(result.exitCode == 0, "\(result.stderr)")
        let file = folder.file("trip.beancount")
        try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let net = try #require((trip.run("report", "--format", "json").json["totals"] as? [String: Any])?["net"] as? String)
        let bean = try Beancount.expenseTotals(file)
        #expect(bean.status == 0, "beancount: \(bean.stderr)")
        #expect(bean.stderr.isEmpty)
        #expect(bean.totals.keys.sorted() == ["USD"], "beancount summed \(bean.totals)")
        #expect(bean.totals["USD"].flatMap { Decimal(string: $0) } == Decimal(string: net), "beancount summed \(bean.totals); report net \(net)")
    }

    /// A control character already in a ledger (from before the text rules) is exported exactly
    /// in CSV to a file or pipe, and shown escaped on a terminal; journals never carry it (their
    /// payees are cleaned for the accounting tools anyway).
    @Test(arguments: ["csv", "ledger", "beancount"])
    func storedControlCharactersNeverReachATerminal(_ format: String) throws {
        let (folder, trip) = try Self.japan()
        defer { withExtendedLifetime(folder) {} }
        let db = try Database(path: trip.ledgerPath, create: false)
        try db.run("UPDATE purchases SET note = ? WHERE note = 'ger camp'", [.text("ger\u{1B}]0;pwned\u{07} camp")])
        let raw = { (s: String) in s.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 } }
        let piped = try trip.run("export", "--format", format)
        #expect(piped.exitCode == 0, "\(piped.stderr)")
        #expect(format == "csv" ? piped.stdout.contains("ger\u{1B}]0;pwned\u{07} camp") : !raw(piped.stdout))
        let shown = try trip.runOnTerminal(["export", "--format", format])
        #expect(shown.exitCode == 0, "\(shown.output)")
        #expect(shown.output.contains("pwned") && !raw(shown.output), "\(shown.output)")
        if format == "csv" { #expect(shown.output.contains(#"ger\u{1b}]0;pwned\u{7} camp"#), "\(shown.output)") }
    }

    @Test(arguments: ["csv", "json", "beancount"])
    func otherFormatsWriteToStdout(_ format: String) throws {
        let (folder, trip) = try Self.japan()
        defer { withExtendedLifetime(folder) {} }
        let result = try trip.run("export", "--format", format, "Japan 2026")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("ger camp"))
    }

    @Test(arguments: [
        ["export", "--format", "bogus"], ["export"], ["export", "--format", "text"],
        ["export", "--format", "csv", "--all", "Japan 2026"],
    ])
    func usageErrorsExit64(_ args: [String]) throws {
        let (folder, trip) = try Self.japan()
        defer { withExtendedLifetime(folder) {} }
        let result = try trip.run(args)
        #expect(result.exitCode == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("trip: "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "one line: \(result.stderr)")
    }

    @Test(arguments: [["export", "--format", "ledger", "Nowhere"], ["export", "--format", "csv", "--trip", "Nowhere"]])
    func unknownTripExits65(_ args: [String]) throws {
        let (folder, trip) = try Self.japan()
        defer { withExtendedLifetime(folder) {} }
        let result = try trip.run(args)
        #expect(result.exitCode == 65, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("\"Nowhere\""))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "one line: \(result.stderr)")
    }
}
