/// The fixed fallback rates of `config/fallback_rates.toml` (and a user `[fallback]` section):
/// units of each currency per 1 EUR, plus the irrevocable euro conversion rates of currencies the
/// euro replaced.
///
/// Any pair is crossed through EUR and written to 12 significant digits. A conversion is
/// provisional unless both legs are irrevocable (or EUR itself).
public struct FallbackTable: Sendable {
    /// Per 1 EUR, as exact decimals.
    public private(set) var perEUR: [String: Rational]
    public private(set) var irrevocable: Set<String>

    public init(perEUR: [String: Rational] = [:], irrevocable: Set<String> = []) {
        self.perEUR = perEUR
        self.irrevocable = irrevocable
    }

    /// Adds the `[fallback]` and `[irrevocable]` sections of `file`.
    public mutating func merge(_ file: ConfigFile) throws(TripError) {
        for e in file.entries where e.section == "fallback" || e.section == "irrevocable" {
            guard let r = Rational(decimalText: e.value), r > .zero else {
                throw .badConfig(file: file.origin, line: e.line, message: "\(e.key) needs a positive decimal rate, found \(quoted(e.value))")
            }
            let code = e.key.uppercased()
            perEUR[code] = r
            if e.section == "irrevocable" { irrevocable.insert(code) } else { irrevocable.remove(code) }
        }
    }

    /// The rate for 1 `from` in `to`, or `nil` when either is missing.
    public func rate(from: String, to: String) -> (rate: String, provisional: Bool)? {
        guard let a = perEUR[from], let b = perEUR[to], let cross = try? b / a else { return nil }
        let exactLegs = (from == "EUR" || irrevocable.contains(from)) && (to == "EUR" || irrevocable.contains(to))
        return (cross.derivedRateText, !exactLegs)
    }
}
