import TripCore

/// A trip's totals in its home currency, computed with SQL sums over per-purchase rounded home
/// amounts, so every line adds up to the total exactly.
///
/// gross = net + discounts − service − added tax − tip (per purchase, then summed); included tax is
/// shown as "of which" and not added. Unconverted purchases are counted but not in any home sum.
public struct TripReport: Sendable {
    public struct Totals: Sendable, Equatable {
        /// Home minor units.
        public var gross: Int64 = 0
        public var discounts: Int64 = 0
        public var service: Int64 = 0
        public var taxAdded: Int64 = 0
        public var taxIncluded: Int64 = 0
        public var tip: Int64 = 0
        public var net: Int64 = 0
    }

    public struct Line: Sendable, Equatable {
        public let key: String
        public let count: Int
        /// Home minor units (converted purchases only).
        public let home: Int64
        /// Original-currency minor units, for per-currency lines.
        public let original: Int64?
        /// Purchases in this line with no rate (counted in `count`, not in `home`).
        public var unconverted = 0
    }

    /// How many purchases, and how much, each kind of rate converted.
    public struct Provenance: Sendable, Equatable {
        public let source: RateSource
        public let provisional: Bool
        public let count: Int
        public let home: Int64
    }

    public let trip: Trip
    public let purchaseCount: Int
    public let totals: Totals
    public let byCategory: [Line]
    public let byCurrency: [Line]
    public let provenance: [Provenance]
    /// Purchases with no rate at all, per currency (original minor units).
    public let unconverted: [Line]
    public let provisionalCount: Int
    public let firstDate: CivilDate?
    public let lastDate: CivilDate?

    public var unconvertedCount: Int { unconverted.reduce(0) { $0 + $1.count } }
}

extension Ledger {
    /// `trip report [--trip NAME]`: one scan of the covering index `purchases_report`, grouped in
    /// index order, folded here into totals, categories, currencies and provenance.
    public func report(trip name: String?) throws -> TripReport {
        let trip = try resolveTrip(name)
        var totals = TripReport.Totals()
        var count = 0, provisional = 0
        var first: String?, last: String?
        var categories: [String: (Int, Int64, Int)] = [:]
        var currencies: [String: (Int, Int64, Int64, Int)] = [:]
        var unconverted: [String: (Int, Int64)] = [:]
        var provenance: [String: (RateSource, Bool, Int, Int64)] = [:]
        try db.prepare("""
            SELECT category, currency, rate_source, provisional, tax_included, count(*),
                   coalesce(sum(home_minor), 0), coalesce(sum(home_discount_minor), 0), coalesce(sum(home_service_minor), 0),
                   coalesce(sum(home_tax_minor), 0), coalesce(sum(home_tip_minor), 0), sum(total_minor),
                   min(date), max(date), sum(home_minor IS NULL), coalesce(sum(CASE WHEN home_minor IS NULL THEN total_minor END), 0)
            FROM purchases WHERE trip_id = ?
            GROUP BY category, currency, rate_source, provisional, tax_included
            """).forEach([.integer(trip.id)]) { s in
            let category = s.optionalText(0) ?? "uncategorized", currency = s.text(1)
            let n = Int(s.int(5)), home = s.int(6)
            count += n
            totals.net += home
            totals.discounts += s.int(7)
            totals.service += s.int(8)
            if s.int(4) == 1 { totals.taxIncluded += s.int(9) } else { totals.taxAdded += s.int(9) }
            totals.tip += s.int(10)
            if s.int(3) == 1 { provisional += n }
            first = min(first ?? s.text(12), s.text(12))
            last = max(last ?? s.text(13), s.text(13))
            categories[category, default: (0, 0, 0)].0 += n
            categories[category]!.1 += home
            categories[category]!.2 += Int(s.int(14))
            currencies[currency, default: (0, 0, 0, 0)].0 += n
            currencies[currency]!.1 += home
            currencies[currency]!.2 += s.int(11)
            currencies[currency]!.3 += Int(s.int(14))
            if s.int(14) > 0 {
                unconverted[currency, default: (0, 0)].0 += Int(s.int(14))
                unconverted[currency]!.1 += s.int(15)
            }
            let source = RateSource(rawValue: s.text(2)) ?? .none
            let key = "\(source.rawValue)|\(s.int(3))"
            provenance[key, default: (source, s.int(3) == 1, 0, 0)].2 += n
            provenance[key]!.3 += home
        }
        totals.gross = totals.net + totals.discounts - totals.service - totals.taxAdded - totals.tip
        let byAmount: (TripReport.Line, TripReport.Line) -> Bool = { ($0.home, $1.key) > ($1.home, $0.key) }
        return TripReport(
            trip: trip, purchaseCount: count, totals: totals,
            byCategory: categories.map {
                var line = TripReport.Line(key: $0.key, count: $0.value.0, home: $0.value.1, original: nil)
                line.unconverted = $0.value.2
                return line
            }.sorted(by: byAmount),
            byCurrency: currencies.map {
                var line = TripReport.Line(key: $0.key, count: $0.value.0, home: $0.value.1, original: $0.value.2)
                line.unconverted = $0.value.3
                return line
            }.sorted(by: byAmount),
            provenance: provenance.values.map { TripReport.Provenance(source: $0.0, provisional: $0.1, count: $0.2, home: $0.3) }
                .sorted { ($0.source.rawValue, $0.provisional ? 1 : 0) < ($1.source.rawValue, $1.provisional ? 1 : 0) },
            unconverted: unconverted.map { TripReport.Line(key: $0.key, count: $0.value.0, home: 0, original: $0.value.1) }
                .sorted { $0.key < $1.key },
            provisionalCount: provisional, firstDate: first.flatMap { CivilDate(iso: $0) },
            lastDate: last.flatMap { CivilDate(iso: $0) })
    }
}
