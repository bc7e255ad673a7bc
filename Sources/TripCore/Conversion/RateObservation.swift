/// One published exchange rate: `1 base = rate quote` on `date`, according to `provider`.
///
/// What the rate service returns after validation and what the ledger caches, one row each.
public struct RateObservation: Sendable, Hashable, Codable {
    /// Provider identifier: `"frankfurter"`, `"open-er-api"` or `"ecb"`.
    public var provider: String
    /// ISO 4217 code of the unit currency (`EUR` for Frankfurter and the ECB).
    public var base: String
    /// ISO 4217 code of the priced currency.
    public var quote: String
    /// Publication date `YYYY-MM-DD` as the provider states it (not the date asked for).
    public var date: String
    /// The rate exactly as published: plain positive decimal text (`"1.0789"`, `"17549"`),
    /// validated by the rate service before it is returned. Never converted to floating point.
    public var rate: String

    public init(provider: String, base: String, quote: String, date: String, rate: String) {
        self.provider = provider
        self.base = base
        self.quote = quote
        self.date = date
        self.rate = rate
    }
}
