import Storage
import TripCore
import TripModel

/// A purchase computed by its caller, for generating large ledgers (`TripBench`): no preset, no
/// `--rate` or `--charged`, converted as `conversion` says.
public struct GeneratedPurchase: Sendable {
    public var tripID: Int64
    public var date: CivilDate
    public var note: String
    public var category: String?
    public var paidWith: String?
    public var currency: Currency
    /// The amount as typed.
    public var expression: String
    public var inputs: AdjustmentInputs
    public var breakdown: Breakdown
    public var conversion: Conversion

    public init(
        tripID: Int64, date: CivilDate, note: String, category: String?, paidWith: String?, currency: Currency,
        expression: String, inputs: AdjustmentInputs, breakdown: Breakdown, conversion: Conversion
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
        self.conversion = conversion
    }
}

extension Ledger {
    /// Inserts `purchase` as it is, without `addPurchase`'s checks, rate lookup or id bookkeeping:
    /// for filling a new ledger fast, inside `inOneTransaction`. The row is written through
    /// `PurchaseRow`, so a generated ledger has every column a real one has.
    public func insertGenerated(_ purchase: GeneratedPurchase) throws {
        let row = PurchaseRow.generated(
            tripID: purchase.tripID, date: purchase.date, note: purchase.note, category: purchase.category,
            paidWith: purchase.paidWith, currency: purchase.currency, expression: purchase.expression,
            inputs: purchase.inputs, breakdown: purchase.breakdown, conversion: purchase.conversion)
        try purchaseStore.insert(row, id: nil, now: clock.now, createdAt: clock.now)
    }
}
