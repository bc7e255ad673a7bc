import FXTestServer
import Foundation
import RateService
import RateSync
import Rendering
import TestSupport
import Testing
import TripCore
import TripModel

@testable import TripLedger

/// `trip rates sync` in-process against a hostile server: every case ends within the 2-second
/// total timeout of `setUp`, stores nothing and throws one line saying why.
extension RateSyncTests {
    /// One trip with one JPY purchase on the day before `HostileBodies.date`.
    func hostileSetUp(chain: String, server: FXTestServer, environment: [String: String] = [:]) throws
        -> (TestLedger, RateSync<HTTPClient>)
    {
        let (t, _) = try setUp(chain: chain, today: HostileBodies.date, server: server)
        try t.ledger.createTrip(NewTrip(name: "X", localCurrency: "JPY", homeCurrency: "USD"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "1000", date: "2017-03-09"))
        let client = HTTPClient.forRatesSync(settings: t.ledger.settings, version: "test", environment: environment)
        return (t, RateSync(ledger: t.ledger, client: client, environment: environment))
    }

    /// Runs the sync, checks it failed in one line containing one of `expected` and changed nothing.
    func expectRefusal(_ label: String, _ t: TestLedger, _ sync: RateSync<HTTPClient>, expected: [String]) throws -> String {
        let before = try dumpLedger(t.path)
        let clock = ContinuousClock()
        let start = clock.now
        var message = ""
        do {
            _ = try sync.run(trip: nil, all: false)
            Issue.record("\(label): sync succeeded")
        } catch let error as TripError {
            message = error.description
            #expect(error.exitCode == 69)
            #expect(expected.contains { message.contains($0) }, "\(label): \(message)")
            #expect(message.hasSuffix("nothing was changed"))
            #expect(!message.contains("\n"))
        }
        let elapsed = clock.now - start
        print("hostile sync: \(label): \(elapsed) → \(message)")
        // Two requests (series, latest), 2 s each at most, plus slack for a loaded machine.
        #expect(elapsed < .seconds(12), "\(label) took \(elapsed)")
        #expect(try dumpLedger(t.path) == before, "\(label): nothing cached, nothing re-rated")
        return message
    }

    @Test("a hostile server is refused, in time, with nothing cached", arguments: HostileCase.network)
    func hostileServer(_ hostile: HostileCase) throws {
        let server = try FXTestServer()
        server.route("*", hostile.route)
        let (t, sync) = try hostileSetUp(chain: "frankfurter", server: server)
        _ = try expectRefusal(hostile.name, t, sync, expected: hostile.expected)
    }

    @Test(
        "a hostile rate is refused in every provider format", arguments: ["frankfurter", "open-er-api", "ecb"],
        HostileBodies.rates)
    func hostileRate(chain: String, rate: String) throws {
        let server = try FXTestServer()
        let day = "2017-03-09"
        server.route("/\(day)..\(day)", .json(HostileBodies.frankfurterSeries(from: day, to: day, usd: rate)))
        server.route("/latest", .json(HostileBodies.frankfurterLatest(usd: rate)))
        server.route("/latest/USD", .json(HostileBodies.openERAPILatest(eur: rate)))
        server.route("/eurofxref-hist-90d.xml", .file(Array(HostileBodies.ecb(usd: rate).utf8), contentType: "text/xml"))
        let (t, sync) = try hostileSetUp(chain: chain, server: server)
        let quote = chain == "open-er-api" ? "EUR" : "USD"
        _ = try expectRefusal("\(chain) rate \(rate.prefix(24))", t, sync, expected: ["\(quote) rate", "invalid JSON"])
        #expect(!server.requests.isEmpty)
    }

    @Test func anEnvironmentKeyNeverReachesTheMessage() throws {
        let key = "k3y-S3CRET-0123456789"
        let server = try FXTestServer()
        // The key travels in the path, as keyed APIs (/v6/KEY/latest/…) put it; the server
        // echoes it back in its own error message and in a redirect target.
        server.route("/v6/\(key)/latest/USD", .redirect(to: "http://rates.example.net/\(key)/latest?token=\(key)"))
        let (t, _) = try setUp(chain: "open-er-api", today: HostileBodies.date, server: server)
        try t.ledger.createTrip(NewTrip(name: "X", localCurrency: "JPY", homeCurrency: "USD"))
        let environment = ["TRIP_OPENERAPI_KEY": key, "TRIP_RATES_URL": server.baseURL + "/v6/\(key)"]
        let client = HTTPClient.forRatesSync(settings: t.ledger.settings, version: "test")  // no secrets: RateSync masks them
        let sync = RateSync(ledger: t.ledger, client: client, environment: environment)
        let message = try expectRefusal("key in path, echoed in a redirect", t, sync, expected: ["Refused redirect"])
        #expect(!message.contains(key), "\(message)")
        #expect(message.contains("/v6/***/latest/USD"), "\(message)")
        #expect(server.requests.map(\.path) == ["/v6/\(key)/latest/USD"], "the key was used, only not shown")
    }

    @Test func credentialsInTheURLAreNeverWrittenToTheLedger() throws {
        let key = "k3y-0123456789abcdef"
        let server = try FXTestServer()
        server.route(
            "/v6/\(key)/latest/USD",
            .conditional(
                etag: "\"e1\"", lastModified: nil,
                then: .json(HostileBodies.openERAPILatest(eur: "0.9465"))))
        let (t, _) = try setUp(chain: "open-er-api", today: HostileBodies.date, server: server)
        try t.ledger.createTrip(NewTrip(name: "X", localCurrency: "EUR", homeCurrency: "USD"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "10", date: HostileBodies.date))
        let environment = ["TRIP_OPENERAPI_KEY": key, "TRIP_RATES_URL": "http://me:pw-s3cret@127.0.0.1:\(server.port)/v6/\(key)"]
        let sync = RateSync(
            ledger: t.ledger, client: HTTPClient.forRatesSync(settings: t.ledger.settings, version: "test"),
            environment: environment)
        #expect(try sync.run(trip: nil, all: false).failures.isEmpty)
        let dump = try dumpLedger(t.path)
        #expect(dump.contains("0.9465"), "the rates were stored")
        #expect(!dump.contains(key) && !dump.contains("pw-s3cret"), "\(dump)")
        // The masked URL still finds its validators: the second sync is a conditional GET.
        #expect(try sync.run(trip: nil, all: false).failures.isEmpty)
        #expect(server.requests.last?.headers["if-none-match"] == "\"e1\"")
    }
}
