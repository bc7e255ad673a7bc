import TripCore

/// One purchase of a group trip: its stored amounts and the weights of its payers and sharers
/// (indices into the trip's members, in join order).
struct SplitRow {
    var id: Int64 = 0
    var category: String?
    var currency = ""
    var source: RateSource = .none
    var provisional = false
    var taxIncluded = false
    /// Home minor units; `nil` when the purchase has no rate.
    var home: Int64?
    var homeDiscount: Int64 = 0, homeService: Int64 = 0, homeTax: Int64 = 0, homeTip: Int64 = 0
    /// In `currency`'s minor units.
    var total: Int64 = 0
    var date = ""
    var paidWith: String?
    var payers: [(index: Int, weight: Rational)] = []
    var sharers: [(index: Int, weight: Rational)] = []

    /// The part of `amount` that goes to each of `parts`, exactly (largest remainder).
    static func divide(_ amount: Int64, among parts: [(index: Int, weight: Rational)]) -> [Int64] {
        guard !parts.isEmpty else { return [] }
        return (try? Allocation.largestRemainder(amount, weights: parts.map(\.weight))) ?? parts.map { _ in 0 }
    }
}

extension Ledger {
    /// Calls `body` with each purchase of `trip` dated within `from…to` (and in `currency`, if
    /// given), in id order, with its payers and sharers: one query, streamed. Purchases with no
    /// split (logged before the trip had members) come with empty `payers` and `sharers`.
    func scanSplits(trip: Trip, members: [Member], from: String = "0001-01-01", to: String = "9999-12-31",
                    currency: String? = nil, _ body: (SplitRow) throws -> Void) throws {
        let index = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.id, $0) })
        var weights: [String: Rational] = [:]
        var row = SplitRow()
        var started = false
        try db.prepare("""
            SELECT p.id, p.category, p.currency, p.rate_source, p.provisional, p.tax_included, p.home_minor,
                   p.home_discount_minor, p.home_service_minor, p.home_tax_minor, p.home_tip_minor, p.total_minor,
                   p.date, p.paid_with, pm.role, pm.member_id, pm.weight
            FROM purchases p LEFT JOIN purchase_members pm ON pm.purchase_id = p.id
            WHERE p.trip_id = ?1 AND p.date BETWEEN ?2 AND ?3 AND (?4 IS NULL OR p.currency = ?4)
            ORDER BY p.id, pm.role, pm.member_id
            """).forEach([.integer(trip.id), .text(from), .text(to), SQLValue(currency)]) { s in
            let id = s.int(0)
            if !started || id != row.id {
                if started { try body(row) }
                started = true
                row = SplitRow(id: id, category: s.optionalText(1), currency: s.text(2),
                               source: RateSource(rawValue: s.text(3)) ?? .none, provisional: s.int(4) == 1,
                               taxIncluded: s.int(5) == 1, home: s.optionalInt(6), homeDiscount: s.int(7),
                               homeService: s.int(8), homeTax: s.int(9), homeTip: s.int(10), total: s.int(11),
                               date: s.text(12), paidWith: s.optionalText(13))
            }
            guard let role = s.optionalText(14), let i = index[s.int(15)] else { return }
            let text = s.text(16)
            let w: Rational
            if let cached = weights[text] { w = cached } else {
                w = Rational(decimalText: text) ?? .zero
                weights[text] = w
            }
            if role == "payer" { row.payers.append((i, w)) } else { row.sharers.append((i, w)) }
        }
        if started { try body(row) }
    }
}
