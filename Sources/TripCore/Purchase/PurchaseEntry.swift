/// What `trip add`, `trip edit` or an import row gave for one purchase, as typed.
///
/// `nil` means "not given": on `add` the preset or the settings decide, on `edit` the purchase
/// keeps what it had (`PriorPurchase`). An empty or `none` spec, rate or charged amount clears it.
public struct PurchaseEntry: Sendable {
    /// The amount expression (`3*1200`); `nil` on edit keeps the purchase's.
    public var amount: String?
    /// `amount` already evaluated by the caller (an export row's `price`, checked against its
    /// expression), kept instead of evaluating `amount` again.
    public var price: Int64?
    public var currency: String?
    public var note: String?
    public var date: String?
    public var category: String?
    public var paidWith: String?
    public var discount: String?
    public var service: String?
    public var tax: String?
    public var taxIncluded: Bool?
    public var tip: String?
    /// A preset name, or `none` for no preset.
    public var preset: String?
    public var rounding: String?
    /// `--rate`: units of home per unit of the purchase currency.
    public var rate: String?
    /// `--charged`: what the card charged, in the home currency.
    public var charged: String?
    /// Values of `PurchaseTextFields.all` by key, as typed; an empty one clears the stored value,
    /// one not given keeps it on edit.
    public var texts: [String: String] = [:]

    public init(
        amount: String? = nil, price: Int64? = nil, currency: String? = nil, note: String? = nil,
        date: String? = nil, category: String? = nil, paidWith: String? = nil, discount: String? = nil,
        service: String? = nil, tax: String? = nil, taxIncluded: Bool? = nil, tip: String? = nil,
        preset: String? = nil, rounding: String? = nil, rate: String? = nil, charged: String? = nil
    ) {
        self.amount = amount
        self.price = price
        self.currency = currency
        self.note = note
        self.date = date
        self.category = category
        self.paidWith = paidWith
        self.discount = discount
        self.service = service
        self.tax = tax
        self.taxIncluded = taxIncluded
        self.tip = tip
        self.preset = preset
        self.rounding = rounding
        self.rate = rate
        self.charged = charged
    }
}

/// A conversion as an export file recorded it: its quote (`nil`: unconverted) and, for
/// `rate_source` charged, the charged amount in home minor units.
public struct RecordedConversion: Sendable, Equatable {
    public let quote: RateQuote?
    public let charged: Int64?

    public init(quote: RateQuote?, charged: Int64?) {
        self.quote = quote
        self.charged = charged
    }
}
