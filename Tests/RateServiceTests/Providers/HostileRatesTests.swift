import FXTestServer
import Foundation
import Testing
import TripCore

@testable import RateService

/// Every provider format refuses the whole response when one rate is zero, negative, not a
/// number, overflowing, underflowing, absurdly long or outside the sane range; and says which.
@Suite struct HostileRatesTests {
    let server: FXTestServer
    let client = HTTPClient.test()

    init() throws { server = try FXTestServer() }

    static func expectRejected(_ error: FetchError?, quote: String, rate: String) {
        guard case let .malformedBody(_, reason)? = error else {
            Issue.record("rate \(rate.prefix(20)) was not refused: \(String(describing: error))")
            return
        }
        // Either the rate check names the quote, or the JSON reader refused the literal.
        #expect(reason.contains(quote) || reason.hasPrefix("invalid JSON"), "\(reason)")
        #expect(error!.description.count < 300 && !error!.description.contains("\n"))
    }

    @Test(arguments: HostileBodies.rates)
    func frankfurterLatest(rate: String) {
        server.route("/latest", .json(HostileBodies.frankfurterLatest(usd: rate)))
        let api = Frankfurter(baseURL: server.baseURL)
        Self.expectRejected(
            fetchError { () throws(FetchError) in
                try api.latest(quotes: [], today: HostileBodies.date, isKnownCurrency: { _ in true }, using: client)
            },
            quote: "USD", rate: rate)
    }

    @Test(arguments: HostileBodies.rates)
    func frankfurterSeries(rate: String) {
        let day = HostileBodies.date
        server.route("*", .json(HostileBodies.frankfurterSeries(from: day, to: day, usd: rate)))
        let api = Frankfurter(baseURL: server.baseURL)
        Self.expectRejected(
            fetchError { () throws(FetchError) in
                try api.series(from: day, to: day, quotes: [], today: day, isKnownCurrency: { _ in true }, using: client)
            }, quote: "USD", rate: rate)
    }

    @Test(arguments: HostileBodies.rates)
    func openERAPI(rate: String) {
        server.route("/latest/USD", .json(HostileBodies.openERAPILatest(eur: rate)))
        let api = OpenERAPI(baseURL: server.baseURL)
        Self.expectRejected(
            fetchError { () throws(FetchError) in
                try api.latest(base: "USD", today: HostileBodies.date, isKnownCurrency: { _ in true }, using: client)
            },
            quote: "EUR", rate: rate)
    }

    @Test(arguments: HostileBodies.rates)
    func ecbXML(rate: String) {
        server.route("*", .file(Array(HostileBodies.ecb(usd: rate).utf8), contentType: "text/xml"))
        let api = ECBXML(baseURL: server.baseURL)
        Self.expectRejected(
            fetchError { () throws(FetchError) in
                try api.fetch(.daily, today: HostileBodies.date, isKnownCurrency: { _ in true }, using: client)
            },
            quote: "USD", rate: rate)
    }

    @Test func theSameBodiesWithASaneRateAreAccepted() throws {
        server.route("/latest", .json(HostileBodies.frankfurterLatest(usd: "1.0565")))
        server.route("/latest/USD", .json(HostileBodies.openERAPILatest(eur: "0.9465")))
        server.route("/eurofxref-daily.xml", .file(Array(HostileBodies.ecb(usd: "1.0565").utf8), contentType: "text/xml"))
        let known: (String) -> Bool = { _ in true }
        let f = try Frankfurter(baseURL: server.baseURL).latest(
            quotes: [], today: HostileBodies.date, isKnownCurrency: known, using: client)
        #expect(f.observations.contains { $0.quote == "USD" && $0.rate == "1.0565" })
        let o = try OpenERAPI(baseURL: server.baseURL).latest(
            base: "USD", today: HostileBodies.date, isKnownCurrency: known, using: client)
        #expect(o.observations.contains { $0.quote == "EUR" && $0.rate == "0.9465" })
        let e = try ECBXML(baseURL: server.baseURL).fetch(
            .daily, today: HostileBodies.date, isKnownCurrency: known, using: client)
        #expect(e.observations.contains { $0.quote == "USD" && $0.rate == "1.0565" })
    }

    @Test func aShortenedContentLengthLeavesABodyTheParserRefuses() {
        let body = Array(HostileBodies.frankfurterLatest(usd: "1.0565").utf8)
        server.route(
            "/latest",
            .truncated(status: 200, headers: ["Content-Type": "application/json"], declaredLength: body.count - 3, body: body))
        let error = fetchError { () throws(FetchError) in
            try Frankfurter(baseURL: server.baseURL).latest(
                quotes: [], today: HostileBodies.date, isKnownCurrency: { _ in true }, using: client)
        }
        guard case let .malformedBody(_, reason)? = error else {
            Issue.record("expected malformedBody, got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("invalid JSON"), "\(reason)")
    }

    @Test func anXMLEntityBombIsNeverExpanded() {
        var doctype = #"<!DOCTYPE lolz [<!ENTITY lol0 "lol">"#
        for i in 1...9 { doctype += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1);", count: 10) + "\">" }
        doctype += "]>"
        let body = HostileBodies.ecb(usd: "&lol9;").replacingOccurrences(
            of: "<gesmes:Envelope", with: doctype + "<gesmes:Envelope")
        server.route("*", .file(Array(body.utf8), contentType: "text/xml"))
        let error = fetchError { () throws(FetchError) in
            try ECBXML(baseURL: server.baseURL).fetch(
                .daily, today: HostileBodies.date, isKnownCurrency: { _ in true }, using: client)
        }
        Self.expectRejected(error, quote: "USD", rate: "&lol9;")
        #expect(error?.description.contains("'&lol9;'") == true, "the text is taken literally: \(String(describing: error))")
    }
}
