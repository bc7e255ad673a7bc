import TripCore

/// Frankfurter v1 (https://frankfurter.dev/v1/): ECB reference rates as JSON.
///
/// Always asks for the EUR base (the `base` parameter is omitted; EUR is its default): any
/// other base makes Frankfurter divide and round (`Roundable`), so the values would no longer
/// be the ECB's published figures. EUR is dropped from `quotes` (Frankfurter answers
/// "bad currency pair" for EUR→EUR).
///
/// The `date` in a response is the publication date actually used, which may be earlier than
/// the date asked for (a Sunday answers with Friday's rates).
public struct Frankfurter: Sendable {
    /// Identifier stored in `RateObservation.provider`.
    public static let providerName = "frankfurter"
    public static let defaultBaseURL = "https://api.frankfurter.dev/v1"

    /// Without a trailing slash, e.g. `https://api.frankfurter.dev/v1`.
    public var baseURL: String

    public init(baseURL: String = Frankfurter.defaultBaseURL) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    }

    // MARK: URLs

    /// `{base}/latest?symbols=…`; all currencies when `quotes` is empty.
    public func latestURL(quotes: [String]) -> String {
        baseURL + "/latest" + query(quotes)
    }

    /// `{base}/YYYY-MM-DD?symbols=…`.
    public func dayURL(_ date: String, quotes: [String]) -> String {
        baseURL + "/" + date + query(quotes)
    }

    /// `{base}/FROM..TO?symbols=…`.
    public func seriesURL(from: String, to: String, quotes: [String]) -> String {
        baseURL + "/" + from + ".." + to + query(quotes)
    }

    private func query(_ quotes: [String]) -> String {
        let codes = CurrencyCode.normalized(quotes, excluding: "EUR")
        return codes.isEmpty ? "" : "?symbols=" + codes.joined(separator: ",")
    }

    // MARK: Fetching

    /// Latest published rates (EUR base).
    ///
    /// - Parameters:
    ///   - today: `YYYY-MM-DD`; a publication date after it is rejected.
    ///   - validators: from the last stored response; a 304 yields `notModified`.
    public func latest(
        quotes: [String], today: String, validators: ResponseValidators? = nil,
        isKnownCurrency: (String) -> Bool, using client: some HTTPFetching
    ) throws(FetchError) -> RateBatch {
        let url = latestURL(quotes: quotes)
        let response = try client.get(url: url, headers: Self.acceptJSON, validators: validators, maxBodyBytes: nil)
        if response.isNotModified {
            return .notModified(provider: Self.providerName, base: "EUR", response: response, sent: validators)
        }
        return try parseDay(response, askedDate: nil, today: today, isKnownCurrency: isKnownCurrency)
    }

    /// Rates published on `date`, or on the last publication day before it.
    public func day(
        _ date: String, quotes: [String], today: String, validators: ResponseValidators? = nil,
        isKnownCurrency: (String) -> Bool, using client: some HTTPFetching
    ) throws(FetchError) -> RateBatch {
        let url = dayURL(date, quotes: quotes)
        guard CivilDate(iso: date) != nil else {
            throw .invalidURL(url: Redaction.mask(url: url), reason: "'\(date)' is not YYYY-MM-DD")
        }
        let response = try client.get(url: url, headers: Self.acceptJSON, validators: validators, maxBodyBytes: nil)
        if response.isNotModified {
            return .notModified(provider: Self.providerName, base: "EUR", response: response, sent: validators)
        }
        return try parseDay(response, askedDate: date, today: today, isKnownCurrency: isKnownCurrency)
    }

    /// Every publication day in `from...to` (Frankfurter may start at the publication day
    /// before `from`). Empty `observations` when nothing was published.
    public func series(
        from: String, to: String, quotes: [String], today: String, validators: ResponseValidators? = nil,
        isKnownCurrency: (String) -> Bool, using client: some HTTPFetching
    ) throws(FetchError) -> RateBatch {
        let url = seriesURL(from: from, to: to, quotes: quotes)
        guard let start = CivilDate(iso: from), let end = CivilDate(iso: to), start <= end else {
            throw .invalidURL(url: Redaction.mask(url: url), reason: "'\(from)..\(to)' is not a YYYY-MM-DD range")
        }
        let response = try client.get(url: url, headers: Self.acceptJSON, validators: validators, maxBodyBytes: nil)
        if response.isNotModified {
            return .notModified(provider: Self.providerName, base: "EUR", response: response, sent: validators)
        }
        return try parseSeries(response, to: to, today: today, isKnownCurrency: isKnownCurrency)
    }

    static let acceptJSON = ["Accept": "application/json"]

    // MARK: Parsing

    /// Validates a `/latest` or `/YYYY-MM-DD` body: `{"amount":1.0,"base":"EUR","date":…,"rates":{CODE: number}}`.
    ///
    /// - Parameter askedDate: for a single-day request, the publication date may not be after it.
    public func parseDay(
        _ response: HTTPResponse, askedDate: String?, today: String, isKnownCurrency: (String) -> Bool
    ) throws(FetchError) -> RateBatch {
        let root = try Self.root(of: response)
        let upperBound = askedDate.flatMap { CivilDate(iso: $0) }
        return try withoutActuallyEscaping(isKnownCurrency) { (isKnown) throws(FetchError) -> RateBatch in
            var collector = try ObservationCollector(
                provider: Self.providerName, base: "EUR", url: Redaction.mask(url: response.url), today: today,
                dateRange: upperBound.map { CivilDate(year: 1, month: 1, day: 1)!...$0 }, isKnownCurrency: isKnown)
            try Self.checkHeader(root, collector)
            guard let date = root["date"]?.stringValue else { throw collector.malformed("no \"date\"") }
            guard case let .object(rates)? = root["rates"] else { throw collector.malformed("no \"rates\" object") }
            guard !rates.isEmpty else { throw collector.malformed("\"rates\" is empty") }
            try collector.begin(date: date)
            for (quote, value) in rates {
                guard case let .number(text) = value else {
                    throw collector.malformed("\(quote.prefix(8)) rate is \(value.kindWithArticle), not a number")
                }
                try collector.add(quote: quote, rate: text)
            }
            return collector.batch(validators: response.validators)
        }
    }

    /// Validates a time-series body: `{"amount":1.0,"base":"EUR","start_date":…,"end_date":…,
    /// "rates":{"YYYY-MM-DD":{CODE: number}}}`. Every date must lie within `start_date…end_date`
    /// and not after `to`.
    public func parseSeries(
        _ response: HTTPResponse, to: String, today: String, isKnownCurrency: (String) -> Bool
    ) throws(FetchError) -> RateBatch {
        let root = try Self.root(of: response)
        let url = Redaction.mask(url: response.url)
        guard let startText = root["start_date"]?.stringValue, let start = CivilDate(iso: startText),
            let endText = root["end_date"]?.stringValue, let end = CivilDate(iso: endText), start <= end
        else {
            throw .malformedBody(url: url, reason: "no valid \"start_date\"/\"end_date\"")
        }
        guard let asked = CivilDate(iso: to), end <= asked else {
            throw .malformedBody(url: url, reason: "\"end_date\" \(endText) is after the requested end \(to)")
        }
        return try withoutActuallyEscaping(isKnownCurrency) { (isKnown) throws(FetchError) -> RateBatch in
            var collector = try ObservationCollector(
                provider: Self.providerName, base: "EUR", url: url, today: today,
                dateRange: start...end, isKnownCurrency: isKnown)
            try Self.checkHeader(root, collector)
            guard case let .object(days)? = root["rates"] else { throw collector.malformed("no \"rates\" object") }
            for (date, value) in days {
                guard case let .object(rates) = value else {
                    throw collector.malformed("rates of \(date.prefix(12)) are not an object")
                }
                try collector.begin(date: date)
                for (quote, rate) in rates {
                    guard case let .number(text) = rate else {
                        throw collector.malformed("\(quote.prefix(8)) rate on \(date) is \(rate.kindWithArticle), not a number")
                    }
                    try collector.add(quote: quote, rate: text)
                }
            }
            return collector.batch(validators: response.validators)
        }
    }

    /// The top-level object of a JSON body, after the captive-portal check.
    static func root(of response: HTTPResponse) throws(FetchError) -> ScannedJSON {
        try BodyKind.json.check(response)
        do throws(JSONScanner.Failure) {
            let value = try JSONScanner.parse(response.body)
            guard case .object = value else { throw JSONScanner.Failure(offset: 0, reason: "top level is not an object") }
            return value
        } catch {
            throw .malformedBody(url: Redaction.mask(url: response.url), reason: error.description)
        }
    }

    /// `base` must be EUR and `amount`, if present, 1 (another amount scales and rounds every value).
    static func checkHeader(_ root: ScannedJSON, _ collector: ObservationCollector) throws(FetchError) {
        guard let base = root["base"]?.stringValue else { throw collector.malformed("no \"base\"") }
        guard base == "EUR" else { throw collector.malformed("base is \(base.prefix(8)), asked for EUR") }
        if let amount = root["amount"] {
            guard case let .number(text) = amount, text == "1" || text == "1.0" else {
                throw collector.malformed("amount is not 1")
            }
        }
    }
}

// MARK: Sync

extension Frankfurter: RateProvider {
    public static let coverage = RateCoverage.history

    public init(configuredBaseURL baseURL: String, settings: Settings) {
        self.init(baseURL: baseURL)
    }

    /// One time series per trip still wanting rates, then "latest" (always: it refreshes today's
    /// table). No `symbols=`: Frankfurter rejects codes it does not publish, and the full set for
    /// a trip's range is small.
    public func requests(for plan: RatePlan, using client: some HTTPFetching) -> [RateRequest] {
        let (today, isKnown) = (plan.today, plan.isKnownCurrency)
        var requests = plan.spans.map { span in
            RateRequest(label: "\(span.from)…\(span.to) for \(span.tripName)", url: seriesURL(from: span.from, to: span.to, quotes: [])) {
                (validators) throws(FetchError) in
                try series(
                    from: span.from, to: span.to, quotes: [], today: today, validators: validators, isKnownCurrency: isKnown,
                    using: client)
            }
        }
        requests.append(
            RateRequest(label: "latest", url: latestURL(quotes: [])) { (validators) throws(FetchError) in
                try latest(quotes: [], today: today, validators: validators, isKnownCurrency: isKnown, using: client)
            })
        return requests
    }
}
