import TripCore

/// A logged purchase: what was paid, in its own currency, its adjustments, and its conversion.
public struct Purchase: Sendable, Equatable {
    public let id: Int64
    public let tripID: Int64
    public let tripName: String
    public let date: CivilDate
    public let note: String
    public let category: String?
    public let paidWith: String?
    public let currency: Currency
    /// The amount as typed, e.g. `3*1200`.
    public let expression: String
    public let inputs: AdjustmentInputs
    public let breakdown: Breakdown
    public let preset: String?
    /// `--rate` given on this purchase.
    public let purchaseRate: String?
    /// `--charged`, in home minor units.
    public let chargedMinor: Int64?
    public let conversion: Conversion
    /// The fields the user set by flag; `nil` when the row did not record them (before m0005, imported).
    public let explicitFields: ExplicitFields?
    /// A purchase, or money received: a refund (of `refundOf`) or a credit. Amounts above are
    /// non-negative either way; `kind.sign` says which way they count.
    public let kind: PurchaseKind
    /// The purchase a refund refunds.
    public let refundOf: Int64?

    /// `total` with its sign: negative for a refund or credit.
    public var signedTotal: Int64 { kind.sign * breakdown.total }
    /// `conversion.home` with its sign: negative for a refund or credit.
    public var signedHome: Int64? { conversion.home.map { kind.sign * $0 } }

    static let columns = """
        p.id, p.trip_id, t.name, p.date, p.note, p.category, p.paid_with, p.currency, p.expression, \
        p.price_minor, p.discount_spec, p.discount_minor, p.service_spec, p.service_minor, p.tax_spec, \
        p.tax_included, p.tax_minor, p.tip_spec, p.tip_minor, p.total_minor, p.rounding, p.preset, \
        p.purchase_rate, p.charged_minor, \(Conversion.storedColumns), p.explicit_fields, p.kind, p.refund_of
        """
    static let from = "FROM purchases p JOIN trips t ON t.id = p.trip_id"

    init(row s: Statement) {
        func spec(_ i: Int32) -> AdjustmentSpec? {
            s.optionalText(i).flatMap { try? AdjustmentSpec.parse($0, field: "stored") }
        }
        id = s.int(0)
        tripID = s.int(1)
        tripName = s.text(2)
        date = CivilDate(iso: s.text(3)) ?? CivilDate(year: 1970, month: 1, day: 1)!
        note = s.text(4)
        category = s.optionalText(5)
        paidWith = s.optionalText(6)
        currency = .stored(s.text(7))
        expression = s.text(8)
        let rounding = RoundingMode(rawValue: s.text(20)) ?? .halfUp
        inputs = AdjustmentInputs(
            discount: spec(10), service: spec(12), tax: spec(14), taxIncluded: s.int(15) == 1,
            tip: spec(17), rounding: rounding)
        breakdown = Breakdown(
            price: s.int(9), discount: s.int(11), subtotal: s.int(9) - s.int(11), service: s.int(13),
            tax: s.int(16), taxIncluded: s.int(15) == 1, tip: s.int(18), total: s.int(19))
        preset = s.optionalText(21)
        purchaseRate = s.optionalText(22)
        chargedMinor = s.optionalInt(23)
        conversion = Conversion(stored: s, at: 24)
        explicitFields = s.optionalText(36).map(ExplicitFields.init(stored:))
        kind = PurchaseKind(rawValue: s.text(37)) ?? .purchase
        refundOf = s.optionalInt(38)
    }
}

/// What `trip add` or `trip edit` was given, as typed. For `edit`, `nil` means "keep".
public struct PurchaseDraft: Sendable {
    public var amount: String?
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
    public var preset: String?
    public var rounding: String?
    public var rate: String?
    public var charged: String?
    public var trip: String?
    /// `.credit` for `trip add … --refund` (money received with no purchase).
    public var kind: PurchaseKind = .purchase

    public init(
        amount: String? = nil, currency: String? = nil, note: String? = nil, date: String? = nil,
        category: String? = nil, paidWith: String? = nil, discount: String? = nil, service: String? = nil,
        tax: String? = nil, taxIncluded: Bool? = nil, tip: String? = nil, preset: String? = nil,
        rounding: String? = nil, rate: String? = nil, charged: String? = nil, trip: String? = nil
    ) {
        self.amount = amount
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
        self.trip = trip
    }
}

/// Filters of `trip list`.
public struct PurchaseFilter: Sendable {
    public var trip: String?
    public var since: String?
    public var until: String?
    public var category: String?
    /// Keep only the last `limit` purchases in date-then-id order (the most recent ones).
    public var limit: Int?
    /// Newest first (date, then id, descending) instead of oldest first.
    public var reverse: Bool

    public init(
        trip: String? = nil, since: String? = nil, until: String? = nil, category: String? = nil,
        limit: Int? = nil, reverse: Bool = false
    ) {
        self.trip = trip
        self.since = since
        self.until = until
        self.category = category
        self.limit = limit
        self.reverse = reverse
    }
}
