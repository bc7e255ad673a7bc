import TripCore

/// open.er-api.com, ExchangeRate-API's free endpoint without a key: latest rates only, any base.
///
/// Errors arrive with HTTP 200 and `"result":"error"` plus an `error-type`; they become
/// `FetchError.httpStatus` carrying that `error-type`. The publication date is the UTC date of
/// `time_last_update_unix`. Codes the caller does not know (the feed carries some outside
/// ISO 4217's active list) are skipped, not rejected.
public struct OpenERAPI: Sendable {
    /// Identifier stored in `RateObservation.provider`.
    public static let providerName = "open-er-api"
    public static let defaultBaseURL = "https://open.er-api.com/v6"

    /// Without a trailing slash, e.g. `https://open.er-api.com/v6`.
    public var baseURL: String

    public init(baseURL: String = OpenERAPI.defaultBaseURL) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    }

    /// `{base}/latest/CODE`.
    public func latestURL(base: String) -> String {
        baseURL + "/latest/" + base.uppercased()
    }

    /// Latest rates for `1 base`.
    ///
    /// - Parameter today: `YYYY-MM-DD`; a publication date after it is rejected.
    public func latest(
        base: String, today: String, validators: ResponseValidators? = nil,
        isKnownCurrency: (String) -> Bool, using client: some HTTPFetching
    ) throws(FetchError) -> RateBatch {
        let url = latestURL(base: base)
        guard CurrencyCode.isWellFormed(base.uppercased()) else {
            throw .invalidURL(url: Redaction.mask(url: url), reason: "'\(base.prefix(8))' is not a currency code")
        }
        let response = try client.get(url: url, headers: Frankfurter.acceptJSON, validators: validators, maxBodyBytes: nil)
        if response.isNotModified {
            return .notModified(provider: Self.providerName, base: base.uppercased(), response: response, sent: validators)
        }
        return try parseLatest(response, base: base.uppercased(), today: today, isKnownCurrency: isKnownCurrency)
    }

    /// Validates a `/latest/CODE` body.
    public func parseLatest(
        _ response: HTTPResponse, base: String, today: String, isKnownCurrency: (String) -> Bool
    ) throws(FetchError) -> RateBatch {
        let root = try Frankfurter.root(of: response)
        let url = Redaction.mask(url: response.url)
        guard let result = root["result"]?.stringValue else { throw .malformedBody(url: url, reason: "no \"result\"") }
        guard result == "success" else {
            let message = (root["error-type"]?.stringValue).flatMap(ProviderMessage.clean) ?? "result \(result.prefix(40))"
            throw .httpStatus(url: url, status: response.status, message: message)
        }
        guard let baseCode = root["base_code"]?.stringValue else { throw .malformedBody(url: url, reason: "no \"base_code\"") }
        guard baseCode == base else { throw .malformedBody(url: url, reason: "base is \(baseCode.prefix(8)), asked for \(base)") }
        guard case let .number(unixText)? = root["time_last_update_unix"],
            let unix = Int64(unixText), let published = CivilDate(unixSeconds: unix)
        else {
            throw .malformedBody(url: url, reason: "no valid \"time_last_update_unix\"")
        }
        guard case let .object(rates)? = root["rates"], !rates.isEmpty else {
            throw .malformedBody(url: url, reason: "no \"rates\" object")
        }
        return try withoutActuallyEscaping(isKnownCurrency) { (isKnown) throws(FetchError) -> RateBatch in
            var collector = try ObservationCollector(
                provider: Self.providerName, base: base, url: url, today: today, isKnownCurrency: isKnown)
            try collector.begin(date: published.description)
            for (quote, value) in rates {
                guard case let .number(text) = value else {
                    throw collector.malformed("\(quote.prefix(8)) rate is \(value.kindWithArticle), not a number")
                }
                try collector.add(quote: quote, rate: text)
            }
            return collector.batch(validators: response.validators)
        }
    }
}

// MARK: Sync

extension OpenERAPI: RateProvider {
    public static let coverage = RateCoverage.latestOnly

    public init(configuredBaseURL baseURL: String, settings: Settings) {
        self.init(baseURL: baseURL)
    }

    /// "latest" for a USD base, whatever the trips need: the free endpoint has no history, and
    /// any base yields every published code.
    public func requests(for plan: RatePlan, using client: some HTTPFetching) -> [RateRequest] {
        let (today, isKnown) = (plan.today, plan.isKnownCurrency)
        return [
            RateRequest(label: "latest", url: latestURL(base: "USD")) { (validators) throws(FetchError) in
                try latest(base: "USD", today: today, validators: validators, isKnownCurrency: isKnown, using: client)
            }
        ]
    }
}
