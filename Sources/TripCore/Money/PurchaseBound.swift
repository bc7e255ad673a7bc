/// The largest amount one purchase may hold, so that no report sum can overflow.
///
/// Every stored amount of a purchase (price, each adjustment, total, charged and every home
/// amount) must lie within ±`maxMinorUnits`. Reports sum these in SQLite's 64-bit integers, which
/// fail the whole query on overflow; at 10^12 − 1 a sum of one column stays exact for more than
/// 9.2 million purchases all at the bound (Int64.max / 10^12), and the report's
/// gross = net + discounts − service − tax − tip for more than 1.8 million. In money that is
/// 9,999,999,999.99 USD, 999,999,999,999 JPY, 999,999,999.999 KWD per purchase.
public enum PurchaseBound {
    public static let maxMinorUnits: Int64 = 999_999_999_999

    public static func contains(_ amount: Int64) -> Bool { amount >= -maxMinorUnits && amount <= maxMinorUnits }

    /// Throws the usual one-line `badAmount` naming `field` when `amount` is beyond the bound.
    public static func check(_ amount: Int64, field: String, currency: Currency) throws(TripError) {
        guard !contains(amount) else { return }
        throw .badAmount(
            field: field, value: Money(minorUnits: amount, currency: currency).plainText,
            reason: "is too large; one purchase holds at most "
                + Money(minorUnits: maxMinorUnits, currency: currency).formatted)
    }

    /// The breakdown (in `currency`) of one purchase, all within the bound.
    public static func check(_ breakdown: Breakdown, currency: Currency) throws(TripError) {
        try check(breakdown.price, field: "amount", currency: currency)
        try check(breakdown.discount, field: "discount", currency: currency)
        try check(breakdown.service, field: "service", currency: currency)
        try check(breakdown.tax, field: "tax", currency: currency)
        try check(breakdown.tip, field: "tip", currency: currency)
        try check(breakdown.total, field: "total", currency: currency)
    }

    /// The home amounts of one purchase (converted or charged), all within the bound.
    public static func check(_ conversion: Conversion, field: String = "home amount") throws(TripError) {
        let c = conversion
        for amount in [c.home, c.homeDiscount, c.homeService, c.homeTax, c.homeTip] {
            if let amount { try check(amount, field: field, currency: c.homeCurrency) }
        }
    }

    /// `check` as a test, for the import fast path, which hands rows beyond it to the general path.
    public static func contains(_ breakdown: Breakdown) -> Bool {
        let b = breakdown
        return contains(b.price) && contains(b.discount) && contains(b.service) && contains(b.tax) && contains(b.tip)
            && contains(b.total)
    }
}
