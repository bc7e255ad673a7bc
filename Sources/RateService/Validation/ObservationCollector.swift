import TripCore

/// Accumulates validated observations for one response: all of them or an error.
///
/// Observations must arrive grouped by date (every provider publishes that way). Checks:
/// dates are real `YYYY-MM-DD` days, not after `today` and within `dateRange`, each date
/// appears once, each quote once per date, codes are well formed, rates pass `RateText`.
/// Codes the caller does not know (withdrawn or unofficial, e.g. ECB's old `CYP`) are skipped
/// and listed in `ignoredCodes`, not treated as errors.
struct ObservationCollector {
    let provider: String
    let base: String
    let url: String
    let today: CivilDate
    let dateRange: ClosedRange<CivilDate>?
    let isKnownCurrency: (String) -> Bool

    private(set) var observations: [RateObservation] = []
    private(set) var ignoredCodes: Set<String> = []
    private(set) var latestDate: String?
    private var seenDates: Set<String> = []
    private var currentDate: String?
    private var currentQuotes: Set<String> = []
    private var knownCache: [String: Bool] = [:]

    init(
        provider: String, base: String, url: String, today: String,
        dateRange: ClosedRange<CivilDate>? = nil, isKnownCurrency: @escaping (String) -> Bool
    ) throws(FetchError) {
        guard let todayDate = CivilDate(iso: today) else {
            throw .invalidURL(url: url, reason: "today '\(today)' is not YYYY-MM-DD")
        }
        self.provider = provider
        self.base = base
        self.url = url
        self.today = todayDate
        self.dateRange = dateRange
        self.isKnownCurrency = isKnownCurrency
    }

    func malformed(_ reason: String) -> FetchError { .malformedBody(url: url, reason: reason) }

    /// Starts the rates of publication date `date`.
    mutating func begin(date: String) throws(FetchError) {
        guard let parsed = CivilDate(iso: date) else { throw malformed("date '\(date.prefix(20))' is not YYYY-MM-DD") }
        guard parsed <= today else { throw malformed("date \(date) is after today (\(today.description))") }
        if let dateRange, !dateRange.contains(parsed) {
            throw malformed("date \(date) is outside \(dateRange.lowerBound.description)…\(dateRange.upperBound.description)")
        }
        guard seenDates.insert(date).inserted else { throw malformed("date \(date) appears twice") }
        currentDate = date
        currentQuotes.removeAll(keepingCapacity: true)
        if latestDate.map({ date > $0 }) ?? true { latestDate = date }
    }

    /// Adds `1 base = rate quote` for the current date.
    mutating func add(quote: String, rate: String) throws(FetchError) {
        guard let date = currentDate else { throw malformed("rate for \(quote.prefix(8)) before any date") }
        guard CurrencyCode.isWellFormed(quote) else { throw malformed("'\(quote.prefix(8))' is not a currency code") }
        if let problem = RateText.problem(with: rate) {
            throw malformed("\(quote) rate '\(rate.prefix(30))' on \(date) rejected: \(problem)")
        }
        guard currentQuotes.insert(quote).inserted else { throw malformed("\(quote) appears twice on \(date)") }
        if quote == base { return }
        let known: Bool
        if let cached = knownCache[quote] {
            known = cached
        } else {
            known = isKnownCurrency(quote)
            knownCache[quote] = known
        }
        guard known else {
            ignoredCodes.insert(quote)
            return
        }
        observations.append(RateObservation(provider: provider, base: base, quote: quote, date: date, rate: rate))
    }

    /// The validated result.
    func batch(validators: ResponseValidators) -> RateBatch {
        RateBatch(
            provider: provider, base: base, observations: observations, latestDate: latestDate,
            validators: validators, notModified: false, ignoredCodes: ignoredCodes.sorted())
    }
}
