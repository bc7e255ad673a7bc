import TripCore

/// A rate source that `trip rates sync` can walk: it turns what the ledger still needs into
/// requests, each fetched, validated and cached on its own.
///
/// Adding a provider means one file (its API, parser and this conformance) plus its line in
/// `RateProviders.all`; the name must also be in `Settings.knownProviders`, which `rates.chain`
/// is checked against (a test keeps the two lists equal).
public protocol RateProvider: Sendable {
    /// The name in `rates.chain` and `[rates] NAME_url`, and the cache's provider key.
    static var providerName: String { get }
    /// Where it is fetched from when the configuration names no URL.
    static var defaultBaseURL: String { get }
    /// What it can fetch, which decides the currency codes its batches may keep.
    static var coverage: RateCoverage { get }

    /// The provider as configured: `baseURL` is never empty (`RateProviders` substitutes
    /// `defaultBaseURL`); `settings` carries any provider-specific choice (`rates.ecb_history`).
    init(configuredBaseURL baseURL: String, settings: Settings)

    /// The requests for `plan`, in the order they are to be made. Each URL is known before its
    /// fetch, so the caller can send the validators cached under it.
    func requests(for plan: RatePlan, using client: some HTTPFetching) -> [RateRequest]
}

/// How far back a provider's answers reach.
public enum RateCoverage: Sendable, Equatable {
    /// Only the latest publication: its table is used for today's purchases only.
    case latestOnly
    /// Past publication days as well, which may carry codes since withdrawn (HRK, BGN).
    case history
}

/// What a sync wants from one provider in the chain.
public struct RatePlan {
    /// One trip whose purchases still lack some currency.
    public struct Span: Sendable, Equatable {
        /// Shown in progress lines only.
        public var tripName: String
        /// `YYYY-MM-DD`, inclusive.
        public var from: String
        public var to: String

        public init(tripName: String, from: String, to: String) {
            self.tripName = tripName
            self.from = from
            self.to = to
        }
    }

    /// `YYYY-MM-DD`: a publication date after it is rejected.
    public var today: String
    /// The trips still wanting rates, in the ledger's order. A provider without history ignores them.
    public var spans: [Span]
    /// The codes a batch may keep; the others are skipped and listed in `RateBatch.ignoredCodes`.
    public var isKnownCurrency: (String) -> Bool

    public init(today: String, spans: [Span], isKnownCurrency: @escaping (String) -> Bool) {
        self.today = today
        self.spans = spans
        self.isKnownCurrency = isKnownCurrency
    }
}

/// One request a provider will make: its URL for the cache, and the fetch that validates it.
public struct RateRequest {
    /// What is asked for, as progress shows it: `latest`, `2025-03-01…2025-03-09 for Rome`.
    public var label: String
    /// Unmasked; the caller masks it before using it as a cache key.
    public var url: String
    /// Fetches and validates; `validators` come from the cached copy of `url`, if any.
    public var fetch: (_ validators: ResponseValidators?) throws(FetchError) -> RateBatch

    public init(
        label: String, url: String, fetch: @escaping (_ validators: ResponseValidators?) throws(FetchError) -> RateBatch
    ) {
        self.label = label
        self.url = url
        self.fetch = fetch
    }
}
