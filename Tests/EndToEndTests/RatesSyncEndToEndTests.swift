import FXTestServer
import Foundation
import TestSupport
import Testing

/// `trip rates sync` through the binary against a loopback server of real ECB data.
@Suite("End to end: rates sync")
struct RatesSyncEndToEndTests {
    static let xml: String = {
        let url = Bundle.module.url(forResource: "Fixtures/ecb_hist_90d.xml", withExtension: nil)!
        return try! String(contentsOf: url, encoding: .utf8)
    }()

    /// A ledger with one trip over Christmas 2016, its provider chain pointed at `server`.
    func setUp(_ server: FXTestServer, folder: TemporaryFolder) throws -> TripProcess {
        let config = folder.file("config.toml")
        try "[rates]\nchain = \"ecb\"\necb_history = \"90d\"\ntotal_timeout = 3\n".write(toFile: config, atomically: true, encoding: .utf8)
        let trip = TripProcess(
            ledgerPath: folder.file("ledger.sqlite"), today: "2017-03-10",
            extra: ["TRIP_CONFIG": config, "TRIP_RATES_URL": server.baseURL, "no_proxy": "*"])
        try #require(trip.run("new", "Xmas", "--currency", "JPY", "--home", "USD").exitCode == 0)
        for d in ["2016-12-22", "2016-12-23", "2016-12-24", "2016-12-25", "2016-12-26", "2016-12-27"] {
            try #require(trip.run("add", "12345", "--date", d).exitCode == 0)
        }
        return trip
    }

    @Test func eachPurchaseGetsTheECBRateOfItsDateOrTheLastOneBefore() throws {
        let server = try FXTestServer()
        server.route("/eurofxref-hist-90d.xml", .file(Array(Self.xml.utf8), contentType: "text/xml"))
        let folder = TemporaryFolder()
        let trip = try setUp(server, folder: folder)
        let sync = try trip.run("rates", "sync")
        #expect(sync.exitCode == 0, "\(sync.stderr)")
        #expect(sync.stdout.hasPrefix("re-rated 6 purchases in Xmas; total +"))
        #expect(sync.stdout.hasSuffix(" USD; all final\n"))
        let ecb = ECBFixture(xml: Self.xml)
        let list = try #require(try trip.run("list", "--format", "json").json["purchases"] as? [[String: Any]])
        #expect(list.count == 6)
        for p in list {
            let date = try #require(p["date"] as? String)
            let day = try #require(ecb.publication(onOrBefore: date))
            #expect(p["rate_date"] as? String == day, "\(date)")
            #expect(p["rate_source"] as? String == "provider")
            #expect(p["rate_provider"] as? String == "ecb")
            #expect(p["provisional"] as? Bool == false)
            let expected = ECBFixture.round(12345 * ecb.rate(from: "JPY", to: "USD", on: day)!, scale: 2)
            #expect(p["home_amount"] as? String == "\(expected)", "\(date): \(day)")
        }
        #expect(list.filter { $0["rate_date"] as? String == "2016-12-23" }.count == 4)  // Fri, Sat, Sun, holiday Mon
    }

    @Test func deadServerExits69AndChangesNothing() throws {
        let server = try FXTestServer()
        server.route("/eurofxref-hist-90d.xml", .file(Array(Self.xml.utf8), contentType: "text/xml"))
        let folder = TemporaryFolder()
        let trip = try setUp(server, folder: folder)
        let report = try trip.run("report")
        server.stop()
        let before = try dumpLedger(folder.file("ledger.sqlite"))
        let sync = try trip.run("rates", "sync")
        #expect(sync.exitCode == 69)
        #expect(sync.stdout.isEmpty)
        #expect(sync.stderr.filter { $0 == "\n" }.count == 1)
        #expect(sync.stderr.contains("refused"), "\(sync.stderr)")
        #expect(try dumpLedger(folder.file("ledger.sqlite")) == before)
        #expect(try trip.run("report").stdout == report.stdout)
        #expect(try trip.run("add", "100").exitCode == 0)
    }

    @Test func captivePortalIsRejectedAndNothingCached() throws {
        let server = try FXTestServer()
        server.route("/eurofxref-hist-90d.xml", .html())
        let folder = TemporaryFolder()
        let trip = try setUp(server, folder: folder)
        let before = try dumpLedger(folder.file("ledger.sqlite"))
        let sync = try trip.run("rates", "sync")
        #expect(sync.exitCode == 69)
        #expect(sync.stderr.contains("captive portal"), "\(sync.stderr)")
        #expect(try dumpLedger(folder.file("ledger.sqlite")) == before)
        #expect(try trip.run("rates", "status", "--format", "json").stdout.contains("\"latest\":null"))
    }

    #if os(Linux)
    @Test func offlineCommandsNeverLoadLibcurl() throws {
        let server = try FXTestServer()
        server.route("/eurofxref-hist-90d.xml", .file(Array(Self.xml.utf8), contentType: "text/xml"))
        let folder = TemporaryFolder()
        var trip = try setUp(server, folder: folder)
        trip.environment["LD_DEBUG"] = "libs"
        let add = try trip.run("add", "100", "--date", "2016-12-27")
        #expect(add.exitCode == 0)
        #expect(add.stderr.contains("libsqlite3"), "the loader trace is on")
        #expect(!add.stderr.contains("libcurl"))
        for args in [["report"], ["list"], ["rates", "status"], ["convert", "100", "JPY"]] {
            #expect(!(try trip.run(args).stderr.contains("libcurl")), "\(args)")
        }
        let sync = try trip.run("rates", "sync")
        #expect(sync.exitCode == 0)
        #expect(sync.stderr.contains("libcurl"), "sync loads it when it needs it")
    }
    #endif
}
