import Foundation
import TestSupport
import Testing

/// `trip report` options and formats, and `trip close`, through the binary.
@Suite("End to end: reports")
struct ReportEndToEndTests {
    func japan(_ folder: TemporaryFolder) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2026-03-05")
        try #require(
            trip.run(
                "new", "Japan", "--currency", "JPY", "--home", "USD", "--start", "2026-03-01",
                "--end", "2026-03-10", "--budget", "500"
            ).exitCode == 0)
        try #require(trip.run("rates", "set", "JPY", "0.0067", "--date", "2026-03-01").exitCode == 0)
        try #require(trip.run("add", "1200", "ramen, \"extra\" egg", "--date", "2026-03-01", "--category", "food").exitCode == 0)
        try #require(trip.run("add", "3000", "museum", "--date", "2026-03-03", "--category", "museums", "--paid-with", "card").exitCode == 0)
        return trip
    }

    @Test func jsonCarriesDaysBudgetAndGroups() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let r = try trip.run("report", "--by", "day", "--format", "json").json
        #expect(r["grouping"] as? String == "day")
        #expect((r["groups"] as? [[String: Any]])?.map { $0["key"] as? String } == ["2026-03-01", "2026-03-02", "2026-03-03"])
        #expect(r["days"] as? Int == 5)
        #expect(r["average_per_day"] as? String == "5.63")  // (8.04 + 20.10) / 5 = 5.628
        let budget = try #require(r["budget"] as? [String: Any])
        #expect(budget["remaining"] as? String == "471.86")
        #expect(budget["days_left"] as? Int == 6)
        #expect(budget["daily_allowance"] as? String == "78.64")  // 471.86 / 6 = 78.643, floored
    }

    @Test func csvIsOneRFC4180RowPerPurchase() throws {
        let folder = TemporaryFolder()
        let out = try japan(folder).run("report", "--format", "csv")
        #expect(out.exitCode == 0)
        let lines = out.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("id,trip,date,note,"))
        #expect(lines[1].contains("\"ramen, \"\"extra\"\" egg\""))
        #expect(lines[1].contains(",USD,8.04,"))
    }

    @Test func markdownAndHTML() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let md = try trip.run("report", "--format", "markdown").stdout
        #expect(md.contains("| **net total** | **28.14** |"))
        let html = try trip.run("report", "--format", "html", "--lines")
        #expect(html.exitCode == 0)
        #expect(html.stdout.hasPrefix("<!DOCTYPE html>"))
        #expect(html.stdout.contains("<svg"))
        #expect(!html.stdout.contains("http://") && !html.stdout.contains("https://"))
        #expect(html.stdout.contains("ramen, &quot;extra&quot; egg"))
        #expect(try trip.run("list", "--format", "html").exitCode == 64)
    }

    @Test func pipedTextHasNoBarsOrColour() throws {
        let folder = TemporaryFolder()
        let text = try japan(folder).run("report").stdout
        #expect(text.contains("per day"))
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("█"))
    }

    /// On a real (pseudo-)terminal the breakdowns are bars with shares, in colour unless NO_COLOR is set.
    @Test func terminalShowsBarsAndColourUnlessNoColor() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let coloured = try trip.runOnTerminal(["report", "--by", "category"], removing: ["NO_COLOR"])
        #expect(coloured.exitCode == 0, "\(coloured.output)")
        // food 8.04 of 28.14 = 28.6%, museums 20.10 = 71.4%: bars in proportion.
        let food = try #require(coloured.output.split(separator: "\n").first { $0.hasPrefix("  food") })
        let museums = try #require(coloured.output.split(separator: "\n").first { $0.hasPrefix("  museums") })
        #expect(food.contains("28.6%") && museums.contains("71.4%"), "\(coloured.output)")
        let blocks = { (line: Substring) in line.filter { $0 == "█" }.count }
        #expect(blocks(museums) > 2 * blocks(food) && blocks(food) > 0, "\(coloured.output)")
        #expect(coloured.output.contains("\u{1B}["), "no colour on a terminal")

        let plain = try trip.runOnTerminal(["report", "--by", "category"], environment: ["NO_COLOR": "1"])
        #expect(plain.exitCode == 0)
        #expect(plain.output.contains("█"), "bars belong to the terminal, with or without colour")
        #expect(!plain.output.contains("\u{1B}"), "colour despite NO_COLOR")

        let days = try trip.runOnTerminal(["report", "--by", "day"], removing: ["NO_COLOR"])
        #expect(days.output.contains("2026-03-03") && days.output.contains("█"), "\(days.output)")
    }

    @Test func closeFreezesAndReopenThaws() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        #expect(try trip.run("close", "Japan").exitCode == 0)
        let add = try trip.run("add", "100")
        #expect(add.exitCode == 65)
        #expect(add.stderr.contains("closed on 2026-03-05"))
        #expect(try trip.run("report").stdout.contains("closed 2026-03-05"))
        #expect(try trip.run("report", "--format", "json").json["trip"].flatMap { ($0 as? [String: Any])?["closed_at"] as? String } != nil)
        #expect(try trip.run("reopen", "Japan").exitCode == 0)
        #expect(try trip.run("add", "100").exitCode == 0)
    }

    @Test func allAndHomeAndFilters() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        try #require(trip.run("new", "Paris", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(trip.run("add", "4.50", "croissant", "--date", "2026-03-04").exitCode == 0)
        let all = try trip.run("report", "--all", "--format", "json").json
        #expect((all["reports"] as? [[String: Any]])?.count == 2)
        #expect(try trip.run("report", "--all").stdout.contains("All trips"))
        let since = try trip.run("report", "Japan", "--since", "2026-03-02", "--format", "json").json
        #expect(since["purchases"] as? Int == 1)
        try #require(trip.run("rates", "set", "USD", "0.9", "--in", "EUR", "--date", "2026-03-01").exitCode == 0)
        let eur = try trip.run("report", "Japan", "--home", "EUR", "--format", "json").json
        #expect(eur["home_currency"] as? String == "EUR")
        #expect(eur["reexpressed"] as? Bool == true)
    }
}
