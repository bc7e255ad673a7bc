import FXTestServer
import Foundation
import TestSupport
import Testing

/// The reports issue's first check, through the binary: a 500-purchase, 8-currency trip imported
/// from a card-statement CSV, synced against real ECB data on loopback, and its report checked to
/// the cent, line by line and category by category, against an independent calculation.
@Suite("End to end: a 500-purchase trip in 8 currencies")
struct AcceptanceTripTests {
    static let xml: String = {
        let url = Bundle.module.url(forResource: "Fixtures/ecb_hist_90d.xml", withExtension: nil)!
        return try! String(contentsOf: url, encoding: .utf8)
    }()

    /// `value` rounded half-up to `significant` significant digits (the README's rule for crosses).
    static func significant(_ value: Decimal, _ significant: Int) -> Decimal {
        var exponent = 0
        var probe = value
        while probe >= 10 { probe /= 10; exponent += 1 }
        while probe < 1 { probe *= 10; exponent -= 1 }
        return ECBFixture.round(value, scale: significant - 1 - exponent)
    }

    /// A Decimal already rounded to cents, written with exactly two decimals ("80.40").
    static func cents(_ d: Decimal) -> String {
        let c = NSDecimalNumber(decimal: ECBFixture.round(d, scale: 2) * 100).int64Value
        return "\(c / 100).\(String(format: "%02d", c % 100))"
    }

    @Test func importSyncAndReportAddUpToTheCent() throws {
        let ecb = ECBFixture(xml: Self.xml)
        let currencies = ["JPY", "USD", "GBP", "CHF", "SEK", "KRW", "THB", "SGD"]
        let categories = ["food", "transport", "lodging", "museums", "gifts"]
        var rng = SplitMix64(seed: 20_170_310)
        var csv = "Date,Description,Amount,Currency,Category\n"
        var expected: [(date: String, currency: String, minor: Int, category: String)] = []
        let first = 17_140  // 2016-12-05 in days since 1970
        for i in 0..<500 {
            let day = first + Int(rng.next() % 88)
            let date = ISO8601.date(daysSinceEpoch: day)
            let currency = currencies[i % currencies.count]
            let digits = (currency == "JPY" || currency == "KRW") ? 0 : 2
            let minor = 100 + Int(rng.next() % 90_000)
            let amount = digits == 0 ? String(minor) : String(format: "%d.%02d", minor / 100, minor % 100)
            let category = categories[Int(rng.next() % UInt64(categories.count))]
            csv += "\(date),purchase \(i),\(amount),\(currency),\(category)\n"
            expected.append((date, currency, minor, category))
        }
        let folder = TemporaryFolder()
        let statement = folder.file("statement.csv")
        try csv.write(toFile: statement, atomically: true, encoding: .utf8)
        let server = try FXTestServer()
        server.route("/eurofxref-hist-90d.xml", .file(Array(Self.xml.utf8), contentType: "text/xml"))
        let config = folder.file("config.toml")
        try "[rates]\nchain = \"ecb\"\necb_history = \"90d\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let trip = TripProcess(
            ledgerPath: folder.file("ledger.sqlite"), today: "2017-03-10",
            extra: ["TRIP_CONFIG": config, "TRIP_RATES_URL": server.baseURL, "no_proxy": "*"])
        try #require(trip.run("new", "Winter 2016", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        let imported = try trip.run(
            "import", statement, "--date-column", "Date", "--amount-column", "Amount",
            "--currency-column", "Currency", "--note-column", "Description",
            "--category-column", "Category", "--format", "json")
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.json["imported"] as? Int == 500)
        let sync = try trip.run("rates", "sync")
        #expect(sync.exitCode == 0, "\(sync.stderr)")

        // Independent: EUR per unit = 1 / (ECB units per EUR) of the last publication on or before
        // the date, written to 12 significant digits; home = round(total × rate, 2), half-up.
        var total: Decimal = 0
        var byCategory: [String: Decimal] = [:]
        var homes: [Decimal] = []
        for e in expected {
            let day = try #require(ecb.publication(onOrBefore: e.date))
            let perEUR = try #require(ecb.rate(from: "EUR", to: e.currency, on: day))
            let rate = Self.significant(1 / perEUR, 12)
            let scale: Decimal = (e.currency == "JPY" || e.currency == "KRW") ? 1 : 100
            let home = ECBFixture.round(Decimal(e.minor) / scale * rate, scale: 2)
            homes.append(home)
            total += home
            byCategory[e.category, default: 0] += home
        }
        let list = try #require(try trip.run("list", "--format", "json").json["purchases"] as? [[String: Any]])
        #expect(list.count == 500)
        let byNote = Dictionary(uniqueKeysWithValues: list.map { ($0["note"] as! String, $0) })
        var mismatches = 0
        for (i, home) in homes.enumerated() {
            let p = try #require(byNote["purchase \(i)"])
            if p["home_amount"] as? String != Self.cents(home) || p["provisional"] as? Bool != false || p["rate_source"] as? String != "provider" {
                mismatches += 1
                if mismatches < 5 { Issue.record("purchase \(i): \(p["home_amount"] ?? "nil") vs \(home), \(p["rate_source"] ?? "")") }
            }
        }
        #expect(mismatches == 0)
        let report = try trip.run("report", "--format", "json").json
        let totals = try #require(report["totals"] as? [String: Any])
        #expect(totals["net"] as? String == Self.cents(total))
        let groups = try #require(report["by_category"] as? [[String: Any]])
        for g in groups {
            let key = try #require(g["key"] as? String)
            #expect(g["home_amount"] as? String == Self.cents(byCategory[key] ?? -1), "\(key)")
        }
        #expect(groups.count == categories.count)
        #expect(report["provisional"] as? Int == 0)

        // The same trip as a ledger journal: hledger and ledger print the report's total.
        let journal = try trip.run("export", "--format", "ledger")
        #expect(journal.exitCode == 0, "\(journal.stderr)")
        let journalFile = folder.file("winter.journal")
        try journal.stdout.write(toFile: journalFile, atomically: true, encoding: .utf8)
        for tool in AccountingTool.allCases {
            let bal = try tool.balanceAtCost(journalFile)
            #expect(bal.status == 0, "\(tool): \(bal.stderr)")
            #expect(AccountingTool.totals(bal.stdout) == ["EUR": Self.cents(total)], "\(tool) printed:\n\(bal.stdout)")
        }
        // As Beancount: loads without an error and its expense weights add up to the same total.
        let bean = try trip.run("export", "--format", "beancount")
        let beanFile = folder.file("winter.beancount")
        try bean.stdout.write(toFile: beanFile, atomically: true, encoding: .utf8)
        let beanTotals = try Beancount.expenseTotals(beanFile)
        #expect(beanTotals.status == 0 && beanTotals.stderr.isEmpty, "beancount: \(beanTotals.stderr)")
        #expect(beanTotals.totals["EUR"].flatMap { Decimal(string: $0) } == total, "beancount: \(beanTotals.totals)")

        // Export, then import into a new ledger: the report is identical.
        let exported = try trip.run("export", "--format", "csv")
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        let exportFile = folder.file("winter.csv")
        try exported.stdout.write(toFile: exportFile, atomically: true, encoding: .utf8)
        let fresh = TripProcess(
            ledgerPath: folder.file("fresh.sqlite"), today: "2017-03-10",
            extra: ["TRIP_CONFIG": config, "no_proxy": "*"])
        try #require(fresh.run("new", "Winter 2016", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        let reimported = try fresh.run("import", exportFile)
        #expect(reimported.exitCode == 0, "import of the export: \(reimported.stderr)")
        let original = try trip.run("report", "--format", "json").stdout
        let again = try fresh.run("report", "--format", "json").stdout
        #expect(!original.isEmpty && again == original, "the re-imported trip reports differently")
        // Line by line too, ids aside (they are the new ledger's own).
        func lines(_ t: TripProcess) throws -> [NSDictionary] {
            let lines = try #require(t.run("report", "--lines", "--format", "json").json["lines"] as? [[String: Any]])
            return lines.map {
                var l = $0; l["id"] = nil; return l as NSDictionary
            }
        }
        let originalLines = try lines(trip)
        #expect(originalLines.count == 500)
        #expect(try lines(fresh) == originalLines)
    }
}

enum ISO8601 {
    static func date(daysSinceEpoch: Int) -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd"
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(daysSinceEpoch) * 86_400))
    }
}
