import Foundation
import TestSupport
import Testing

/// A traveller's session, run through the built `trip` binary and checked to the cent.
@Suite("End to end: a scripted trip")
struct ScriptedSessionTests {
    @Test func japanTripWithHandSetRatesAddsUpToTheCent() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("init", "--home", "USD").exitCode == 0)
        try #require(trip.run("new", "Japan 2026", "--currency", "JPY", "--home", "USD").exitCode == 0)
        let set = try trip.run("rates", "set", "JPY", "0.0067", "--date", "2026-03-01")
        #expect(set.stdout.contains("1 JPY = 0.0067 USD · 1 USD = 149.253731343 JPY"))
        try #require(trip.run("rates", "set", "sgd", "0.7412", "--date", "2026-03-01").exitCode == 0)

        // ¥3,600 less 10% = ¥3,240, of which 10% tax (294.5 → 295, half-up) is included, not added.
        let ramen = try trip.run(
            "add", "3*1200", "JPY", "ramen", "--discount", "10%", "--tax", "10%", "--tax-included",
            "--format", "json")
        #expect(ramen.exitCode == 0, "\(ramen.stderr)")
        let r = ramen.json
        #expect(r["price"] as? String == "3600")
        #expect(r["discount"] as? String == "360")
        #expect(r["tax"] as? String == "295")
        #expect(r["tax_included"] as? Bool == true)
        #expect(r["total"] as? String == "3240")
        #expect(r["home_amount"] as? String == "21.71")  // 3240 × 0.0067 = 21.708
        #expect(r["rate"] as? String == "0.0067")
        #expect(r["rate_date"] as? String == "2026-03-01")
        #expect(r["rate_source"] as? String == "manual")
        #expect(r["provisional"] as? Bool == false)

        // S$25++: service 2.50, GST 9% of 27.50 = 2.475 → 2.48, total 29.98; × 0.7412 = 22.221 → 22.22.
        let crab = try trip.run("add", "25", "SGD", "--preset", "SG", "--format", "json").json
        #expect(crab["service"] as? String == "2.50")
        #expect(crab["tax"] as? String == "2.48")
        #expect(crab["total"] as? String == "29.98")
        #expect(crab["home_amount"] as? String == "22.22")

        // $48.50 + 8.875% tax (4.304 → 4.30) + 20% tip on the pre-tax 48.50 (9.70) = 62.50.
        let dinner = try trip.run("add", "48.50", "USD", "--tax", "8.875%", "--tip", "20%", "--format", "json").json
        #expect(dinner["tax"] as? String == "4.30")
        #expect(dinner["tip"] as? String == "9.70")
        #expect(dinner["total"] as? String == "62.50")
        #expect(dinner["home_amount"] as? String == "62.50")
        #expect(dinner["rate_source"] as? String == "identity")

        let report = try trip.run("report", "--format", "json")
        #expect(report.exitCode == 0)
        let totals = try #require(report.json["totals"] as? [String: Any])
        #expect(totals["net"] as? String == "106.43")  // 21.71 + 22.22 + 62.50
        #expect(totals["tip"] as? String == "9.70")
        #expect(totals["tax_added"] as? String == "6.14")  // 4.30 + 2.48 × 0.7412 (1.838 → 1.84)
        #expect(report.json["purchases"] as? Int == 3)
        #expect(report.json["unconverted_count"] as? Int == 0)

        let list = try trip.run("list", "--format", "json").json
        let purchases = try #require(list["purchases"] as? [[String: Any]])
        #expect(purchases.count == 3)
        for key in [
            "id", "date", "note", "category", "price", "currency", "discount", "service", "tax", "tip", "total",
            "home_amount", "home_currency", "rate", "rate_date", "rate_source", "provisional",
        ] {
            #expect(purchases[0].keys.contains(key), "list json has \(key)")
        }
    }

    @Test func editRemoveConvertAndTripCommands() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Seoul", "--currency", "KRW", "--home", "EUR", "--preset", "KR").exitCode == 0)
        let added = try trip.run("add", "1,200", "coffee", "--format", "json").json
        #expect(added["note"] as? String == "coffee")
        #expect(added["price"] as? String == "1200")
        #expect(added["tax"] as? String == "109")  // 1200 × 10/110 = 109.09
        #expect(added["rate_source"] as? String == "fallback")
        #expect(added["provisional"] as? Bool == true)
        let id = try #require(added["id"] as? Int)
        let edited = try trip.run("edit", String(id), "--amount", "2200", "--format", "json").json
        #expect(edited["tax"] as? String == "200")
        #expect(edited["note"] as? String == "coffee")
        let converted = try trip.run("convert", "10000", "KRW", "EUR")
        #expect(converted.exitCode == 0)
        #expect(converted.stdout.contains("fallback"))
        #expect(try trip.run("rm", String(id)).exitCode == 0)
        #expect(try trip.run("rm", String(id)).exitCode == 65)
        #expect(try trip.run("rename", "Seoul", "Busan").exitCode == 0)
        #expect(try trip.run("trips").stdout.contains("* Busan"))
        #expect(try trip.run("delete", "Busan").exitCode == 64)  // needs --yes
        #expect(try trip.run("delete", "Busan", "--yes").exitCode == 0)
        #expect(try trip.run("report").exitCode == 65)  // no current trip
    }

    @Test func unconvertedPurchasesAreRecordedAndReportedNeverOneToOne() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Steppe", "--currency", "MNT", "--home", "USD").exitCode == 0)
        let p = try trip.run("add", "35000", "--format", "json").json
        #expect(p["home_amount"] is NSNull)
        #expect(p["converted"] as? Bool == false)
        let text = try trip.run("report")
        #expect(text.stdout.contains("1 purchase is unconverted"))
        #expect(try trip.run("report", "--format", "json").json["totals"].flatMap { ($0 as? [String: Any])?["net"] as? String } == "0.00")
    }

    @Test func demoRunsOffline() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("unused.sqlite"))
        let demo = try trip.run("demo")
        #expect(demo.exitCode == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("Totals in USD"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("unused.sqlite")))
    }

    @Test func configShowsWhereEachValueCameFrom() throws {
        let folder = TemporaryFolder()
        let config = folder.file("config.toml")
        try "# mine\nrounding = \"half-even\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let trip = TripProcess(ledgerPath: folder.file("l.sqlite"), extra: ["TRIP_CONFIG": config])
        let out = try trip.run("config")
        #expect(out.exitCode == 0)
        #expect(out.stdout.contains("rounding              = half-even"))
        #expect(out.stdout.contains("\(config):2"))
        #expect(out.stdout.contains("config/settings.toml"))
        let json = try trip.run("config", "--format", "json").json
        #expect((json["home_currency"] as? [String: Any])?["source"] as? String == "config/settings.toml:9")
        #expect(try trip.run("config", "--config", folder.file("missing.toml")).exitCode == 64)
    }

    @Test func versionAndNewerLedger() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("l.sqlite"))
        #expect(try trip.run("--version").stdout.hasPrefix("0."))
        try #require(trip.run("init").exitCode == 0)
        // Simulate a ledger written by a newer trip.
        let bump = try Ledgers.bumpVersion(folder.file("l.sqlite"), by: 3)
        let refused = try trip.run("trips")
        #expect(refused.exitCode == 65)
        #expect(refused.stderr.contains("newer trip"))
        #expect(bump == (try Data(contentsOf: URL(fileURLWithPath: folder.file("l.sqlite")))))
    }
}
