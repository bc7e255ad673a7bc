import FXTestServer
import Testing
import TripCore

@testable import RateService

/// The registry behind `trip rates sync`: every name `rates.chain` accepts has a provider, and
/// each provider plans the requests the sync has always made.
@Suite struct RateProvidersTests {
    @Test func theRegistryCoversEveryNameTheConfigurationAccepts() {
        #expect(RateProviders.all.map { $0.providerName }.sorted() == Settings.knownProviders.sorted())
        #expect(RateProviders.type(named: "frankfurter") == Frankfurter.self)
        #expect(RateProviders.type(named: "fallback") == nil)
    }

    @Test func anEmptyConfiguredURLMeansTheProvidersDefault() throws {
        let settings = try Settings.defaults()
        let plan = RatePlan(today: "2025-03-10", spans: [], isKnownCurrency: Fixture.isActive)
        let urls = Settings.knownProviders.map {
            RateProviders.configured($0, baseURL: "", settings: settings)!.requests(for: plan, using: HTTPClient.test()).map(\.url)
        }
        #expect(
            urls == [
                ["https://api.frankfurter.dev/v1/latest"], ["https://open.er-api.com/v6/latest/USD"],
                ["https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml"],
            ])
        let mirror = RateProviders.configured("frankfurter", baseURL: "http://127.0.0.1:9/v1/", settings: settings)!
        #expect(mirror.requests(for: plan, using: HTTPClient.test()).map(\.url) == ["http://127.0.0.1:9/v1/latest"])
    }

    @Test func frankfurterAsksOneSeriesPerTripThenLatest() throws {
        let provider = RateProviders.configured("frankfurter", baseURL: "http://x/v1", settings: try Settings.defaults())!
        let plan = RatePlan(
            today: "2025-03-10",
            spans: [.init(tripName: "Rome", from: "2025-03-01", to: "2025-03-09"), .init(tripName: "Oslo", from: "2025-02-01", to: "2025-02-03")],
            isKnownCurrency: Fixture.isActive)
        let requests = provider.requests(for: plan, using: HTTPClient.test())
        #expect(requests.map(\.label) == ["2025-03-01…2025-03-09 for Rome", "2025-02-01…2025-02-03 for Oslo", "latest"])
        #expect(requests.map(\.url) == ["http://x/v1/2025-03-01..2025-03-09", "http://x/v1/2025-02-01..2025-02-03", "http://x/v1/latest"])
        #expect(type(of: provider).coverage == .history)
    }

    @Test func openERAPIAsksLatestForUSDWhateverTheTrips() throws {
        let provider = RateProviders.configured("open-er-api", baseURL: "http://x/v6", settings: try Settings.defaults())!
        let plan = RatePlan(
            today: "2025-03-10", spans: [.init(tripName: "Rome", from: "2025-03-01", to: "2025-03-09")], isKnownCurrency: Fixture.isActive)
        #expect(provider.requests(for: plan, using: HTTPClient.test()).map { "\($0.label) \($0.url)" } == ["latest http://x/v6/latest/USD"])
        #expect(type(of: provider).coverage == .latestOnly)
    }

    @Test(arguments: [("daily", "eurofxref-daily.xml"), ("90d", "eurofxref-hist-90d.xml"), ("full", "eurofxref-hist.xml")])
    func ecbAsksTheConfiguredFeed(history: String, file: String) throws {
        var settings = try Settings.defaults()
        try settings.apply(ConfigFile(origin: "test.toml", text: "[rates]\necb_history = \"\(history)\"\n"))
        let provider = RateProviders.configured("ecb", baseURL: "http://x/ecb", settings: settings)!
        let plan = RatePlan(
            today: "2025-03-10", spans: [.init(tripName: "Rome", from: "2025-03-01", to: "2025-03-09")], isKnownCurrency: Fixture.isActive)
        #expect(provider.requests(for: plan, using: HTTPClient.test()).map { "\($0.label) \($0.url)" } == ["\(file) http://x/ecb/\(file)"])
    }

    @Test func aRequestFetchesThroughTheGivenClientWithThePlansFilter() throws {
        let server = try FXTestServer()
        server.route("/v6/latest/USD", .file(Fixture.bytes("erapi_latest_USD.json")))
        let provider = RateProviders.configured("open-er-api", baseURL: server.baseURL + "/v6", settings: try Settings.defaults())!
        let plan = RatePlan(today: "2024-08-19", spans: [], isKnownCurrency: { $0 == "EUR" || $0 == "USD" })
        let batch = try provider.requests(for: plan, using: HTTPClient.test())[0].fetch(nil)
        #expect(batch.provider == "open-er-api")
        #expect(batch.observations.map { "\($0.quote) \($0.rate)" } == ["EUR 0.907539"])
    }
}
