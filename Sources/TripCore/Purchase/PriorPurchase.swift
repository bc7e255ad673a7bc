/// What an edited purchase inherits: the values it had before the edit.
public struct PriorPurchase: Sendable {
    /// The trip it was on.
    public let trip: PurchaseTrip
    public let currency: Currency
    public let expression: String
    public let inputs: AdjustmentInputs
    public let preset: String?
    /// As recorded; `nil` for a row that did not record them (before m0005, or imported).
    public let recordedExplicitFields: ExplicitFields?
    public let date: CivilDate
    public let note: String
    public let category: String?
    public let paidWith: String?
    public let purchaseRate: String?
    /// In home minor units.
    public let charged: Int64?
    public let texts: PurchaseTexts

    public init(
        trip: PurchaseTrip, currency: Currency, expression: String, inputs: AdjustmentInputs, preset: String?,
        recordedExplicitFields: ExplicitFields?, date: CivilDate, note: String, category: String?, paidWith: String?,
        purchaseRate: String?, charged: Int64?, texts: PurchaseTexts = PurchaseTexts()
    ) {
        self.trip = trip
        self.currency = currency
        self.expression = expression
        self.inputs = inputs
        self.preset = preset
        self.recordedExplicitFields = recordedExplicitFields
        self.date = date
        self.note = note
        self.category = category
        self.paidWith = paidWith
        self.purchaseRate = purchaseRate
        self.charged = charged
        self.texts = texts
    }

    /// The fields the user set by flag. A row that did not record them counts a field as explicit
    /// when its value differs from what its preset gives, and its preset as explicit when it is not
    /// its trip's default for its currency.
    public func explicitFields(settings: Settings) -> ExplicitFields {
        if let recordedExplicitFields { return recordedExplicitFields }
        let preset = self.preset.flatMap { try? settings.preset(named: $0) }
        var e: ExplicitFields = []
        if inputs.discount != nil { e.insert(.discount) }
        if inputs.service != preset?.service { e.insert(.service) }
        if inputs.tax != preset?.tax { e.insert(.tax) }
        if inputs.taxIncluded != (preset?.taxIncluded ?? false) { e.insert(.taxIncluded) }
        if inputs.tip != preset?.tip { e.insert(.tip) }
        if let r = preset?.rounding, r != inputs.rounding { e.insert(.rounding) }
        if self.preset != trip.defaultPreset(for: currency, settings: settings) { e.insert(.preset) }
        return e
    }
}
