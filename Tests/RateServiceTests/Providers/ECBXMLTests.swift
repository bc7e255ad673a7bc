import FXTestServer
import Testing
import TripCore

@testable import RateService

@Suite struct ECBXMLTests {
    let server: FXTestServer
    let client = HTTPClient.test()
    let provider: ECBXML

    init() throws {
        server = try FXTestServer()
        provider = ECBXML(baseURL: server.baseURL + "/stats/eurofxref")
    }

    @Test func defaultURLs() {
        #expect(ECBXML().url(for: .daily) == "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml")
        #expect(ECBXML().url(for: .last90Days) == "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml")
        #expect(ECBXML().url(for: .history) == "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.xml")
    }

    @Test func dailyLayoutWithSingleQuotesKeepsTrailingZeros() throws {
        server.route("/stats/eurofxref/eurofxref-daily.xml", .file(Fixture.bytes("ecb_daily.xml"), contentType: "text/xml"))
        let batch = try provider.fetch(.daily, today: "2022-07-08", isKnownCurrency: Fixture.isActive, using: client)
        #expect(batch.provider == "ecb")
        #expect(batch.latestDate == "2022-07-08")
        #expect(batch.ignoredCodes == ["BGN", "HRK"])
        #expect(batch.observations.count == 29)
        let rates = Dictionary(uniqueKeysWithValues: batch.observations.map { ($0.quote, $0.rate) })
        #expect(rates["USD"] == "1.0163")
        #expect(rates["JPY"] == "138.05")
        #expect(rates["PLN"] == "4.7630")  // as published, trailing zero included
        #expect(rates["ISK"] == "139.50")
        #expect(rates["ZAR"] == "17.1922")
    }

    @Test func ninetyDayLayoutShowsWeekendAndHolidayGaps() throws {
        server.route("/stats/eurofxref/eurofxref-hist-90d.xml", .file(Fixture.bytes("ecb_hist_90d.xml"), contentType: "text/xml"))
        let batch = try provider.fetch(.last90Days, today: "2017-03-03", isKnownCurrency: Fixture.isActive, using: client)
        let dates = Set(batch.observations.map(\.date))
        #expect(dates.count == 64)
        #expect(batch.latestDate == "2017-03-03")
        #expect(batch.observations.count == 64 * 29)
        #expect(dates.contains("2016-12-23") && dates.contains("2016-12-27"))
        // Christmas weekend and Boxing Day (a TARGET holiday, Monday) have no rates, nor do weekends.
        for missing in ["2016-12-24", "2016-12-25", "2016-12-26", "2017-01-01", "2017-02-25", "2017-02-26"] {
            #expect(!dates.contains(missing), "\(missing)")
        }
        #expect(
            batch.observations.contains(
                RateObservation(provider: "ecb", base: "EUR", quote: "GBP", date: "2017-02-27", rate: "0.8528")))
        #expect(
            batch.observations.contains(
                RateObservation(provider: "ecb", base: "EUR", quote: "USD", date: "2016-12-27", rate: "1.0445")))
        #expect(
            batch.observations.first
                == RateObservation(provider: "ecb", base: "EUR", quote: "USD", date: "2017-03-03", rate: "1.0565"))
    }

    @Test func historyFeedUsesItsLargerCap() throws {
        server.route("/stats/eurofxref/eurofxref-hist.xml", .file(Fixture.bytes("ecb_hist_90d.xml"), contentType: "text/xml"))
        let small = HTTPClient.test(maxBodyBytes: 1024)
        let batch = try provider.fetch(.history, today: "2017-03-03", isKnownCurrency: Fixture.isActive, using: small)
        #expect(batch.observations.count == 64 * 29)
        server.route("/stats/eurofxref/eurofxref-hist-90d.xml", .file(Fixture.bytes("ecb_hist_90d.xml"), contentType: "text/xml"))
        #expect(
            fetchError { () throws(FetchError) in
                try provider.fetch(.last90Days, today: "2017-03-03", isKnownCurrency: Fixture.isActive, using: small)
            } == .bodyTooLarge(url: server.baseURL + "/stats/eurofxref/eurofxref-hist-90d.xml", limitBytes: 1024))
    }

    @Test(arguments: [
        ("<Cube time='2022-07-08'><Cube currency='USD' rate='0'/></Cube>", "zero"),
        ("<Cube time='2022-07-08'><Cube currency='USD' rate='NaN'/></Cube>", "not a plain positive decimal"),
        ("<Cube time='2022-07-08'><Cube currency='USD' rate='1E+308'/></Cube>", "not a plain positive decimal"),
        ("<Cube time='2022-07-08'><Cube currency='USD' rate='-1.0163'/></Cube>", "not a plain positive decimal"),
        ("<Cube time='2022-07-09'><Cube currency='USD' rate='1.0163'/></Cube>", "after today"),
        ("<Cube time='2022-07-08'></Cube>", "no rates on 2022-07-08"),
        ("<Cube currency='USD' rate='1.0163'/>", "before any date"),
        (
            "<Cube time='2022-07-08'><Cube currency='USD' rate='1.0163'/><Cube currency='USD' rate='1.0164'/></Cube>",
            "appears twice"
        ),
        (
            "<Cube time='2022-07-08'><Cube currency='USD' rate='1.0163'/></Cube><Cube time='2022-07-08'><Cube currency='USD' rate='1.0163'/></Cube>",
            "appears twice"
        ),
        ("<Cube time='2022-07-08'><Cube currency='USD' rate=1.0163/></Cube>", "unquoted"),
        ("<Cube time='2022-07-08'><Cube currency='USD' rate='1.0163", "unterminated"),
        ("<gesmes:Envelope><Cube></Cube></gesmes:Envelope>", "no <Cube time"),
    ])
    func invalidXMLRejectsTheWholeResponse(cubes: String, problem: String) {
        server.route(
            "/stats/eurofxref/eurofxref-daily.xml", .file(Array("<?xml version=\"1.0\"?>\(cubes)".utf8), contentType: "text/xml"))
        let error = fetchError { () throws(FetchError) in
            try provider.fetch(.daily, today: "2022-07-08", isKnownCurrency: Fixture.isActive, using: client)
        }
        guard case let .malformedBody(_, reason)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains(problem), "\(reason)")
    }

    @Test func captchaPageIsACaptivePortal() {
        server.route(
            "/stats/eurofxref/eurofxref-daily.xml",
            .respond(
                status: 200, headers: ["Content-Type": "application/xml"],
                body: Array("\n<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\"><html><body>Please verify</body></html>".utf8))
        )
        let error = fetchError { () throws(FetchError) in
            try provider.fetch(.daily, today: "2022-07-08", isKnownCurrency: Fixture.isActive, using: client)
        }
        #expect(error == .captivePortal(url: server.baseURL + "/stats/eurofxref/eurofxref-daily.xml"))
    }

    /// A synthetic full history: 7,000 dates × 30 currencies in the compact layout (~8.5 MB).
    @Test func fullHistorySizedBodyParsesQuickly() throws {
        let currencies = [
            "USD", "JPY", "CZK", "DKK", "GBP", "HUF", "PLN", "RON", "SEK", "CHF", "ISK", "NOK", "TRY",
            "AUD", "BRL", "CAD", "CNY", "HKD", "IDR", "ILS", "INR", "KRW", "MXN", "MYR", "NZD", "PHP",
            "SGD", "THB", "ZAR", "EEK",
        ]
        var xml = #"<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope><Cube>"#
        var day = CivilDate(year: 2026, month: 4, day: 13)!.daysSinceEpoch
        for index in 0..<7000 {
            xml += #"<Cube time="\#(CivilDate(daysSinceEpoch: day)!.description)">"#
            for (position, code) in currencies.enumerated() {
                xml += #"<Cube currency="\#(code)" rate="\#(position + 1).\#(1000 + index % 9000)"/>"#
            }
            xml += "</Cube>\n"
            day -= 1
        }
        xml += "</Cube></gesmes:Envelope>"
        let response = HTTPResponse(
            status: 200, body: Array(xml.utf8), url: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.xml")
        // No clock here: how fast this parses is `make bench`'s "rates sync, full ECB history" row.
        let batch = try ECBXML().parse(response, today: "2026-04-13", isKnownCurrency: Fixture.isActive)
        #expect(batch.observations.count == 7000 * 29)
        #expect(batch.ignoredCodes == ["EEK"])
        #expect(batch.latestDate == "2026-04-13")
    }
}
