import Storage
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
    /// `trip add`'s words after the amount, as typed: `[OPERATOR NUMBER]… [CUR] [NOTE…]`. The
    /// ledger reads them (`EntryWords`), since a currency's name is read among the currencies
    /// the trip uses.
    public var words: [String] = []

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

extension PurchaseDraft {
    /// A note for each adjustment this draft gives as a plain number that reads as a percentage
    /// too (`--tip 15`), saying what it came to in `p` (`AdjustmentSpec.amountHint`).
    public func amountHints(_ p: Purchase) -> [String] {
        let adjustments: [(field: String, typed: String?, spec: AdjustmentSpec?, minor: Int64)] = [
            ("discount", self.discount, p.inputs.discount, p.breakdown.discount),
            ("service", self.service, p.inputs.service, p.breakdown.service),
            ("tax", self.tax, p.inputs.tax, p.breakdown.tax),
            ("tip", self.tip, p.inputs.tip, p.breakdown.tip),
        ]
        return adjustments.compactMap { a in
            guard a.typed != nil else { return nil }
            return a.spec?.amountHint(field: a.field, amount: Money(minorUnits: a.minor, currency: p.currency))
        }
    }
}
