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
    /// On a shared trip, the shared id (`p-7kq4x`, `SharedID`) that `trip edit`, `rm` and
    /// `restore` show; `nil` elsewhere, before the purchase's first sync, and where not read.
    public var sharedID: String?
    /// On a shared trip, the shared id of the purchase a refund refunds (`refundOf` differs from
    /// device to device); `nil` where `sharedID` would be.
    public var refundOfSharedID: String?

    public init(
        id: Int64, tripID: Int64, tripName: String, date: CivilDate, note: String, category: String?, paidWith: String?, currency: Currency,
        expression: String, inputs: AdjustmentInputs, breakdown: Breakdown, preset: String?, purchaseRate: String?, chargedMinor: Int64?,
        conversion: Conversion, explicitFields: ExplicitFields?, kind: PurchaseKind, refundOf: Int64?
    ) {
        self.id = id
        self.tripID = tripID
        self.tripName = tripName
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
        self.chargedMinor = chargedMinor
        self.conversion = conversion
        self.explicitFields = explicitFields
        self.kind = kind
        self.refundOf = refundOf
    }

    /// `total` with its sign: negative for a refund or credit.
    public var signedTotal: Int64 { kind.sign * breakdown.total }
    /// `conversion.home` with its sign: negative for a refund or credit.
    public var signedHome: Int64? { conversion.home.map { kind.sign * $0 } }

}

/// Which way a row of `purchases` moves money: spent, or received back.
///
/// Amounts are stored non-negative; the kind gives the sign every sum applies (`sign`; in SQL,
/// `(CASE kind WHEN 'purchase' THEN 1 ELSE -1 END)`). The raw values are the ledger's `kind` column, the CSV
/// `kind` column and the JSON `kind` key.
public enum PurchaseKind: String, Sendable, CaseIterable {
    /// Money spent (`trip add`).
    case purchase
    /// Money back for a purchase (`trip refund ID`): linked to it, at most what remains of it.
    case refund
    /// Money received with no purchase (`trip add … --refund`, a negative statement line).
    case credit

    /// +1 for a purchase, −1 for money received.
    public var sign: Int64 { self == .purchase ? 1 : -1 }

    /// Whether this row is money coming back (a refund or a credit).
    public var isMoneyBack: Bool { self != .purchase }
}
