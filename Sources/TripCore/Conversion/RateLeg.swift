/// One leg of a cross rate: 1 `from` = `rate` `to`, with where that rate came from.
///
/// A conversion between two currencies with no direct rate goes through a third (the pivot) that
/// both have rates to; its quote keeps both legs so that output can say which rates it used.
public struct RateLeg: Sendable, Equatable {
    public let from: String
    public let to: String
    /// As published or set, or its inverse written as derived rates are (`Rational.derivedRateText`).
    public let rate: String
    /// The leg's exact value: a cross is computed from these, so an inverted leg is not rounded twice.
    public let exact: Rational
    public let date: CivilDate?
    public let source: RateSource
    public let provider: String?
    public let fetchedAt: String?
    public let provisional: Bool

    public init(
        from: String, to: String, exact: Rational, rate: String? = nil, date: CivilDate?, source: RateSource,
        provider: String? = nil, fetchedAt: String? = nil, provisional: Bool
    ) {
        self.from = from
        self.to = to
        self.exact = exact
        self.rate = rate ?? exact.derivedRateText
        self.date = date
        self.source = source
        self.provider = provider
        self.fetchedAt = fetchedAt
        self.provisional = provisional
    }

    /// The leg read the other way round: 1 `to` = 1/rate `from`.
    public var inverted: RateLeg? {
        guard let inverse = try? Rational.one / exact else { return nil }
        return RateLeg(
            from: to, to: from, exact: inverse, date: date, source: source, provider: provider, fetchedAt: fetchedAt,
            provisional: provisional)
    }

    /// `manual 2026-08-01`, `provider frankfurter 2026-07-31`: how output names a leg.
    public var summary: String {
        [source.rawValue, provider, date?.description].compactMap { $0 }.joined(separator: " ")
    }
}

extension RateQuote {
    /// `from` → `pivot` → `to` through two legs that meet at the pivot: the exact product, written
    /// as a derived rate. Dated by the older leg (the cross is only as fresh as that), provisional
    /// when either leg is, and `provider` when either leg is, else `manual`.
    public static func cross(_ first: RateLeg, _ second: RateLeg) -> RateQuote? {
        guard first.to == second.from, first.from != second.to, let product = try? first.exact * second.exact else { return nil }
        let dates = [first.date, second.date].compactMap { $0 }
        let providerLeg = [first, second].first { $0.source == .provider }
        return RateQuote(
            rate: product.derivedRateText, date: dates.min(), source: providerLeg == nil ? first.source : .provider,
            provider: providerLeg?.provider, fetchedAt: [first.fetchedAt, second.fetchedAt].compactMap { $0 }.max(),
            provisional: first.provisional || second.provisional, legs: [first, second])
    }

    /// The currency a cross goes through; nil for a direct rate.
    public var via: String? { legs.count == 2 ? legs[0].to : nil }

    /// What a purchase row keeps of this quote: the rate, its date, source and provider. The legs
    /// are for output at the time of converting.
    public var stored: RateQuote {
        RateQuote(rate: rate, date: date, source: source, provider: provider, fetchedAt: fetchedAt, provisional: provisional)
    }

    /// `via EUR: manual 2026-08-01, manual 2026-08-01`, or nil for a direct rate.
    public var routeSummary: String? {
        via.map { "via \($0): " + legs.map(\.summary).joined(separator: ", ") }
    }
}
