import FXTestServer
import Foundation
import RateService
import RateSync
import Rendering
import TestSupport
import Testing
import TripCore
import TripModel

@testable import Storage
@testable import TripLedger

/// `trip rates sync` in-process, over real HTTP on loopback, against recorded provider bodies.
@Suite("Rate sync over loopback HTTP")
struct RateSyncTests {
    static func fixture(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil))
        return try String(contentsOf: url, encoding: .utf8)
    }

    static let ecb = ECBFixture(xml: (try? fixture("ecb_hist_90d.xml")) ?? "")

    /// A ledger whose provider chain is `chain`, pointed at `server`, with a 2-second total timeout.
    func setUp(chain: String, today: String, server: FXTestServer, extra: String = "") throws -> (TestLedger, RateSync<HTTPClient>) {
        let config = """
            [rates]
            chain = "\(chain)"
            frankfurter_url = "\(server.baseURL)"
            open_er_api_url = "\(server.baseURL)"
            ecb_url = "\(server.baseURL)"
            ecb_history = "90d"
            connect_timeout = 2
            total_timeout = 2
            \(extra)
            """
        let t = try TestLedger(today: today, userConfig: config)
        let client = HTTPClient.forRatesSync(settings: t.ledger.settings, version: "test")
        return (t, RateSync(ledger: t.ledger, client: client, environment: [:]))
    }

    @Test func ecbAcrossAWeekendAndATargetHoliday() throws {
        let server = try FXTestServer()
        server.route("/eurofxref-hist-90d.xml", .file(Array(try Self.fixture("ecb_hist_90d.xml").utf8), contentType: "text/xml"))
        let (t, sync) = try setUp(chain: "ecb", today: "2017-03-10", server: server)
        try t.ledger.createTrip(NewTrip(name: "Xmas", localCurrency: "JPY", homeCurrency: "USD"))
        // Fri 23 Dec; Sat 24, Sun 25; Mon 26 (TARGET holiday); Tue 27; and GBP on Sunday 1 Jan.
        let dates = ["2016-12-23", "2016-12-24", "2016-12-25", "2016-12-26", "2016-12-27"]
        for d in dates { _ = try t.ledger.addPurchase(PurchaseDraft(amount: "10000", date: d)) }
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "12.34", currency: "GBP", date: "2017-01-01"))
        let outcome = try sync.run(trip: nil, all: false)
        #expect(outcome.failures.isEmpty)
        #expect(outcome.trips.first?.summary.changed == 6)
        #expect(outcome.trips.first?.summary.remainingProvisional == 0)
        for p in try t.ledger.purchases(PurchaseFilter()).purchases {
            let day = try #require(Self.ecb.publication(onOrBefore: p.date.description))
            #expect(p.conversion.quote?.date?.description == day, "\(p.date)")
            #expect(p.conversion.source == .provider)
            #expect(p.conversion.provisional == false)
            let rate = try #require(Self.ecb.rate(from: p.currency.code, to: "USD", on: day))
            let total = Decimal(p.breakdown.total) / (p.currency.minorUnits == 0 ? 1 : 100)
            let expected = ECBFixture.round(total * rate, scale: 2)
            #expect(Decimal(p.conversion.home!) / 100 == expected, "\(p.date) \(p.currency.code)")
        }
        // The weekend and the holiday used Friday 23 December.
        #expect(try t.ledger.purchases(PurchaseFilter()).purchases[1...3].allSatisfy { $0.conversion.quote?.date?.description == "2016-12-23" })
    }

    @Test func frankfurterOneSeriesPerTripPlusLatestAndLaterProvidersOnlyForGaps() throws {
        let server = try FXTestServer()
        server.route("/2016-12-20..2016-12-28", .json(Self.ecb.frankfurterSeries(from: "2016-12-20", to: "2016-12-28")))
        server.route("/latest", .json(Self.ecb.frankfurterLatest()))
        server.route("/latest/USD", .json(try Self.fixture("erapi_latest_USD.json")))
        let (t, sync) = try setUp(chain: "frankfurter, open-er-api", today: "2017-03-10", server: server)
        try t.ledger.createTrip(NewTrip(name: "Xmas", localCurrency: "JPY", homeCurrency: "EUR"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "5000", date: "2016-12-20"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "7000", date: "2016-12-24"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "80", currency: "CHF", date: "2016-12-28"))
        let outcome = try sync.run(trip: nil, all: false)
        #expect(outcome.failures.isEmpty)
        #expect(server.requests.map(\.path) == ["/2016-12-20..2016-12-28", "/latest"], "open-er-api is not asked: nothing is missing")
        let ps = try t.ledger.purchases(PurchaseFilter()).purchases
        #expect(ps.allSatisfy { $0.conversion.source == .provider && !$0.conversion.provisional })
        #expect(ps[1].conversion.quote?.date?.description == "2016-12-23")
        // 1 JPY in EUR is 1 / 122.6 on 23 Dec, written to 12 significant digits.
        #expect(ps[1].conversion.quote?.rate == "0.00815660685155")
        #expect(server.requests.allSatisfy { $0.headers["user-agent"] == "trip/test" })
    }

    @Test func aCurrencyNoProviderHasStaysProvisionalAndIsNamed() throws {
        let server = try FXTestServer()
        server.route("/2016-12-20..2016-12-20", .json(Self.ecb.frankfurterSeries(from: "2016-12-20", to: "2016-12-20")))
        server.route("/latest", .json(Self.ecb.frankfurterLatest()))
        server.route("/latest/USD", .json(status: 500, #"{"result":"error","error-type":"internal"}"#))
        let (t, sync) = try setUp(chain: "frankfurter, open-er-api", today: "2017-03-10", server: server)
        try t.ledger.createTrip(NewTrip(name: "Taipei", localCurrency: "TWD", homeCurrency: "USD"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "300", date: "2016-12-20"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "20", currency: "JPY", date: "2016-12-20"))
        let outcome = try sync.run(trip: nil, all: false)  // partial: no throw, exit 0
        #expect(outcome.failures.map(\.provider) == ["open-er-api"])
        #expect(outcome.missing["TWD"] == "no provider has it")
        let s = try #require(outcome.trips.first?.summary)
        #expect(s.changed == 1)
        #expect(s.remainingProvisional == 1)
        #expect(s.reasons["TWD"] == "using fallback")
    }

    @Test func laterProviderFillsTheGap() throws {
        let server = try FXTestServer()
        server.route("/latest", .json(try Self.fixture("frankfurter_latest.json")))
        server.route(
            "/2024-08-19..2024-08-19",
            .json(#"{"amount":1.0,"base":"EUR","start_date":"2024-08-16","end_date":"2024-08-16","rates":{"2024-08-16":{"USD":1.1014}}}"#))
        server.route("/latest/USD", .json(try Self.fixture("erapi_latest_USD.json")))
        let (t, sync) = try setUp(chain: "frankfurter, open-er-api", today: "2024-08-20", server: server)
        try t.ledger.createTrip(NewTrip(name: "Taipei", localCurrency: "TWD", homeCurrency: "USD"))
        let p = try t.ledger.addPurchase(PurchaseDraft(amount: "1000", date: "2024-08-19"))
        let outcome = try sync.run(trip: nil, all: false)
        #expect(outcome.failures.isEmpty)
        #expect(server.requests.map(\.path).contains("/latest/USD"))
        let after = try t.ledger.purchase(id: p.id)
        #expect(after.conversion.quote?.provider == "open-er-api")
        #expect(after.conversion.quote?.date?.description == "2024-08-19")
        #expect(after.conversion.provisional == false)
        // 1000 TWD / 32.092281 TWD per USD = 31.16 USD.
        #expect(after.conversion.home == 3116)
    }

    @Test func conditionalGetAnswered304IsASuccess() throws {
        let server = try FXTestServer()
        let body = Array(try Self.fixture("ecb_hist_90d.xml").utf8)
        server.route("/eurofxref-hist-90d.xml", .conditional(etag: "\"v1\"", lastModified: nil, then: .file(body, contentType: "text/xml")))
        let (t, sync) = try setUp(chain: "ecb", today: "2017-03-10", server: server)
        try t.ledger.createTrip(NewTrip(name: "X", localCurrency: "JPY", homeCurrency: "USD"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "100", date: "2017-01-05"))
        _ = try sync.run(trip: nil, all: false)
        // Offline, the next purchase already converts from the cache, final.
        let offline = try t.ledger.addPurchase(PurchaseDraft(amount: "200", date: "2017-01-06"))
        #expect(offline.conversion.source == .provider && !offline.conversion.provisional)
        let second = try sync.run(trip: nil, all: false)
        #expect(second.failures.isEmpty)
        #expect(second.responses == 1)
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.headers["if-none-match"] == "\"v1\"")
    }

    static let faults: [(String, FXTestServer.Route?, String)] = [
        ("404 with the provider's message", .json(status: 404, #"{"message":"not found"}"#), "not found"),
        ("422 with the provider's message", .json(status: 422, #"{"message":"invalid date"}"#), "invalid date"),
        ("500", .json(status: 500, "{}"), "500"),
        ("429 with Retry-After", .retryAfter("120"), "120"),
        ("503 with Retry-After", .retryAfter("30", status: 503), "30"),
        ("stall past the timeout", .stall(), "timed out"),
        (
            "truncated body",
            .truncated(
                status: 200, headers: ["Content-Type": "application/json"], declaredLength: 5000,
                body: Array(#"{"amount":1.0,"base":"EUR","#.utf8)), "truncated"
        ),
        ("malformed JSON", .json(#"{"amount":1.0,"base":"EUR","date":"2016-12-20","rates":{"USD":1.04,"#), "invalid JSON"),
        ("captive portal page", .html(), "captive portal"),
        ("50 MiB body", .large(bytes: 50 << 20, declareLength: true), "exceeds the 10 MiB limit"),
        ("connection refused", nil, "refused"),
    ]

    @Test("a failed sync changes nothing, says why, and reports still work", arguments: faults)
    func faultsChangeNothing(label: String, route: FXTestServer.Route?, fragment: String) throws {
        let server = try FXTestServer()
        let (t, sync) = try setUp(chain: "frankfurter", today: "2017-03-10", server: server)
        try t.ledger.createTrip(NewTrip(name: "X", localCurrency: "JPY", homeCurrency: "USD"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "1000", date: "2016-12-20"))
        if let route {
            server.route("/2016-12-20..2016-12-20", route)
            server.route("/latest", route)
        } else {
            server.stop()
        }
        let before = try dumpLedger(t.path)
        do {
            _ = try sync.run(trip: nil, all: false)
            Issue.record("\(label): sync succeeded")
        } catch let error as TripError {
            #expect(error.exitCode == 69)
            #expect(error.description.contains(fragment), "\(label): \(error.description)")
            #expect(error.description.hasSuffix("nothing was changed"))
            #expect(!error.description.contains("\n"))
        }
        #expect(try dumpLedger(t.path) == before, "\(label): the cache and purchases are unchanged")
        #expect(try t.ledger.report(trip: nil).purchaseCount == 1)
    }
}
