import Storage
import TripCore
import TripModel

/// The options of `trip report`.
public struct ReportQuery: Sendable {
    public var trip: String?
    public var by: ReportGrouping
    public var since: String?
    public var until: String?
    /// Re-express in this currency with each purchase's own date's rates; stored data is unchanged.
    public var home: String?
    public var lines: Bool
    /// `--member NAME`: that member's own report, built from their shares (group trips).
    public var member: String?

    public init(
        trip: String? = nil, by: ReportGrouping = .category, since: String? = nil, until: String? = nil,
        home: String? = nil, lines: Bool = false, member: String? = nil
    ) {
        self.member = member
        self.trip = trip
        self.by = by
        self.since = since
        self.until = until
        self.home = home
        self.lines = lines
    }
}

/// One group of purchases sharing the report's keys, with summed amounts. SQL produces these for
/// the stored conversions; `--home` produces one per purchase.
struct ReportRow {
    var category: String
    var currency: String
    var source: RateSource
    var provisional: Bool
    var taxIncluded: Bool
    var count: Int
    var home: Int64, discount: Int64, service: Int64, tax: Int64, tip: Int64
    /// In `currency`'s minor units.
    var total: Int64
    /// Money back in `home` (positive), and how many rows of it (refunds and credits).
    var refunds: Int64 = 0
    var refundCount = 0
    var unconverted: Int
    var unconvertedTotal: Int64
    var first: String, last: String
    /// Only per purchase (`--home`).
    var date: String?
    var payment: String?
    /// The purchase, for rows of one purchase (`--home`).
    var id: Int64 = 0
    /// The currency a re-expressed purchase's cross rate went through (`--home`).
    var via: String?
}

extension Ledger {
    /// `trip report` for the current trip (or `name`) with the default options.
    public func report(trip name: String?) throws -> TripReport {
        try report(ReportQuery(trip: name))
    }

    /// `trip report` with options. With the trip's own home currency this is one scan of the
    /// covering index `purchases_report` (grouped in index order) plus a per-day query; `--home`
    /// instead converts each purchase again with `RateResolver`, changing nothing stored.
    public func report(_ query: ReportQuery) throws -> TripReport {
        try reports(trips: [try resolveTrip(query.trip)], query).first!
    }

    /// `trip report --all`: every trip, each in its own home currency (or `--home`).
    public func reportAll(_ query: ReportQuery) throws -> [TripReport] {
        var trips = try trips()
        if let name = query.member {
            // A member's own report across trips: those where someone of that name is a member.
            trips = try trips.filter { SplitSpec.memberIndex(name, in: try members(of: $0).map(\.name)) != nil }
            if trips.isEmpty {
                throw TripError.badTextValue(field: "member", value: name, reason: "is not a member of any trip")
            }
        }
        return try reports(trips: trips, query)
    }

    func reports(trips: [Trip], _ q: ReportQuery) throws -> [TripReport] {
        do {
            return try unguardedReports(trips: trips, q)
        } catch let error as SQLiteError where error.isIntegerOverflow {
            // Only an amount beyond `PurchaseBound`, written by hand, can overflow the sums: name it.
            for trip in trips {
                if let bad = try purchaseStore.firstAmountBeyondBound(trip: trip.id) {
                    throw TripError.badStoredValue(
                        row: "purchase #\(bad.id)", field: bad.field, value: String(bad.value),
                        reason: "is beyond the largest amount a purchase holds (\(PurchaseBound.maxMinorUnits) minor units)")
                }
            }
            throw error
        }
    }

    private func unguardedReports(trips: [Trip], _ q: ReportQuery) throws -> [TripReport] {
        let (since, until) = try clock.range(since: q.since, until: q.until)
        let from = since?.description ?? "0001-01-01", to = until?.description ?? "9999-12-31"
        let range: [SQLValue] = [.text(from), .text(to)]
        let target = try q.home.map { try CurrencyTable.shared.currency(for: $0) }
        var out: [TripReport] = []
        var grouped: [Int64: [ReportRow]] = [:]
        let sqlPath = trips.filter { target == nil || target == $0.homeCurrency }
        if !sqlPath.isEmpty {
            // One scan: of one trip's index entries, or (`--all`) of the whole index once.
            try purchaseStore.forEachReportGroup(trip: trips.count == 1 ? trips[0].id : nil, from: from, to: to) { row in
                grouped[row.int(.tripID), default: []].append(
                    ReportRow(
                        category: row.optionalText(.category) ?? "uncategorized", currency: row.text(.currency),
                        source: RateSource(rawValue: row.text(.rateSource)) ?? .none, provisional: row.int(.provisional) == 1,
                        taxIncluded: row.int(.taxIncluded) == 1, count: Int(row.int(.rows)), home: row.int(.home),
                        discount: row.int(.discount), service: row.int(.service), tax: row.int(.tax), tip: row.int(.tip),
                        total: row.int(.total), refunds: row.int(.refunds), refundCount: Int(row.int(.refundCount)),
                        unconverted: Int(row.int(.unconverted)), unconvertedTotal: row.int(.unconvertedTotal),
                        first: row.text(.first), last: row.text(.last)))
            }
        }
        for trip in trips {
            var r: TripReport
            if let member = q.member {
                // `--home`: each purchase converted again, then divided like its split.
                let reexpress = target.flatMap { $0 == trip.homeCurrency ? nil : $0 }
                let converted = try reexpress.map { c in
                    Dictionary(uniqueKeysWithValues: try reexpressedRows(trip: trip, in: c, range: range).map { ($0.id, $0) })
                }
                let (rows, lines) = try memberRows(
                    trip: trip, member: member, from: from, to: to, reexpressed: converted,
                    home: reexpress ?? trip.homeCurrency)
                r = TripReport.fold(trip: trip, rows: rows, home: reexpress ?? trip.homeCurrency)
                r.reexpressed = reexpress != nil
                if q.lines { r.memberLines = lines }
                r.member = try Ledger.member(member, in: try members(of: trip), trip: trip).name
                r.byDay = TripReport.lines(rows, key: { $0.date ?? "" }).sorted { $0.key < $1.key }
                if q.by == .payment { r.groups = TripReport.lines(rows, key: { $0.payment ?? "unspecified" }) }
            } else if let target, target != trip.homeCurrency {
                let rows = try reexpressedRows(trip: trip, in: target, range: range)
                r = TripReport.fold(trip: trip, rows: rows, home: target)
                r.reexpressed = true
                r.byDay = TripReport.lines(rows, key: { $0.date ?? "" }).sorted { $0.key < $1.key }
                if q.by == .payment { r.groups = TripReport.lines(rows, key: { $0.payment ?? "unspecified" }) }
            } else {
                r = TripReport.fold(trip: trip, rows: grouped[trip.id] ?? [], home: trip.homeCurrency)
                if trips.count == 1 || q.by == .day { r.byDay = try dayLines(trip: trip, range: range) }
                if q.by == .payment { r.groups = try paymentLines(trip: trip, range: range) }
            }
            r.byDay = TripReport.everyDay(r.byDay)
            r.grouping = q.by
            r.since = since
            r.until = until
            switch q.by {
            case .category: r.groups = r.byCategory
            case .currency: r.groups = r.byCurrency
            case .day: r.groups = r.byDay
            case .payment: break
            case .member: r.groups = try memberLines(trip: trip, from: from, to: to)
            case .none: r.groups = []
            }
            r.days = TripReport.dayCount(trip: trip, first: r.firstDate, last: r.lastDate, today: clock.today)
            r.averagePerDay =
                r.days == 0 ? 0 : ((try? Rational(Int128(r.totals.net), Int128(r.days)))?.rounded(.halfUp)).flatMap { Int64(exactly: $0) } ?? 0
            if let amount = trip.budgetMinor, !r.reexpressed, r.member == nil {
                r.budget = TripReport.budget(trip: trip, amount: amount, spent: r.totals.net, today: clock.today)
            }
            if q.lines && r.member == nil {
                r.lines = try purchases(PurchaseFilter(trip: trip.name, since: since?.description, until: until?.description)).purchases
            }
            out.append(r)
        }
        return out
    }

    func dayLines(trip: Trip, range: [SQLValue]) throws -> [TripReport.Line] {
        try purchaseStore.dayLines(trip: trip.id, range: range)
    }

    func paymentLines(trip: Trip, range: [SQLValue]) throws -> [TripReport.Line] {
        try purchaseStore.paymentLines(trip: trip.id, range: range).sorted { ($0.home, $1.key) > ($1.home, $0.key) }
    }

    /// Each purchase converted again into `target` at the rate of its own date (manual, cache,
    /// fallback; the same rules as when it was logged). `--charged` does not apply: it is an
    /// amount in the trip's home currency.
    func reexpressedRows(trip: Trip, in target: Currency, range: [SQLValue]) throws -> [ReportRow] {
        let resolver = RateResolver(ledger: self, scope: try rateScope(trip: trip.id))
        var routes: [String: RateRoute?] = [:]
        var rows: [ReportRow] = []
        try purchaseStore.forEachReexpressRow(trip: trip.id, range: range) { p, more in
            let key = "\(p.currency.code)@\(p.date)"
            let route: RateRoute?
            if let cached = routes[key] {
                route = cached
            } else {
                route = try resolver.route(from: p.currency, to: target, on: p.date)
                routes[key] = route
            }
            let quote = route?.quote
            let c = try Conversion.make(
                breakdown: p.breakdown, from: p.currency, to: target, quote: quote,
                rounding: settings.rounding.value)
            let b = p.breakdown, converted = c.home != nil
            let kind = p.kind, sign = kind.sign
            rows.append(
                ReportRow(
                    category: more.optionalText(.category) ?? "uncategorized", currency: p.currency.code, source: c.source,
                    provisional: c.provisional, taxIncluded: b.taxIncluded, count: 1, home: sign * (c.home ?? 0),
                    discount: sign * (c.homeDiscount ?? 0), service: sign * (c.homeService ?? 0), tax: sign * (c.homeTax ?? 0),
                    tip: sign * (c.homeTip ?? 0), total: sign * b.total, refunds: kind.isMoneyBack ? c.home ?? 0 : 0,
                    refundCount: kind.isMoneyBack ? 1 : 0, unconverted: converted ? 0 : 1, unconvertedTotal: converted ? 0 : sign * b.total,
                    first: p.date.description, last: p.date.description, date: p.date.description, payment: more.optionalText(.paidWith),
                    id: p.id, via: route?.via))
        }
        return rows
    }
}

extension TripReport {
    /// Folds grouped rows into totals, categories, currencies and provenance.
    static func fold(trip: Trip, rows: [ReportRow], home: Currency) -> TripReport {
        var totals = Totals()
        var count = 0, provisional = 0, refundCount = 0
        var first: String?, last: String?
        var provenance: [String: (RateSource, Bool, Int, Int64, String?)] = [:]
        var unconverted: [String: (Int, Int64)] = [:]
        for row in rows {
            count += row.count - row.refundCount
            refundCount += row.refundCount
            totals.refunds += row.refunds
            totals.net += row.home
            totals.discounts += row.discount
            totals.service += row.service
            if row.taxIncluded { totals.taxIncluded += row.tax } else { totals.taxAdded += row.tax }
            totals.tip += row.tip
            if row.provisional { provisional += row.count }
            first = min(first ?? row.first, row.first)
            last = max(last ?? row.last, row.last)
            let key = "\(row.source.rawValue)|\(row.provisional)|\(row.via ?? "")"
            provenance[key, default: (row.source, row.provisional, 0, 0, row.via)].2 += row.count
            provenance[key]!.3 += row.home
            if row.unconverted > 0 {
                unconverted[row.currency, default: (0, 0)].0 += row.unconverted
                unconverted[row.currency]!.1 += row.unconvertedTotal
            }
        }
        // Gross is what was spent before refunds, so gross − discounts + … − refunds = net exactly.
        totals.gross = totals.net + totals.refunds + totals.discounts - totals.service - totals.taxAdded - totals.tip
        var r = TripReport(
            trip: trip, purchaseCount: count, totals: totals,
            byCategory: lines(rows, key: \.category),
            byCurrency: lines(rows, key: \.currency, original: true),
            provenance: provenance.values.map { Provenance(source: $0.0, provisional: $0.1, count: $0.2, home: $0.3, via: $0.4) }
                .sorted {
                    ($0.source.rawValue, $0.provisional ? 1 : 0, $0.via ?? "") < ($1.source.rawValue, $1.provisional ? 1 : 0, $1.via ?? "")
                },
            unconverted: unconverted.map { Line(key: $0.key, count: $0.value.0, home: 0, original: $0.value.1) }
                .sorted { $0.key < $1.key },
            provisionalCount: provisional, firstDate: first.flatMap { CivilDate(iso: $0) },
            lastDate: last.flatMap { CivilDate(iso: $0) })
        r.home = home
        r.refundCount = refundCount
        return r
    }

    /// Rows summed by `key`, largest home amount first.
    static func lines(_ rows: [ReportRow], key: (ReportRow) -> String, original: Bool = false) -> [Line] {
        var acc: [String: (Int, Int64, Int64, Int)] = [:]
        for row in rows {
            let k = key(row)
            acc[k, default: (0, 0, 0, 0)].0 += row.count
            acc[k]!.1 += row.home
            acc[k]!.2 += row.total
            acc[k]!.3 += row.unconverted
        }
        return acc.map { k, v in
            var line = Line(key: k, count: v.0, home: v.1, original: original ? v.2 : nil)
            line.unconverted = v.3
            return line
        }.sorted { ($0.home, $1.key) > ($1.home, $0.key) }
    }

    /// `days` with the dates that had no purchase filled in as zero lines, so a chart's spacing is
    /// calendar time. Ranges over a year are left as they are.
    static func everyDay(_ days: [Line]) -> [Line] {
        guard let first = days.first.flatMap({ CivilDate(iso: $0.key) }), let last = days.last.flatMap({ CivilDate(iso: $0.key) }),
            last.daysSinceEpoch - first.daysSinceEpoch < 366
        else { return days }
        var byKey: [String: Line] = [:]
        for d in days { byKey[d.key] = d }
        return (first.daysSinceEpoch...last.daysSinceEpoch).compactMap { CivilDate(daysSinceEpoch: $0) }.map {
            byKey[$0.description] ?? Line(key: $0.description, count: 0, home: 0, original: nil)
        }
    }

    static func dayCount(trip: Trip, first: CivilDate?, last: CivilDate?, today: CivilDate) -> Int {
        if let start = trip.start {
            let end = min(trip.end ?? today, today)
            return max(1, end.daysSinceEpoch - start.daysSinceEpoch + 1)
        }
        guard let first, let last else { return 0 }
        return last.daysSinceEpoch - first.daysSinceEpoch + 1
    }

    static func budget(trip: Trip, amount: Int64, spent: Int64, today: CivilDate) -> Budget {
        var daysLeft: Int?
        if let end = trip.end {
            let from = max(today, trip.start ?? today)
            daysLeft = max(0, end.daysSinceEpoch - from.daysSinceEpoch + 1)
        }
        let allowance = daysLeft.flatMap { days -> Int64? in
            guard days > 0, let r = try? Rational(Int128(amount - spent), Int128(days)) else { return nil }
            return Int64(exactly: r.rounded(.floor))
        }
        return Budget(amount: amount, spent: spent, daysLeft: daysLeft, dailyAllowance: allowance)
    }
}
