import TripCore

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
