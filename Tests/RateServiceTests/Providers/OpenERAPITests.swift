import FXTestServer
import Testing
import TripCore

@testable import RateService

@Suite struct OpenERAPITests {
    let server: FXTestServer
    let client = HTTPClient.test()
    let provider: OpenERAPI

    init() throws {
        server = try FXTestServer()
        provider = OpenERAPI(baseURL: server.baseURL + "/v6")
    }

    @Test func defaultURL() {
        #expect(OpenERAPI().latestURL(base: "usd") == "https://open.er-api.com/v6/latest/USD")
    }

    @Test func parsesTheRecordedBodyExactly() throws {
        server.route("/v6/latest/USD", .file(Fixture.bytes("erapi_latest_USD.json")))
        let batch = try provider.latest(base: "USD", today: "2024-08-19", isKnownCurrency: Fixture.isActive, using: client)
        #expect(batch.provider == "open-er-api")
        #expect(batch.base == "USD")
        // time_last_update_unix 1724025751 = Mon, 19 Aug 2024 00:02:31 UTC
        #expect(batch.latestDate == "2024-08-19")
        #expect(batch.ignoredCodes == ["ANG", "BGN", "FOK", "GGP", "HRK", "IMP", "JEP", "KID", "SLL", "TVD", "ZWL"])
        // 162 rates − USD itself − 11 unknown codes
        #expect(batch.observations.count == 150)
        let rates = Dictionary(uniqueKeysWithValues: batch.observations.map { ($0.quote, $0.rate) })
        #expect(rates["EUR"] == "0.907539")
        #expect(rates["AED"] == "3.6725")
        #expect(rates["ERN"] == "15")
        #expect(rates["ARS"] == "944")
        #expect(rates["VND"] == "25048.492735")
        #expect(rates["USD"] == nil)
        #expect(batch.observations.allSatisfy { $0.date == "2024-08-19" && $0.base == "USD" })
    }

    @Test func errorInsideA200BodyCarriesTheErrorType() {
        server.route("/v6/latest/XXX", .json(#"{"result":"error","error-type":"unsupported-code"}"#))
        let error = fetchError { () throws(FetchError) in
            try provider.latest(base: "XXX", today: "2024-08-19", isKnownCurrency: Fixture.isActive, using: client)
        }
        #expect(error == .httpStatus(url: server.baseURL + "/v6/latest/XXX", status: 200, message: "unsupported-code"))
        #expect(error?.description == "\(server.baseURL)/v6/latest/XXX reported an error: unsupported-code.")
    }

    @Test func baseMismatchIsRejected() {
        server.route("/v6/latest/EUR", .file(Fixture.bytes("erapi_latest_USD.json")))
        let error = fetchError { () throws(FetchError) in
            try provider.latest(base: "EUR", today: "2024-08-19", isKnownCurrency: Fixture.isActive, using: client)
        }
        #expect(error == .malformedBody(url: server.baseURL + "/v6/latest/EUR", reason: "base is USD, asked for EUR"))
    }

    @Test func publicationAfterTodayIsRejected() {
        server.route("/v6/latest/USD", .file(Fixture.bytes("erapi_latest_USD.json")))
        let error = fetchError { () throws(FetchError) in
            try provider.latest(base: "USD", today: "2024-08-18", isKnownCurrency: Fixture.isActive, using: client)
        }
        guard case let .malformedBody(_, reason)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason == "date 2024-08-19 is after today (2024-08-18)")
    }

    @Test func rateLimitedWithRetryAfter() {
        server.route("/v6/latest/USD", .retryAfter("1200"))
        let error = fetchError { () throws(FetchError) in
            try provider.latest(base: "USD", today: "2024-08-19", isKnownCurrency: Fixture.isActive, using: client)
        }
        #expect(error == .rateLimited(url: server.baseURL + "/v6/latest/USD", retryAfterSeconds: 1200))
    }
}
