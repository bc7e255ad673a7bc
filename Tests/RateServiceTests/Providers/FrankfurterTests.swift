import FXTestServer
import Foundation
import Testing
import TripCore

@testable import RateService

@Suite struct FrankfurterTests {
    let server: FXTestServer
    let client = HTTPClient.test()
    let provider: Frankfurter

    init() throws {
        server = try FXTestServer()
        provider = Frankfurter(baseURL: server.baseURL + "/v1/")
    }

    @Test func buildsEURBaseURLs() {
        let frankfurter = Frankfurter()
        #expect(
            frankfurter.latestURL(quotes: ["usd", "GBP", "EUR", "USD"]) == "https://api.frankfurter.dev/v1/latest?symbols=GBP,USD"
        )
        #expect(frankfurter.latestURL(quotes: []) == "https://api.frankfurter.dev/v1/latest")
        #expect(frankfurter.dayURL("2024-08-01", quotes: ["JPY"]) == "https://api.frankfurter.dev/v1/2024-08-01?symbols=JPY")
        #expect(
            frankfurter.seriesURL(from: "2024-01-01", to: "2024-01-05", quotes: ["CAD"])
                == "https://api.frankfurter.dev/v1/2024-01-01..2024-01-05?symbols=CAD")
        #expect(!frankfurter.latestURL(quotes: ["USD"]).contains("base="))
    }

    @Test func latestParsesTheRecordedBodyExactly() throws {
        server.route("/v1/latest", .file(Fixture.bytes("frankfurter_latest.json"), headers: ["ETag": "W/\"f1\""]))
        let batch = try provider.latest(
            quotes: [], today: "2024-08-02", isKnownCurrency: Fixture.isActive, using: client)
        #expect(batch.provider == "frankfurter")
        #expect(batch.base == "EUR")
        #expect(batch.latestDate == "2024-08-01")
        #expect(batch.observations.count == 29)
        #expect(batch.ignoredCodes == ["BGN"])  // withdrawn from ISO 4217 since; still published in 2024
        #expect(batch.validators.etag == "W/\"f1\"")
        let rates = Dictionary(uniqueKeysWithValues: batch.observations.map { ($0.quote, $0.rate) })
        #expect(rates["USD"] == "1.0789")
        #expect(rates["GBP"] == "0.84328")
        #expect(rates["IDR"] == "17549")
        #expect(rates["BRL"] == "6.112")
        #expect(rates["MXN"] == "19.9936")
        #expect(batch.observations.allSatisfy { $0.date == "2024-08-01" && $0.base == "EUR" })
        #expect(
            batch.observations.first
                == RateObservation(
                    provider: "frankfurter", base: "EUR", quote: "AUD", date: "2024-08-01", rate: "1.6501"))
    }

    @Test func dayRequestKeepsThePublishedDateNotTheAskedOne() throws {
        // Recorded body of 2024-08-01 (a Thursday) served for a request about the Saturday after.
        server.route("/v1/2024-08-03", .file(Fixture.bytes("frankfurter_latest.json")))
        let batch = try provider.day(
            "2024-08-03", quotes: ["USD"], today: "2024-08-10", isKnownCurrency: Fixture.isActive, using: client)
        #expect(batch.latestDate == "2024-08-01")
        #expect(server.requests.first?.target == "/v1/2024-08-03?symbols=USD")
    }

    @Test func dayPublishedAfterTheAskedDateIsRejected() {
        server.route("/v1/2024-07-31", .file(Fixture.bytes("frankfurter_latest.json")))
        let error = fetchError { () throws(FetchError) in
            try provider.day("2024-07-31", quotes: [], today: "2024-08-10", isKnownCurrency: Fixture.isActive, using: client)
        }
        guard case let .malformedBody(_, reason)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains("2024-08-01 is outside"))
    }

    /// A rate that is not a number is named with its kind, and the kind with its article.
    @Test func aRateThatIsAnObjectIsNamedSo() {
        let body = #"{"amount":1.0,"base":"EUR","date":"2024-08-01","rates":{"USD":{"value":1.08}}}"#
        server.route("/v1/latest", .file(Array(body.utf8)))
        let error = fetchError { () throws(FetchError) in
            try provider.latest(quotes: [], today: "2024-08-02", isKnownCurrency: Fixture.isActive, using: client)
        }
        guard case let .malformedBody(_, reason)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason == "USD rate is an object, not a number")
    }

    @Test func otherBaseIsRejected() {
        server.route("/v1/latest", .file(Fixture.bytes("frankfurter_latest_base_AUD.json")))
        let error = fetchError { () throws(FetchError) in
            try provider.latest(quotes: [], today: "2025-02-01", isKnownCurrency: Fixture.isActive, using: client)
        }
        #expect(error == .malformedBody(url: server.baseURL + "/v1/latest", reason: "base is AUD, asked for EUR"))
    }

    @Test func futurePublicationDateIsRejected() {
        server.route("/v1/latest", .file(Fixture.bytes("frankfurter_latest.json")))
        let error = fetchError { () throws(FetchError) in
            try provider.latest(quotes: [], today: "2024-07-31", isKnownCurrency: Fixture.isActive, using: client)
        }
        #expect(
            error
                == .malformedBody(
                    url: server.baseURL + "/v1/latest", reason: "date 2024-08-01 is after today (2024-07-31)"))
    }

    /// The body of `frankfurter_timeseries_excerpt.txt`, which the design doc wrapped over three
    /// lines: joined back into the JSON document it is (base USD, as recorded).
    static var recordedSeriesBody: [UInt8] {
        let lines = Fixture.text("frankfurter_timeseries_excerpt.txt").split(separator: "\n")
        return Array(lines[1...3].map { $0.trimmingCharacters(in: .whitespaces) }.joined().utf8)
    }

    @Test func recordedSeriesParsesButItsUSDBaseIsRejected() throws {
        #expect(try JSONScanner.parse(Self.recordedSeriesBody)["start_date"] == .string("2023-12-29"))
        server.route("/v1/2024-01-01..2024-01-05", .file(Self.recordedSeriesBody))
        let error = fetchError { () throws(FetchError) in
            try provider.series(
                from: "2024-01-01", to: "2024-01-05", quotes: ["CAD"], today: "2024-02-01",
                isKnownCurrency: Fixture.isActive, using: client)
        }
        #expect(
            error
                == .malformedBody(
                    url: server.baseURL + "/v1/2024-01-01..2024-01-05?symbols=CAD", reason: "base is USD, asked for EUR"))
    }

    /// An EUR time series in Frankfurter's shape, built for this test from the ECB values in
    /// `ecb_hist_90d.xml` (Frankfurter republishes those unchanged for the EUR base). 2017-02-25/26
    /// is a weekend; the start moves back to Friday 2017-02-24 as Frankfurter does.
    static let builtEURSeries = """
        {"amount":1.0,"base":"EUR","start_date":"2017-02-24","end_date":"2017-03-01",\
        "rates":{"2017-02-24":{"CAD":1.3907,"USD":1.0609},"2017-02-27":{"CAD":1.3889,"USD":1.0587},\
        "2017-02-28":{"CAD":1.3984,"USD":1.0597},"2017-03-01":{"CAD":1.4044,"USD":1.0533}}}
        """

    @Test func seriesParsesEveryDayWithExactText() throws {
        server.route("/v1/2017-02-25..2017-03-01", .file(Array(Self.builtEURSeries.utf8)))
        let batch = try provider.series(
            from: "2017-02-25", to: "2017-03-01", quotes: ["USD", "CAD"], today: "2017-03-03",
            isKnownCurrency: Fixture.isActive, using: client)
        #expect(batch.observations.count == 8)
        #expect(batch.latestDate == "2017-03-01")
        #expect(Set(batch.observations.map(\.date)) == ["2017-02-24", "2017-02-27", "2017-02-28", "2017-03-01"])
        #expect(
            batch.observations.contains(
                RateObservation(
                    provider: "frankfurter", base: "EUR", quote: "CAD", date: "2017-02-28", rate: "1.3984")))
        #expect(server.requests.first?.target == "/v1/2017-02-25..2017-03-01?symbols=CAD,USD")
    }

    @Test func seriesDateOutsideItsOwnRangeIsRejected() {
        let body = Self.builtEURSeries.replacingOccurrences(of: "\"2017-02-28\":", with: "\"2017-03-05\":")
        server.route("/v1/2017-02-25..2017-03-01", .file(Array(body.utf8)))
        let error = fetchError { () throws(FetchError) in
            try provider.series(
                from: "2017-02-25", to: "2017-03-01", quotes: [], today: "2017-03-10",
                isKnownCurrency: Fixture.isActive, using: client)
        }
        guard case let .malformedBody(_, reason)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains("2017-03-05"))
    }

    @Test(arguments: [
        (#""USD":0"#, "zero"), (#""USD":-1.0789"#, "not a plain positive decimal"),
        (#""USD":1e308"#, "not a plain positive decimal"), (#""USD":"1.0789""#, "is a string"),
        (#""USD":NaN"#, "invalid JSON"), (#""USD":Infinity"#, "invalid JSON"),
        (#""USD":123456789012345678901.5"#, "too many digits"), (#""usd":1.0"#, "not a currency code"),
        (#""USD":1.0,"USD":1.1"#, "appears twice"), (#""USD":null"#, "is a null"),
    ])
    func badRatesRejectTheWholeResponse(member: String, problem: String) {
        let body = #"{"amount":1.0,"base":"EUR","date":"2024-08-01","rates":{"GBP":0.84328,\#(member)}}"#
        server.route("/v1/latest", .json(body))
        let error = fetchError { () throws(FetchError) in
            try provider.latest(quotes: [], today: "2024-08-02", isKnownCurrency: Fixture.isActive, using: client)
        }
        guard case let .malformedBody(_, reason)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains(problem), "\(reason)")
    }

    @Test(arguments: [
        #"{"amount":1.0,"base":"EUR","date":"2024-08-01","rates":{"USD":1.0789}"#,
        #"{"amount":1.0,"base":"EUR","date":"2024-08-01","rates":{"USD":1.0789,}}"#,
        #"{"amount":10,"base":"EUR","date":"2024-08-01","rates":{"USD":10.789}}"#,
        #"{"amount":1.0,"base":"EUR","date":"2024-02-30","rates":{"USD":1.0789}}"#,
        #"{"amount":1.0,"base":"EUR","rates":{"USD":1.0789}}"#,
        #"{"amount":1.0,"base":"EUR","date":"2024-08-01","rates":{}}"#,
        #"[1,2,3]"#,
        #"{"amount":1.0,"base":"EUR","date":"2024-08-01","rates":{"USD":1.0789}} trailing"#,
    ])
    func malformedJSONIsMalformedBody(body: String) {
        server.route("/v1/latest", .json(body))
        let error = fetchError { () throws(FetchError) in
            try provider.latest(quotes: [], today: "2024-08-02", isKnownCurrency: Fixture.isActive, using: client)
        }
        guard case .malformedBody? = error else { Issue.record("got \(String(describing: error))"); return }
    }

    @Test(arguments: [
        FXTestServer.Route.html(), .file(Array(FXTestServer.Route.captivePortalPage.utf8), contentType: "application/json"),
    ])
    func captivePortalPageWithStatus200(route: FXTestServer.Route) {
        server.route("/v1/latest", route)
        let error = fetchError { () throws(FetchError) in
            try provider.latest(quotes: [], today: "2024-08-02", isKnownCurrency: Fixture.isActive, using: client)
        }
        #expect(error == .captivePortal(url: server.baseURL + "/v1/latest"))
    }

    @Test func notModifiedKeepsTheValidators() throws {
        server.route(
            "/v1/latest", .conditional(etag: "\"e1\"", lastModified: nil, then: .file(Fixture.bytes("frankfurter_latest.json"))))
        let batch = try provider.latest(
            quotes: [], today: "2024-08-02", validators: ResponseValidators(etag: "\"e1\""),
            isKnownCurrency: Fixture.isActive, using: client)
        #expect(batch.notModified)
        #expect(batch.observations.isEmpty)
        #expect(batch.validators.etag == "\"e1\"")
        #expect(server.requests.first?.headers["if-none-match"] == "\"e1\"")
    }

    @Test func notFoundCarriesFrankfurtersMessage() {
        server.route("/v1/latest", .json(status: 404, #"{"message":"not found"}"#))
        let error = fetchError { () throws(FetchError) in
            try provider.latest(quotes: ["TWD"], today: "2024-08-02", isKnownCurrency: Fixture.isActive, using: client)
        }
        #expect(error?.description == "\(server.baseURL)/v1/latest?symbols=TWD answered HTTP 404: not found.")
    }
}
