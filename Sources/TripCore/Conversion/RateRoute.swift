/// How a pair was converted: the quote a purchase keeps, and for a cross the two legs it came from.
///
/// The legs are for output at the time of converting (`trip convert`, `trip report --home`); a
/// purchase row keeps only the quote: the rate, its date, source and provider.
public struct RateRoute: Sendable, Equatable {
    public let quote: RateQuote
    /// Empty for a direct rate; a cross's two legs in order, `from` → pivot → `to`.
    public let legs: [RateLeg]

    public init(quote: RateQuote, legs: [RateLeg] = []) {
        self.quote = quote
        self.legs = legs
    }

    /// A direct rate: one leg, as the quote of its pair.
    public init(direct l: RateLeg) {
        self.init(
            quote: RateQuote(
                rate: l.rate, date: l.date, source: l.source, provider: l.provider, fetchedAt: l.fetchedAt,
                provisional: l.provisional))
    }

    /// `from` → `pivot` → `to` through two legs that meet at the pivot: the exact product, written
    /// as a derived rate. Dated by the older leg (the cross is only as fresh as that), provisional
    /// when either leg is, and `provider` when either leg is, else `manual`.
    public static func cross(_ first: RateLeg, _ second: RateLeg) -> RateRoute? {
        guard first.to == second.from, first.from != second.to, let a = first.exact, let b = second.exact,
            let product = try? a * b
        else { return nil }
        let dates = [first.date, second.date].compactMap { $0 }
        let providerLeg = [first, second].first { $0.source == .provider }
        let quote = RateQuote(
            rate: product.derivedRateText, date: dates.min(), source: providerLeg == nil ? first.source : .provider,
            provider: providerLeg?.provider, fetchedAt: [first.fetchedAt, second.fetchedAt].compactMap { $0 }.max(),
            provisional: first.provisional || second.provisional)
        return RateRoute(quote: quote, legs: [first, second])
    }

    /// The currency a cross goes through; nil for a direct rate.
    public var via: String? { legs.count == 2 ? legs[0].to : nil }

    /// `via EUR: manual 2026-08-01, manual 2026-08-01`, or nil for a direct rate.
    public var summary: String? {
        via.map { "via \($0): " + legs.map(\.summary).joined(separator: ", ") }
    }
}
