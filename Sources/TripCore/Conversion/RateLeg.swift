/// One leg of a cross rate: 1 `from` = `rate` `to`, with where that rate came from.
///
/// A conversion between two currencies with no direct rate goes through a third (the pivot) that
/// both have rates to; its `RateRoute` keeps both legs so that output can say which rates it used.
public struct RateLeg: Sendable, Equatable {
    public let from: String
    public let to: String
    /// The rate as published or set, for whichever way round it was: 1 `from` = `published` `to`,
    /// or with `inverted`, 1 `to` = `published` `from`. Kept as text, so a cross is computed from
    /// exactly what was published and an inverted leg is not rounded twice.
    public let published: String
    public let inverted: Bool
    public let date: CivilDate?
    public let source: RateSource
    public let provider: String?
    public let fetchedAt: String?
    public let provisional: Bool

    public init(
        from: String, to: String, published: String, inverted: Bool = false, date: CivilDate?, source: RateSource,
        provider: String? = nil, fetchedAt: String? = nil, provisional: Bool
    ) {
        self.from = from
        self.to = to
        self.published = published
        self.inverted = inverted
        self.date = date
        self.source = source
        self.provider = provider
        self.fetchedAt = fetchedAt
        self.provisional = provisional
    }

    /// 1 `from` = `rate` `to`: the published text, or its inverse written as derived rates are
    /// (`Rational.derivedRateText`).
    public var rate: String { inverted ? Rational.inverse(ofRate: published) : published }

    /// The leg's exact value; nil for a text that is not a positive rate.
    public var exact: Rational? {
        guard let r = Rational(decimalText: published), !r.isZero else { return nil }
        return inverted ? try? Rational.one / r : r
    }

    /// The leg read the other way round: 1 `to` = 1/rate `from`.
    public var reversed: RateLeg {
        RateLeg(
            from: to, to: from, published: published, inverted: !inverted, date: date, source: source, provider: provider,
            fetchedAt: fetchedAt, provisional: provisional)
    }

    /// `manual 2026-08-01`, `provider frankfurter 2026-07-31`: how output names a leg.
    public var summary: String {
        [source.rawValue, provider, date?.description].compactMap { $0 }.joined(separator: " ")
    }
}
