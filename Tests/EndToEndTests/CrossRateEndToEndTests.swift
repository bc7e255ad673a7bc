import FXTestServer
import Foundation
import TestSupport
import Testing

/// Issue 34, part 4: a pair with no direct rate goes through a currency both sides have rates to,
/// with the rates the traveller set by hand, before the fallback table; and says so.
@Suite("End to end: cross rates")
struct CrossRateEndToEndTests {
    /// 1 KRW = 0.00064 EUR, 1 JPY = 0.0058 EUR, 1 USD = 0.92 EUR, all set by hand for 2026-08-01.
    func manualLedger(_ folder: TemporaryFolder) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2026-08-03")
        try #require(trip.run("init", "--home", "EUR").exitCode == 0)
        for (code, rate) in [("KRW", "0.00064"), ("JPY", "0.0058"), ("USD", "0.92")] {
            let set = try trip.run("rates", "set", code, rate, "--in", "EUR", "--date", "2026-08-01")
            try #require(set.exitCode == 0, "\(set.stderr)")
        }
        return trip
    }

    @Test func convertGoesThroughEURWithTheManualRatesAndSaysSo() throws {
        let folder = TemporaryFolder()
        let trip = try manualLedger(folder)
        let text = try trip.run("convert", "10000", "KRW", "JPY")
        #expect(text.exitCode == 0, "\(text.stderr)")
        // 0.00064 / 0.0058 = 0.110344827586… (12 significant digits); 10,000 × it = 1,103.45 → ¥1,103.
        #expect(text.stdout.contains("at 0.110344827586 (via EUR: manual 2026-08-01, manual 2026-08-01)"), "\(text.stdout)")
        #expect(!text.stdout.contains("fallback"))

        let json = try trip.run("convert", "10000", "KRW", "JPY", "--format", "json").json
        #expect(json["converted"] as? String == "1103")
        let quote = try #require(json["quote"] as? [String: Any])
        #expect(quote["source"] as? String == "manual")
        #expect(quote["via"] as? String == "EUR")
        #expect(quote["provisional"] as? Bool == false)
        #expect(quote["date"] as? String == "2026-08-01")
        let legs = try #require(quote["legs"] as? [[String: Any]])
        #expect(
            legs.map { "\($0["from"]!)>\($0["to"]!) \($0["rate"]!) \($0["source"]!) \($0["date"]!)" } == [
                "KRW>EUR 0.00064 manual 2026-08-01", "EUR>JPY 172.413793103 manual 2026-08-01",
            ])
    }

    @Test func aDirectManualRateStillWinsAndHasNoLegs() throws {
        let folder = TemporaryFolder()
        let trip = try manualLedger(folder)
        let json = try trip.run("convert", "100", "USD", "EUR", "--format", "json").json
        let quote = try #require(json["quote"] as? [String: Any])
        #expect(quote["rate"] as? String == "0.92")
        #expect(quote["via"] is NSNull)
        #expect((quote["legs"] as? [Any])?.isEmpty == true)
        #expect(try trip.run("convert", "100", "USD", "EUR").stdout.contains("at 0.92 (manual, 2026-08-01)"))
    }

    @Test func reportInAnotherHomeReexpressesThroughTheManualRates() throws {
        let folder = TemporaryFolder()
        let trip = try manualLedger(folder)
        try #require(trip.run("new", "Seoul", "--currency", "KRW", "--home", "EUR").exitCode == 0)
        try #require(trip.run("add", "50000", "--date", "2026-08-02").exitCode == 0)
        let text = try trip.run("report", "--home", "USD")
        #expect(text.exitCode == 0, "\(text.stderr)")
        #expect(text.stdout.contains("manual rate via EUR"), "\(text.stdout)")
        #expect(!text.stdout.contains("fallback"), "\(text.stdout)")
        let json = try trip.run("report", "--home", "USD", "--format", "json").json
        let provenance = try #require(json["provenance"] as? [[String: Any]])
        #expect(provenance.count == 1)
        #expect(provenance.first?["source"] as? String == "manual")
        #expect(provenance.first?["via"] as? String == "EUR")
        #expect(provenance.first?["provisional"] as? Bool == false)
        // 50,000 × (0.00064 / 0.92 = 0.000695652173913) = 34.78 USD.
        #expect((json["totals"] as? [String: Any])?["net"] as? String == "34.78")
    }

    @Test func aPurchaseInATripWhoseHomeHasNoDirectRateGetsTheCrossAndFollowsANewLeg() throws {
        let folder = TemporaryFolder()
        let trip = try manualLedger(folder)
        try #require(trip.run("new", "Seoul", "--currency", "KRW", "--home", "USD").exitCode == 0)
        let add = try trip.run("add", "50000", "--date", "2026-08-02", "--format", "json").json
        #expect(add["rate_source"] as? String == "manual")
        #expect(add["rate"] as? String == "0.000695652173913")
        #expect(add["home_amount"] as? String == "34.78")
        #expect(add["provisional"] as? Bool == false)
        // A new rate for either leg re-rates it: 0.00064 / 0.8 = 0.0008.
        let set = try trip.run("rates", "set", "USD", "0.8", "--in", "EUR", "--date", "2026-08-02")
        #expect(set.stdout.contains("re-rated 1 purchase"), "\(set.stdout)")
        let list = try #require(try trip.run("list", "--format", "json").json["purchases"] as? [[String: Any]])
        #expect(list.first?["rate"] as? String == "0.0008")
        #expect(list.first?["home_amount"] as? String == "40.00")
        #expect(list.first?["rate_date"] as? String == "2026-08-01")
    }

    static let xml: String = {
        let url = Bundle.module.url(forResource: "Fixtures/ecb_hist_90d.xml", withExtension: nil)!
        return try! String(contentsOf: url, encoding: .utf8)
    }()

    /// The ECB's rates of 2016-12-22 cached, and KRW→EUR set by hand (the ECB lists KRW too).
    func mixedLedger(_ server: FXTestServer, _ folder: TemporaryFolder) throws -> TripProcess {
        let config = folder.file("config.toml")
        try "[rates]\nchain = \"ecb\"\necb_history = \"90d\"\ntotal_timeout = 3\n".write(toFile: config, atomically: true, encoding: .utf8)
        let trip = TripProcess(
            ledgerPath: folder.file("ledger.sqlite"), today: "2017-03-10",
            extra: ["TRIP_CONFIG": config, "TRIP_RATES_URL": server.baseURL, "no_proxy": "*"])
        try #require(trip.run("new", "Xmas", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(trip.run("add", "12345", "--date", "2016-12-22").exitCode == 0)
        let sync = try trip.run("rates", "sync")
        try #require(sync.exitCode == 0, "\(sync.stderr)")
        return trip
    }

    #if os(Linux)
    @Test func mixedLegsRankAsTheirWeakerLegAndADirectRateOfThatTierWins() throws {
        let server = try FXTestServer()
        server.route("/eurofxref-hist-90d.xml", .file(Array(Self.xml.utf8), contentType: "text/xml"))
        let folder = TemporaryFolder()
        let trip = try mixedLedger(server, folder)
        // A provider's own cross through its base keeps both legs, of one observation date.
        let provider = try trip.run("convert", "100", "JPY", "USD", "--date", "2016-12-22", "--format", "json").json
        let pq = try #require(provider["quote"] as? [String: Any])
        #expect(pq["source"] as? String == "provider")
        #expect(pq["via"] as? String == "EUR")
        #expect((pq["legs"] as? [[String: Any]])?.map { $0["date"] as? String } == ["2016-12-22", "2016-12-22"])

        // The ECB has no TWD: THB→TWD goes through EUR with the ECB's THB and a TWD rate set by
        // hand, not the fallback table.
        try #require(trip.run("rates", "set", "TWD", "0.029", "--in", "EUR", "--date", "2016-12-22").exitCode == 0)
        let mixed = try trip.run("convert", "1000", "THB", "TWD", "--date", "2016-12-22")
        #expect(mixed.exitCode == 0, "\(mixed.stderr)")
        #expect(mixed.stdout.contains("(via EUR: provider ecb 2016-12-22, manual 2016-12-22)"), "\(mixed.stdout)")

        // KRW set by hand as well: THB→KRW still takes the ECB's direct rate of the same tier.
        try #require(trip.run("rates", "set", "KRW", "0.0008", "--in", "EUR", "--date", "2016-12-22").exitCode == 0)
        let sameTier = try trip.run("convert", "1000", "THB", "KRW", "--date", "2016-12-22")
        #expect(sameTier.stdout.contains("(via EUR: provider ecb 2016-12-22, provider ecb 2016-12-22)"), "\(sameTier.stdout)")

        // KRW→USD: the ECB has both, a direct provider rate of the same tier as the mixed cross.
        let direct = try trip.run("convert", "1000", "KRW", "USD", "--date", "2016-12-22", "--format", "json").json
        let dq = try #require(direct["quote"] as? [String: Any])
        #expect((dq["legs"] as? [[String: Any]])?.map { $0["source"] as? String } == ["provider", "provider"])
        // With USD→EUR set by hand as well, both legs are manual: that beats the provider.
        try #require(trip.run("rates", "set", "USD", "0.95", "--in", "EUR", "--date", "2016-12-22").exitCode == 0)
        let manual = try trip.run("convert", "1000", "KRW", "USD", "--date", "2016-12-22")
        #expect(manual.stdout.contains("(via EUR: manual 2016-12-22, manual 2016-12-22)"), "\(manual.stdout)")
    }
    #endif
}
