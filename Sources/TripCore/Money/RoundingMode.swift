/// How an exact value is rounded to a currency's minor units.
public enum RoundingMode: String, Sendable, CaseIterable, Codable {
    /// Ties away from zero: 2.5 → 3, −2.5 → −3. The default.
    case halfUp = "half-up"
    /// Ties to the even neighbour (banker's rounding): 2.5 → 2, 3.5 → 4.
    case halfEven = "half-even"
    /// Toward negative infinity. Japanese consumption tax is usually floored.
    case floor
    /// Toward positive infinity.
    case ceiling

    /// Accepts the canonical names and a few spellings people type (`halfup`, `half_even`, `ceil`).
    public init?(userText: String) {
        let t = String(userText.lowercased().map { $0 == "_" ? "-" : $0 })
        switch t {
        case "half-up", "halfup": self = .halfUp
        case "half-even", "halfeven", "bankers": self = .halfEven
        case "floor", "down": self = .floor
        case "ceiling", "ceil", "up": self = .ceiling
        default: return nil
        }
    }
}
