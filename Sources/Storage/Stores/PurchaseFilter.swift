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
