/// An amount of money: an integer count of a currency's minor units (JPY yen, USD cents,
/// KWD fils). Never a floating-point value.
public struct Money: Hashable, Sendable {
    public let minorUnits: Int64
    public let currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Exact decimal text with the currency's decimals, no grouping: `1234.50`, `3240`, `1.234`.
    /// This is the form of every amount in `--format json`.
    public var plainText: String {
        Rational.render(minorUnits: Int128(minorUnits), exponent: currency.minorUnits)
    }

    /// For people: code, thousands grouped with commas, e.g. `JPY 3,240`, `USD 1,234.50`.
    public var formatted: String { "\(currency.code) \(Money.group(plainText))" }

    /// Inserts `,` every three digits of the integer part of a plain decimal string.
    public static func group(_ plain: String) -> String {
        var sign = ""
        var text = Substring(plain)
        if text.hasPrefix("-") { sign = "-"; text = text.dropFirst() }
        let parts = text.split(separator: ".", maxSplits: 1)
        let intPart = Array(parts[0])
        var out = ""
        for (i, c) in intPart.enumerated() {
            if i > 0 && (intPart.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return sign + out + (parts.count > 1 ? "." + parts[1] : "")
    }
}
