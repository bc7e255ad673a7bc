/// Where a conversion's rate came from.
public enum RateSource: String, Sendable, Codable, CaseIterable {
    /// The purchase is in the home currency: rate 1, not a conversion.
    case identity
    /// `trip rates set` or `--rate` on the purchase.
    case manual
    /// `--charged`: what the card statement says in the home currency. Wins over any rate.
    case charged
    /// A rate from a provider's cache (`trip rates sync`).
    case provider
    /// The fixed fallback table in `config/`. Provisional unless every leg is irrevocable.
    case fallback
    /// No rate at all: the purchase stays unconverted. Never treated as 1:1.
    case none
}

/// A rate chosen for one purchase: 1 unit of the purchase currency = `rate` units of home.
public struct RateQuote: Sendable, Equatable {
    /// Exact decimal text: as published, or a cross/inverse to 12 significant digits.
    public let rate: String
    public let date: CivilDate?
    public let source: RateSource
    public let provider: String?
    public let fetchedAt: String?
    public let provisional: Bool

    public init(
        rate: String, date: CivilDate?, source: RateSource, provider: String? = nil,
        fetchedAt: String? = nil, provisional: Bool
    ) {
        self.rate = rate
        self.date = date
        self.source = source
        self.provider = provider
        self.fetchedAt = fetchedAt
        self.provisional = provisional
    }
}

/// A purchase's amounts in the home currency and the rate they used.
///
/// `home` = round(total × rate) to the home currency's minor units. Each adjustment is converted at
/// the same rate and rounded on its own; report gross is derived from these so lines add up.
public struct Conversion: Sendable, Equatable {
    public let homeCurrency: Currency
    /// `nil`: unconverted (no rate).
    public let home: Int64?
    public let homeDiscount: Int64?
    public let homeService: Int64?
    public let homeTax: Int64?
    public let homeTip: Int64?
    public let quote: RateQuote?

    public var source: RateSource { quote?.source ?? .none }
    public var provisional: Bool { quote?.provisional ?? true }

    public init(
        homeCurrency: Currency, home: Int64?, homeDiscount: Int64?, homeService: Int64?, homeTax: Int64?,
        homeTip: Int64?, quote: RateQuote?
    ) {
        self.homeCurrency = homeCurrency
        self.home = home
        self.homeDiscount = homeDiscount
        self.homeService = homeService
        self.homeTax = homeTax
        self.homeTip = homeTip
        self.quote = quote
    }

    /// Converts `breakdown` (in `from`) at `quote`, rounding each amount with `rounding`.
    /// For `.charged`, pass the charged amount: it becomes `home`, and the components use the exact
    /// effective rate charged / total.
    public static func make(
        breakdown b: Breakdown, from: Currency, to home: Currency, quote: RateQuote?,
        charged: Int64? = nil, rounding: RoundingMode
    ) throws(TripError) -> Conversion {
        guard let quote else {
            return Conversion(homeCurrency: home, home: nil, homeDiscount: nil, homeService: nil, homeTax: nil, homeTip: nil, quote: nil)
        }
        let factor: Rational
        do {
            if let charged {
                factor = b.total == 0 ? .zero : try Rational(Int128(charged), Int128(b.total))
            } else {
                guard let r = Rational(decimalText: quote.rate) else {
                    throw TripError.badRate(field: "rate", value: quote.rate, reason: "is not a decimal rate")
                }
                factor = try r.scaled(byPowerOfTen: home.minorUnits - from.minorUnits)
            }
        } catch let e as TripError { throw e } catch {
            throw .badRate(field: "rate", value: quote.rate, reason: "is out of range")
        }
        func convert(_ v: Int64) throws(TripError) -> Int64 {
            if let r = factor.timesRounded(v, rounding) { return r }
            // The unreduced product overflowed: the reduced one may still fit.
            do { return try (Rational(v) * factor).roundedToInt64(rounding) } catch {
                throw .badAmount(field: "home amount", value: String(v), reason: "is too large for 64-bit minor units once converted")
            }
        }
        let total: Int64
        if let charged { total = charged } else { total = try convert(b.total) }
        return Conversion(
            homeCurrency: home, home: total, homeDiscount: try convert(b.discount),
            homeService: try convert(b.service), homeTax: try convert(b.tax), homeTip: try convert(b.tip),
            quote: quote)
    }
}
