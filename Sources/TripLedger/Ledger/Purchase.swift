import TripCore
import TripModel

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
