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

}

/// What `trip add` or `trip edit` was given, as typed. For `edit`, `nil` means "keep".
///
/// The purchase's own fields are `PurchaseBuilder`'s `PurchaseEntry`, read and written through
/// (`draft.amount`); a draft adds only what the ledger resolves: which trip, and what kind.
@dynamicMemberLookup
public struct PurchaseDraft: Sendable {
    public var entry: PurchaseEntry
    public var trip: String?
    /// `.credit` for `trip add … --refund` (money received with no purchase).
    public var kind: PurchaseKind

    public init(
        amount: String? = nil, currency: String? = nil, note: String? = nil, date: String? = nil,
        category: String? = nil, paidWith: String? = nil, discount: String? = nil, service: String? = nil,
        tax: String? = nil, taxIncluded: Bool? = nil, tip: String? = nil, preset: String? = nil,
        rounding: String? = nil, rate: String? = nil, charged: String? = nil, trip: String? = nil
    ) {
        self.entry = PurchaseEntry(
            amount: amount, currency: currency, note: note, date: date, category: category, paidWith: paidWith, discount: discount,
            service: service, tax: tax, taxIncluded: taxIncluded, tip: tip, preset: preset, rounding: rounding, rate: rate,
            charged: charged)
        self.trip = trip
        self.kind = .purchase
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<PurchaseEntry, Value>) -> Value {
        get { entry[keyPath: field] }
        set { entry[keyPath: field] = newValue }
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
