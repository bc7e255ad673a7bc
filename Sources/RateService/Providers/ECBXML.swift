import TripCore

/// The ECB's euro foreign exchange reference rates as XML (`eurofxref-*.xml`), EUR base.
///
/// The ECB publishes once per TARGET working day (around 16:00 CET); weekends and TARGET
/// holidays have no `<Cube time>` at all, so gaps in the dates are expected and kept. Codes
/// the caller does not know (the history still carries withdrawn ones such as `CYP`, `HRK`)
/// are skipped and listed in `RateBatch.ignoredCodes`.
public struct ECBXML: Sendable {
    /// Identifier stored in `RateObservation.provider`.
    public static let providerName = "ecb"
    public static let defaultBaseURL = "https://www.ecb.europa.eu/stats/eurofxref"

    /// Which published file.
    public enum Feed: String, Sendable, CaseIterable {
        /// `eurofxref-daily.xml`: the latest publication day.
        case daily = "eurofxref-daily.xml"
        /// `eurofxref-hist-90d.xml`: about the last 90 calendar days.
        case last90Days = "eurofxref-hist-90d.xml"
        /// `eurofxref-hist.xml`: every day since 1999-01-04.
        case history = "eurofxref-hist.xml"

        /// Body cap for this feed, in bytes: the full history is already close to 10 MiB
        /// uncompressed and grows every day, so it gets 64 MiB; the others use the client's cap.
        public var maxBodyBytes: Int? { self == .history ? 64 << 20 : nil }
    }

    /// Without a trailing slash, e.g. `https://www.ecb.europa.eu/stats/eurofxref`.
    public var baseURL: String
    /// The feed `trip rates sync` asks for (`rates.ecb_history`).
    public var syncFeed: Feed = .last90Days

    public init(baseURL: String = ECBXML.defaultBaseURL) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    }

    /// `{base}/eurofxref-….xml`.
    public func url(for feed: Feed) -> String {
        baseURL + "/" + feed.rawValue
    }

    /// Fetches and validates one feed.
    ///
    /// - Parameter today: `YYYY-MM-DD`; a publication date after it is rejected.
    public func fetch(
        _ feed: Feed, today: String, validators: ResponseValidators? = nil,
        isKnownCurrency: (String) -> Bool, using client: some HTTPFetching
    ) throws(FetchError) -> RateBatch {
        let response = try client.get(
            url: url(for: feed), headers: ["Accept": "application/xml, text/xml"], validators: validators,
            maxBodyBytes: feed.maxBodyBytes)
        if response.isNotModified {
            return .notModified(provider: Self.providerName, base: "EUR", response: response, sent: validators)
        }
        return try parse(response, today: today, isKnownCurrency: isKnownCurrency)
    }

    /// Validates any of the eurofxref XML bodies (both layouts).
    ///
    /// Requires at least one dated `<Cube>`, at least one rate per date, every date once,
    /// every currency once per date, rates that pass `RateText`, dates not after `today`.
    public func parse(
        _ response: HTTPResponse, today: String, isKnownCurrency: (String) -> Bool
    ) throws(FetchError) -> RateBatch {
        try BodyKind.xml.check(response)
        let url = Redaction.mask(url: response.url)
        return try withoutActuallyEscaping(isKnownCurrency) { (isKnown) throws(FetchError) -> RateBatch in
            var collector = try ObservationCollector(
                provider: Self.providerName, base: "EUR", url: url, today: today, isKnownCurrency: isKnown)
            var dates = 0
            var ratesInDate = 0
            var lastDate = ""
            do throws(ECBCubeScanner.ScanError) {
                try ECBCubeScanner.scan(response.body) { (event) throws(FetchError) in
                    switch event {
                    case let .date(date):
                        if dates > 0 && ratesInDate == 0 { throw collector.malformed("no rates on \(lastDate)") }
                        try collector.begin(date: date)
                        dates += 1
                        ratesInDate = 0
                        lastDate = date
                    case let .rate(currency, rate):
                        try collector.add(quote: currency, rate: rate)
                        ratesInDate += 1
                    }
                }
            } catch {
                switch error {
                case let .rejected(fetchError): throw fetchError
                case let .syntax(offset, reason): throw .malformedBody(url: url, reason: "\(reason) at byte \(offset)")
                }
            }
            guard dates > 0 else { throw .malformedBody(url: url, reason: "no <Cube time=…> element") }
            guard ratesInDate > 0 else { throw .malformedBody(url: url, reason: "no rates on \(lastDate)") }
            return collector.batch(validators: response.validators)
        }
    }
}

// MARK: Sync

extension ECBXML: RateProvider {
    public static let coverage = RateCoverage.history

    /// `rates.ecb_history` picks the feed: `daily`, `full`, otherwise the last 90 days.
    public init(configuredBaseURL baseURL: String, settings: Settings) {
        self.init(baseURL: baseURL)
        syncFeed =
            switch settings.ecbHistory.value {
            case "daily": .daily
            case "full": .history
            default: .last90Days
            }
    }

    /// One request for the configured feed, whatever the trips' dates: each file covers a fixed span.
    public func requests(for plan: RatePlan, using client: some HTTPFetching) -> [RateRequest] {
        let (feed, today, isKnown) = (syncFeed, plan.today, plan.isKnownCurrency)
        return [
            RateRequest(label: feed.rawValue, url: url(for: feed)) { (validators) throws(FetchError) in
                try fetch(feed, today: today, validators: validators, isKnownCurrency: isKnown, using: client)
            }
        ]
    }
}
