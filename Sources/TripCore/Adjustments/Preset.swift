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

    public init(name: String, description: String = "", source: String = "", service: AdjustmentSpec? = nil,
                tax: AdjustmentSpec? = nil, taxIncluded: Bool = false, tip: AdjustmentSpec? = nil,
                rounding: RoundingMode? = nil) {
        self.name = name
        self.description = description
        self.source = source
        self.service = service
        self.tax = tax
        self.taxIncluded = taxIncluded
        self.tip = tip
        self.rounding = rounding
    }
}
