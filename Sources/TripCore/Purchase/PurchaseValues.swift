/// A purchase as `PurchaseBuilder` computed it: every stored value but its id, kind and times.
public struct PurchaseValues: Sendable, Equatable {
    public let tripID: Int64
    public let date: CivilDate
    public let note: String
    public let category: String?
    public let paidWith: String?
    public let currency: Currency
    /// The amount as typed, trimmed.
    public let expression: String
    public let inputs: AdjustmentInputs
    public let breakdown: Breakdown
    public let preset: String?
    /// `--rate`, as validated.
    public let purchaseRate: String?
    /// `--charged` (or an export row's charged amount), in home minor units.
    public let charged: Int64?
    public let conversion: Conversion
    /// `nil` for rows that do not record them (imported).
    public let explicit: ExplicitFields?
}
