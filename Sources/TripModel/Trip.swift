import TripCore

/// A trip: a named set of purchases with a local currency (the default for `trip add`) and a home
/// currency that its report totals in.
public struct Trip: Sendable, Equatable {
    public let id: Int64
    public let name: String
    public let localCurrency: Currency?
    public let homeCurrency: Currency
    public let start: CivilDate?
    public let end: CivilDate?
    /// The default presets, at most one per currency (stored comma-separated in `trips.preset`).
    public let presets: [String]
    /// The first default preset (the `preset` of the JSON contract from before per-currency presets).
    public var preset: String? { presets.first }
    /// Minor units of `homeCurrency`.
    public let budgetMinor: Int64?
    public let createdAt: String
    public let closedAt: String?

    public init(
        id: Int64, name: String, localCurrency: Currency?, homeCurrency: Currency, start: CivilDate?, end: CivilDate?, presets: [String],
        budgetMinor: Int64?, createdAt: String, closedAt: String?
    ) {
        self.id = id
        self.name = name
        self.localCurrency = localCurrency
        self.homeCurrency = homeCurrency
        self.start = start
        self.end = end
        self.presets = presets
        self.budgetMinor = budgetMinor
        self.createdAt = createdAt
        self.closedAt = closedAt
    }
}
