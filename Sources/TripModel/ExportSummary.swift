import TripCore

/// What an export wrote: its purchases and, per home currency, the sum of their home amounts.
///
/// `homeTotals` is the same sum as `TripReport.totals.net` (converted purchases only), so a test
/// or the journal's trailer can check one against the other.
public struct ExportSummary: Sendable, Equatable {
    public var purchases = 0
    /// Home currency code → home minor units.
    public var homeTotals: [String: Int64] = [:]
    /// Purchases with no rate: written in their own currency only, outside every home total.
    public var unconverted = 0

    public init() {}

    public mutating func add(_ p: Purchase) {
        purchases += 1
        if let home = p.signedHome {
            homeTotals[p.conversion.homeCurrency.code, default: 0] += home
        } else {
            unconverted += 1
        }
    }
}
