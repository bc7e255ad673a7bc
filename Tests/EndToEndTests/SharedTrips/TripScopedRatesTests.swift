import FXTestServer
import Foundation
import TestSupport
import Testing

/// A shared trip's rates stay in that trip (issue 36, item 2): a rate pulled from a trip's log
/// converts that trip's purchases only, a pulled rate that is not a rate is set aside, and a
/// device sends a shared trip only the rates of that trip's currencies.
@Suite("Shared trips: rates stay in their trip")
struct TripScopedRatesTests {
    /// Ben, a grantee of Japan, writes by hand into Japan's log a manual CHF→USD rate of 100, a
    /// manual EUR→USD rate of 50 and a provider rate of -5. Ana syncs: her calculator, a new
    /// purchase in her never-shared trip and her other shared trip convert as before; the -5 is
    /// set aside on both devices; Japan's purchases read the same on both. `trip rates show`
    /// lists Japan's rates in Japan only.
    @Test func ratesWrittenIntoOneTripsLogReachNoOtherTrip() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        try #require(ana.run("new", "Private", "--currency", "CHF", "--home", "USD").exitCode == 0)
        try #require(ana.run("add", "10", "chocolate").exitCode == 0)
        try #require(ana.run("new", "Rome", "--currency", "EUR", "--home", "USD").exitCode == 0)
        try #require(ana.run("add", "100", "dinner").exitCode == 0)
        try #require(ana.run("share", "--with", "carla").exitCode == 0)
        try #require(carla.run("join", "Rome").exitCode == 0)
        try #require(ana.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(ana.run("add", "1000", "ramen").exitCode == 0)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        try #require(ben.run("join", "Japan").exitCode == 0)
        let convertedBefore = try ana.run("convert", "10", "CHF", "USD").stdout
        let romeBefore = try ana.run("report", "Rome", "--format", "json").stdout

        let manual = { (base: String, rate: String) in
            #"{"base":"\#(base)","quote":"USD","date":"2026-03-01","rate":"\#(rate)","created_at":"2026-03-01T00:00:00Z","hlc":1,"device":"mallory"}"#
        }
        let provider = #"{"provider":"frankfurter","url":"https://example.invalid/","base":"USD","latest_date":"2026-03-08"}"#
        let negative =
            #"{"provider":"frankfurter","base":"USD","quote":"JPY","date":"2026-03-08","rate":"-5","fetched_at":"2026-03-08T09:00:00Z"}"#
        let rows = [
            ("manual_rate", "manual_rate:CHF:USD:2026-03-01", manual("CHF", "100")),
            ("manual_rate", "manual_rate:EUR:USD:2026-03-01", manual("EUR", "50")),
            ("provider", "provider:frankfurter:https://example.invalid/", provider),
            ("rate", "rate:frankfurter:USD:JPY:2026-03-08", negative),
        ]
        // Written in Ben's name by the administrator: server schema 8 refuses a grantee's hand-written
        // rows (`ServerAttackTests`), and the devices must keep such rates in their trip all the same.
        var sql = "BEGIN; SELECT last_seq FROM trip_ledger.trips WHERE name = 'Japan' FOR UPDATE;"
        for (i, (kind, gid, payload)) in rows.enumerated() {
            sql += """
                INSERT INTO trip_ledger.changes (trip_gid, seq, change_id, kind, gid, op, hlc, base_hlc, device, author, payload)
                SELECT gid, last_seq + 1, 'forged-\(i)', '\(kind)', '\(gid)', 'put', 1, 0, 'mallory', 'ben', '\(payload)'
                FROM trip_ledger.trips WHERE name = 'Japan';
                """
        }
        _ = try world.cluster.psql("tripadmin", database: world.database, sql + "COMMIT;")

        for d in [ana, ben] {
            let s = try d.run("sync", "Japan")
            #expect(s.exitCode == 0, "\(s.stderr)")
        }
        #expect(try ana.run("convert", "10", "CHF", "USD").stdout == convertedBefore)
        #expect(try ana.run("report", "Rome", "--format", "json").stdout == romeBefore)
        try #require(ana.run("use", "Private").exitCode == 0)
        let own = try ana.run("rates", "show").stdout
        #expect(!own.contains("CHF") && !own.contains("EUR"), "this device's own rates: \(own)")
        try #require(ana.run("add", "10", "more chocolate").exitCode == 0)
        let homes = try homeTotals(ana)
        #expect(homes.count == 2 && Set(homes).count == 1, "both CHF 10 purchases alike: \(homes)")
        try #require(ana.run("use", "Rome").exitCode == 0)
        try #require(ana.run("add", "100", "lunch").exitCode == 0)
        let romeHomes = try homeTotals(ana)
        #expect(romeHomes.count == 2 && Set(romeHomes).count == 1, "both EUR 100 purchases alike: \(romeHomes)")
        for d in [ana, carla, ana] { #expect(try d.run("sync", "Rome").exitCode == 0) }
        try #require(carla.run("use", "Rome").exitCode == 0)
        #expect(try tripView(ana) == tripView(carla))

        try #require(ana.run("use", "Japan").exitCode == 0)
        // Japan's rates are the grantee's to set: they convert Japan's purchases, on every device.
        let japans = try ana.run("rates", "show").stdout
        #expect(japans.hasPrefix("Rates of shared trip Japan, for its purchases only:"), "\(japans)")
        #expect(japans.contains("1 CHF = 100 USD") && japans.contains("1 EUR = 50 USD"), "Japan's rates: \(japans)")
        for d in [ana, ben] {
            let aside = try openSetAside(d)
            #expect(aside.map { $0["gid"] as? String } == ["rate:frankfurter:USD:JPY:2026-03-08"], "\(aside)")
            let ramen = try homeTotals(d)
            #expect(ramen.allSatisfy { !$0.hasPrefix("-") }, "\(ramen)")
        }
        #expect(try tripView(ana) == tripView(ben))
    }

    /// A rate set by hand for a never-shared trip's currency (CHF into the home currency USD) is
    /// not sent into a shared trip with the same home currency; a rate of the shared trip's own
    /// currencies is, and so is one set while the shared trip is the current trip.
    @Test func aPrivateTripsRateIsNotPushedIntoASharedTrip() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        try #require(ana.run("new", "Zurich", "--currency", "CHF", "--home", "USD").exitCode == 0)
        try #require(ana.run("rates", "set", "CHF", "1.1", "--date", "2026-03-01").exitCode == 0)
        try #require(ana.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(ana.run("add", "1000", "ramen").exitCode == 0)
        try #require(ana.run("rates", "set", "JPY", "0.0067", "--date", "2026-03-01").exitCode == 0)
        try #require(ana.run("rates", "set", "GBP", "1.3", "--date", "2026-03-02").exitCode == 0)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        #expect(try ana.run("sync").exitCode == 0)
        let sent = try world.cluster.psql(
            "tripadmin", database: world.database,
            """
            SELECT string_agg(payload::jsonb ->> 'base', ',' ORDER BY payload::jsonb ->> 'base') FROM trip_ledger.changes
            WHERE kind = 'manual_rate' AND trip_gid = (SELECT gid FROM trip_ledger.trips WHERE name = 'Japan')
            """
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(sent == "GBP,JPY", "manual rates sent into Japan: \(sent)")
        try #require(ben.run("join", "Japan").exitCode == 0)
        #expect(try tripView(ana) == tripView(ben))
    }

    /// The same for the rates a provider published: a never-shared trip's CHF rates, fetched by
    /// `trip rates sync`, are not sent into a shared trip of the same home currency (EUR, the
    /// provider's base); its JPY rates are, and the devices convert alike.
    @Test func aPrivateTripsProviderRatesAreNotPushedIntoASharedTrip() throws {
        let server = try FXTestServer()
        server.route("/eurofxref-hist-90d.xml", .file(Array(RatesSyncEndToEndTests.xml.utf8), contentType: "text/xml"))
        let world = try SharedTripWorld()
        let config = world.folder.file("config.toml")
        try "[rates]\nchain = \"ecb\"\necb_history = \"90d\"\ntotal_timeout = 3\n".write(toFile: config, atomically: true, encoding: .utf8)
        var ana = world.device("ana", today: "2017-03-10")
        ana.environment.merge(["TRIP_CONFIG": config, "TRIP_RATES_URL": server.baseURL, "no_proxy": "*"]) { $1 }
        var ben = world.device("ben", today: "2017-03-10")
        ben.environment["TRIP_CONFIG"] = config
        try #require(ana.run("new", "Zurich", "--currency", "CHF", "--home", "EUR").exitCode == 0)
        try #require(ana.run("add", "10", "--date", "2016-12-23").exitCode == 0)
        try #require(ana.run("new", "Japan", "--currency", "JPY", "--home", "EUR").exitCode == 0)
        try #require(ana.run("add", "1000", "--date", "2016-12-23").exitCode == 0)
        let fetched = try ana.run("rates", "sync", "--all")
        try #require(fetched.exitCode == 0, "\(fetched.stderr)")
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        #expect(try ana.run("sync").exitCode == 0)
        let quotes = try world.cluster.psql(
            "tripadmin", database: world.database,
            """
            SELECT string_agg(DISTINCT payload::jsonb ->> 'quote', ',') FROM trip_ledger.changes
            WHERE kind = 'rate' AND trip_gid = (SELECT gid FROM trip_ledger.trips WHERE name = 'Japan')
            """
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(quotes == "JPY", "provider rates sent into Japan: \(quotes)")
        try #require(ben.run("join", "Japan").exitCode == 0)
        #expect(try tripView(ana) == tripView(ben))
    }

    /// `snapshot` of the current trip without its local id, which differs between devices that
    /// hold other trips.
    private func tripView(_ trip: TripProcess) throws -> [String] {
        try snapshot(trip).map { $0.replacingOccurrences(of: #""id":[0-9]+,"#, with: "", options: .regularExpression) }
    }

    /// The home totals of the current trip's purchases, as `trip list` gives them.
    private func homeTotals(_ trip: TripProcess) throws -> [String] {
        let r = try trip.run("list", "--format", "json")
        try #require(r.exitCode == 0, "\(r.stderr)")
        let list = try #require(r.json["purchases"] as? [[String: Any]], "\(r.stdout)")
        return list.map { "\($0["home_amount"] ?? "none")" }
    }
}
