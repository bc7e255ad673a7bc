/// A named set of adjustments from `config/presets.toml` (or the user's config), such as `JP`
/// (10% tax included, floored) or `SG` (10% service plus 9% GST added).
public struct Preset: Hashable, Sendable {
    public let name: String
    public let description: String
    /// Where the rule comes from (a tax authority, a regulation).
    public let source: String
    public let service: AdjustmentSpec?
    public let tax: AdjustmentSpec?
    public let taxIncluded: Bool
    public let tip: AdjustmentSpec?
    public let rounding: RoundingMode?
    /// The ISO 4217 codes of the prices this preset describes (`currencies = "EUR"` in the config).
    /// A trip's default preset applies only to purchases in these; empty (a user preset that names
    /// none) means the trip's local currency.
    public let currencies: [String]

    public init(
        name: String, description: String = "", source: String = "", service: AdjustmentSpec? = nil,
        tax: AdjustmentSpec? = nil, taxIncluded: Bool = false, tip: AdjustmentSpec? = nil,
        rounding: RoundingMode? = nil, currencies: [String] = []
    ) {
        self.name = name
        self.description = description
        self.source = source
        self.service = service
        self.tax = tax
        self.taxIncluded = taxIncluded
        self.tip = tip
        self.rounding = rounding
        self.currencies = currencies
    }

    /// Whether this preset, as a trip's default, applies to a purchase in `currency` on a trip whose
    /// local currency is `local`.
    public func applies(to currency: String, local: String?) -> Bool {
        currencies.isEmpty ? currency == local : currencies.contains(currency)
    }
}
