import TripCore

/// A logged purchase: what was paid, in its own currency, its adjustments, and its conversion.
///
/// Its stored values are the `PurchaseValues` it was read as, read as its own fields
/// (`purchase.note`, `purchase.breakdown`); the ledger declares their columns once
/// (`PurchaseColumns`).
public struct Purchase: Sendable, Equatable {
    public let id: Int64
    public let tripName: String
    /// What `PurchaseBuilder` computed, as stored: the date, note, amounts, conversion, ….
    public let values: PurchaseValues
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

    public init(id: Int64, tripName: String, values: PurchaseValues, kind: PurchaseKind, refundOf: Int64?) {
        self.id = id
        self.tripName = tripName
        self.values = values
        self.kind = kind
        self.refundOf = refundOf
    }

    // Its stored values read as its own (`purchase.note`): names only, the values are
    // `values`'. Plain properties rather than `@dynamicMemberLookup`, whose key path reads copied
    // the whole `PurchaseValues` on every read (`trip export --format csv` ran 14% slower).
    @inlinable public var tripID: Int64 { values.tripID }
    @inlinable public var date: CivilDate { values.date }
    @inlinable public var note: String { values.note }
    @inlinable public var category: String? { values.category }
    @inlinable public var paidWith: String? { values.paidWith }
    @inlinable public var texts: PurchaseTexts { values.texts }
    @inlinable public var currency: Currency { values.currency }
    /// The amount as typed, e.g. `3*1200`.
    @inlinable public var expression: String { values.expression }
    @inlinable public var inputs: AdjustmentInputs { values.inputs }
    @inlinable public var breakdown: Breakdown { values.breakdown }
    @inlinable public var preset: String? { values.preset }
    /// `--rate` given on this purchase.
    @inlinable public var purchaseRate: String? { values.purchaseRate }
    /// `--charged`, in home minor units.
    @inlinable public var chargedMinor: Int64? { values.charged }
    @inlinable public var conversion: Conversion { values.conversion }
    /// The fields the user set by flag; `nil` when the row did not record them (before m0005, imported).
    @inlinable public var explicitFields: ExplicitFields? { values.explicit }

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
