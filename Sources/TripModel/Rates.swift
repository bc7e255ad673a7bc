import TripCore

/// A rate the user set by hand: 1 `base` = `rate` `quote`, from `date` on.
public struct ManualRate: Sendable, Equatable {
    public let base: Currency
    public let quote: Currency
    public let date: CivilDate
    public let rate: String

    public init(base: Currency, quote: Currency, date: CivilDate, rate: String) {
        self.base = base
        self.quote = quote
        self.date = date
        self.rate = rate
    }
    /// 1 `quote` = `inverse` `base`, to 12 significant digits (shown because people enter rates
    /// the wrong way round).
    public var inverse: String { Rational.inverse(ofRate: rate) }

}

/// What a re-rating changed.
public struct RerateSummary: Sendable, Equatable {
    /// Purchases whose conversion changed.
    public var changed = 0
    /// Sum of (new − old) home amounts, per home currency code, in minor units.
    public var delta: [String: Int64] = [:]
    /// Purchases still provisional or unconverted afterwards.
    public var remainingProvisional = 0
    /// Per purchase currency: why it stays provisional ("fallback table", "no rate").
    public var reasons: [String: String] = [:]

    public init() {}
}

/// One line of `trip rates status`: a currency the ledger uses or the cache holds.
public struct RateStatusLine: Sendable, Equatable {
    public let currency: String
    /// Newest cached observation of any provider, and which provider.
    public let latest: CivilDate?
    public let provider: String?
    /// Days between `latest` and today.
    public let ageDays: Int?
    /// Purchases in this currency that are provisional or unconverted.
    public let provisional: Int

    public init(currency: String, latest: CivilDate?, provider: String?, ageDays: Int?, provisional: Int) {
        self.currency = currency
        self.latest = latest
        self.provider = provider
        self.ageDays = ageDays
        self.provisional = provisional
    }
}

/// A provider request that failed.
public struct RatesSyncFailure: Sendable, Equatable {
    public let provider: String
    /// The error, as shown (its secrets already masked).
    public let message: String

    public init(provider: String, message: String) {
        self.provider = provider
        self.message = message
    }
}

/// What one `trip rates sync` did.
public struct RatesSyncOutcome: Sendable {
    /// Per trip in scope: what re-rating changed.
    public var trips: [(trip: Trip, summary: RerateSummary)] = []
    public var failures: [RatesSyncFailure] = []
    /// Responses stored (including 304 Not Modified).
    public var responses = 0
    public var observations = 0
    /// Needed currencies no provider supplied, with why.
    public var missing: [String: String] = [:]
    /// No open trip in scope had a provisional or unconverted purchase, so nothing was fetched.
    public var nothingToSync = false

    public init() {}
}
