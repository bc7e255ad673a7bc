/// A purchase as `PurchaseBuilder` computed it: every stored value but its id, kind and times.
///
/// The ledger stores it through one declaration of its columns (`PurchaseColumns` in TripLedger),
/// which reads each column's value from here.
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
    public var explicit: ExplicitFields?
    /// The values of `PurchaseTextFields.all`.
    public var texts: PurchaseTexts

    public init(
        tripID: Int64, date: CivilDate, note: String, category: String?, paidWith: String?, currency: Currency, expression: String,
        inputs: AdjustmentInputs, breakdown: Breakdown, preset: String? = nil, purchaseRate: String? = nil, charged: Int64? = nil,
        conversion: Conversion, explicit: ExplicitFields? = nil, texts: PurchaseTexts = PurchaseTexts()
    ) {
        self.tripID = tripID
        self.date = date
        self.note = note
        self.category = category
        self.paidWith = paidWith
        self.currency = currency
        self.expression = expression
        self.inputs = inputs
        self.breakdown = breakdown
        self.preset = preset
        self.purchaseRate = purchaseRate
        self.charged = charged
        self.conversion = conversion
        self.explicit = explicit
        self.texts = texts
    }
}
