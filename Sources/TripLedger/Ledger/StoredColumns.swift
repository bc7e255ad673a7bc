import TripCore

extension Conversion {
    /// Reads the 12 conversion columns of `purchases` starting at column `i`, in this order:
    /// home_currency, home_minor, home_discount_minor, home_service_minor, home_tax_minor,
    /// home_tip_minor, rate, rate_date, rate_source, rate_provider, rate_fetched_at, provisional.
    static let storedColumns = """
        p.home_currency, p.home_minor, p.home_discount_minor, p.home_service_minor, p.home_tax_minor, \
        p.home_tip_minor, p.rate, p.rate_date, p.rate_source, p.rate_provider, p.rate_fetched_at, p.provisional
        """

    init(stored s: Statement, at i: Int32) {
        let source = RateSource(rawValue: s.text(i + 8)) ?? .none
        let quote =
            source == .none
            ? nil
            : RateQuote(
                rate: s.optionalText(i + 6) ?? "", date: s.optionalText(i + 7).flatMap { CivilDate(iso: $0) }, source: source,
                provider: s.optionalText(i + 9), fetchedAt: s.optionalText(i + 10), provisional: s.int(i + 11) == 1)
        self.init(
            homeCurrency: .stored(s.text(i)), home: s.optionalInt(i + 1), homeDiscount: s.optionalInt(i + 2),
            homeService: s.optionalInt(i + 3), homeTax: s.optionalInt(i + 4), homeTip: s.optionalInt(i + 5),
            quote: quote)
    }
}
