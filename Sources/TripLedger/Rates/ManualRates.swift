import TripCore

/// A rate the user set by hand: 1 `base` = `rate` `quote`, from `date` on.
public struct ManualRate: Sendable, Equatable {
    public let base: Currency
    public let quote: Currency
    public let date: CivilDate
    public let rate: String
    /// 1 `quote` = `inverse` `base`, to 12 significant digits (shown because people enter rates
    /// the wrong way round).
    public var inverse: String { RateResolver.inverse(rate) }

    /// The columns of `manual_rates` a manual rate is read from.
    enum Column: Int32, ColumnList {
        case base, quote, date, rate

        var sql: StaticString {
            switch self {
            case .base: "base"
            case .quote: "quote"
            case .date: "date"
            case .rate: "rate"
            }
        }
    }
}

/// The part of a purchase that re-rating (and re-expressing a report) reads.
struct RerateRow {
    let id: Int64
    let currency: Currency
    let date: CivilDate
    let breakdown: Breakdown
    let conversion: Conversion
    let kind: PurchaseKind

    static let columns = Column.sqlList

    /// The result columns of `columns`, in order.
    enum Column: Int32, ColumnList, BreakdownColumns, ConversionColumns {
        case id, currency, date, price, discount, service, tax, taxIncluded, tip, total
        case homeCurrency, home, homeDiscount, homeService, homeTax, homeTip, rate, rateDate, rateSource, rateProvider
        case rateFetchedAt, provisional, kind

        var sql: StaticString {
            switch self {
            case .id: "p.id"
            case .currency: "p.currency"
            case .date: "p.date"
            case .price: "p.price_minor"
            case .discount: "p.discount_minor"
            case .service: "p.service_minor"
            case .tax: "p.tax_minor"
            case .taxIncluded: "p.tax_included"
            case .tip: "p.tip_minor"
            case .total: "p.total_minor"
            case .homeCurrency: "p.home_currency"
            case .home: "p.home_minor"
            case .homeDiscount: "p.home_discount_minor"
            case .homeService: "p.home_service_minor"
            case .homeTax: "p.home_tax_minor"
            case .homeTip: "p.home_tip_minor"
            case .rate: "p.rate"
            case .rateDate: "p.rate_date"
            case .rateSource: "p.rate_source"
            case .rateProvider: "p.rate_provider"
            case .rateFetchedAt: "p.rate_fetched_at"
            case .provisional: "p.provisional"
            case .kind: "p.kind"
            }
        }
    }

    init(row: ResultRow<Column>) {
        id = row.int(.id)
        currency = .stored(row.text(.currency))
        date = CivilDate(iso: row.text(.date)) ?? CivilDate(year: 1970, month: 1, day: 1)!
        breakdown = Breakdown(stored: row)
        conversion = Conversion(stored: row)
        kind = PurchaseKind(rawValue: row.text(.kind)) ?? .purchase
    }
}

/// The columns of `purchases` that re-rating rewrites: the stored conversion but its home currency
/// (which a new rate does not change), and the update time.
enum RerateUpdateColumn: Int32, ColumnList {
    case home, homeDiscount, homeService, homeTax, homeTip, rate, rateDate, rateSource, rateProvider, rateFetchedAt
    case provisional, updatedAt

    var sql: StaticString {
        switch self {
        case .home: "home_minor"
        case .homeDiscount: "home_discount_minor"
        case .homeService: "home_service_minor"
        case .homeTax: "home_tax_minor"
        case .homeTip: "home_tip_minor"
        case .rate: "rate"
        case .rateDate: "rate_date"
        case .rateSource: "rate_source"
        case .rateProvider: "rate_provider"
        case .rateFetchedAt: "rate_fetched_at"
        case .provisional: "provisional"
        case .updatedAt: "updated_at"
        }
    }
}

/// What a re-rating changed.
public struct RerateSummary: Sendable, Equatable {
    /// Purchases whose conversion changed.
    public var changed = 0
    /// Sum of (new − old) home amounts, per home currency code, in minor units.
    public var delta: [String: Int64] = [:]
    /// Purchases still provisional or unconverted afterwards.
    public var remainingProvisional = 0
    /// Per purchase currency: why it stays provisional ("fallback table", "no rate").
    public var reasons: [String: String] = [:]

    public init() {}
}

extension Ledger {
    /// `trip rates set CUR RATE [--in CUR] [--date D]`; then re-rates what the new rate affects.
    public func setManualRate(currency: String, rate: String, in quoteText: String?, date: String?) throws -> (ManualRate, RerateSummary) {
        let base = try CurrencyTable.shared.currency(for: currency)
        let quote =
            try quoteText.map { q throws(TripError) in try CurrencyTable.shared.currency(for: q) }
            ?? (try currentTrip()?.homeCurrency) ?? defaultHome().currency
        guard base != quote else {
            throw TripError.badRate(field: "currency", value: currency, reason: "is the same as --in \(quote.code); a rate needs two currencies")
        }
        let text = try Ledger.validateRate(rate, field: "rate")
        let day = try date.map { d throws(TripError) in try clock.date(d, field: "date") } ?? clock.today
        return try db.transaction {
            // Its version (m0013): a rate set here after one received from another device is later.
            let version = try tick()
            try db.run(
                """
                INSERT INTO manual_rates (base, quote, date, rate, created_at, hlc, device) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (base, quote, date) DO UPDATE SET
                  rate = excluded.rate, created_at = excluded.created_at, hlc = excluded.hlc, device = excluded.device
                """,
                [
                    .text(base.code), .text(quote.code), .text(day.description), .text(text), .text(clock.now), .integer(version),
                    .text(try deviceID()),
                ])
            // An older entry for the inverse pair on the same day would be ambiguous: the new one wins.
            try db.run(
                "DELETE FROM manual_rates WHERE base = ? AND quote = ? AND date = ?",
                [.text(quote.code), .text(base.code), .text(day.description)])
            let summary = try rerate(currencies: [base.code, quote.code])
            return (ManualRate(base: base, quote: quote, date: day, rate: text), summary)
        }
    }

    /// `trip rates show`: every manual rate, by pair then date.
    public func manualRates() throws -> [ManualRate] {
        var out: [ManualRate] = []
        try db.prepare("SELECT \(ManualRate.Column.sqlList) FROM manual_rates ORDER BY base, quote, date").forEach { statement in
            let s = ResultRow<ManualRate.Column>(statement)
            guard let b = CurrencyTable.shared.lookup(s.text(.base)), let q = CurrencyTable.shared.lookup(s.text(.quote)),
                let d = CivilDate(iso: s.text(.date))
            else { return }
            out.append(ManualRate(base: b, quote: q, date: d, rate: s.text(.rate)))
        }
        return out
    }

    /// A manual rate as it travels: the rate, when it was set, and the version of that write.
    struct ManualRateVersion {
        let rate: ManualRate
        let createdAt: String
        let hlc: Int64
        let device: String

        enum Column: Int32, ColumnList {
            case createdAt, hlc, device

            var sql: StaticString {
                switch self {
                case .createdAt: "created_at"
                case .hlc: "hlc"
                case .device: "device"
                }
            }
        }
    }

    /// The manual rates in or into a currency of trip `tripID` (its home, its purchases', its
    /// transfers'), with their versions: what a shared trip sends.
    func manualRates(touchingTrip tripID: Int64) throws -> [ManualRateVersion] {
        var out: [ManualRateVersion] = []
        try db.prepare(
            """
            WITH currencies (code) AS (
              SELECT home_currency FROM trips WHERE id = ?1
              UNION SELECT currency FROM purchases WHERE trip_id = ?1
              UNION SELECT currency FROM transfers WHERE trip_id = ?1)
            SELECT \(ManualRate.Column.sqlList), \(ManualRateVersion.Column.sqlList) FROM manual_rates
            WHERE base IN (SELECT code FROM currencies) OR quote IN (SELECT code FROM currencies)
            ORDER BY base, quote, date
            """
        ).forEach([.integer(tripID)]) { statement in
            let s = ResultRow<ManualRate.Column>(statement)
            let v = ResultRow<ManualRateVersion.Column>(statement, base: ManualRate.Column.count)
            guard let b = CurrencyTable.shared.lookup(s.text(.base)), let q = CurrencyTable.shared.lookup(s.text(.quote)),
                let d = CivilDate(iso: s.text(.date))
            else { return }
            out.append(
                ManualRateVersion(
                    rate: ManualRate(base: b, quote: q, date: d, rate: s.text(.rate)), createdAt: v.text(.createdAt), hlc: v.int(.hlc),
                    device: v.text(.device)))
        }
        return out
    }

    /// A manual rate set on another device: kept when it is the latest set for its pair (either
    /// way round) on its day, as `setManualRate` keeps one there. The latest is the later clock,
    /// then the greater device id, so every device keeps the same one whatever order they arrive
    /// in. Does not re-rate; the caller does.
    func mergeManualRate(_ version: ManualRateVersion) throws {
        let rate = version.rate
        let key: [SQLValue] = [.text(rate.base.code), .text(rate.quote.code), .text(rate.date.description)]
        let newer = try db.scalarInt(
            """
            SELECT 1 FROM manual_rates
            WHERE date = ?3 AND ((base = ?1 AND quote = ?2) OR (base = ?2 AND quote = ?1)) AND (hlc, device) >= (?4, ?5)
            """, key + [.integer(version.hlc), .text(version.device)])
        guard newer == nil else { return }
        try db.run("DELETE FROM manual_rates WHERE date = ?3 AND ((base = ?1 AND quote = ?2) OR (base = ?2 AND quote = ?1))", key)
        try db.run(
            "INSERT INTO manual_rates (base, quote, date, rate, created_at, hlc, device) VALUES (?, ?, ?, ?, ?, ?, ?)",
            key + [.text(rate.rate), .text(version.createdAt), .integer(version.hlc), .text(version.device)])
    }

    /// Chooses the rate again for every purchase of an open trip whose rate came from the resolver
    /// (not `--rate`, not `--charged`) and is provisional, missing or manual. Must run inside the
    /// caller's transaction. `currencies` narrows it to purchases in or into those codes.
    ///
    /// Re-rating is not a local change of a shared trip: every device re-rates alike from the same
    /// shared rates, so its writes stay out of the outbox (`withApplying`).
    public func rerate(currencies: Set<String>? = nil, tripID: Int64? = nil) throws -> RerateSummary {
        try withApplying { try rerateNow(currencies: currencies, tripID: tripID) }
    }

    private func rerateNow(currencies: Set<String>?, tripID: Int64?) throws -> RerateSummary {
        var summary = RerateSummary()
        // Only the columns a conversion needs: this runs over every provisional purchase.
        // Refunds and credits are re-rated like purchases; their kind only signs the reported delta.
        var sql = """
            SELECT \(RerateRow.columns)
            FROM purchases p JOIN trips t ON t.id = p.trip_id
            WHERE t.closed_at IS NULL AND p.purchase_rate IS NULL AND p.charged_minor IS NULL
              AND (p.provisional = 1 OR p.rate_source IN ('none', 'manual', 'fallback'))
            """
        var values: [SQLValue] = []
        if let tripID { sql += " AND p.trip_id = ?"; values.append(.integer(tripID)) }
        var rows: [RerateRow] = []
        try db.prepare(sql).forEach(values) { rows.append(RerateRow(row: $0.row())) }
        let resolver = RateResolver(ledger: self)
        var cache: [String: RateQuote?] = [:]
        let update = try db.prepare("UPDATE purchases SET \(RerateUpdateColumn.assignments) WHERE id = ?")
        for p in rows {
            let sign = p.kind.sign
            if let currencies, !currencies.contains(p.currency.code) && !currencies.contains(p.conversion.homeCurrency.code) { continue }
            let key = "\(p.currency.code)>\(p.conversion.homeCurrency.code)@\(p.date)"
            let quote: RateQuote?
            if let cached = cache[key] {
                quote = cached
            } else {
                quote = try resolver.quote(from: p.currency, to: p.conversion.homeCurrency, on: p.date)
                cache[key] = quote
            }
            let c = try Conversion.make(
                breakdown: p.breakdown, from: p.currency, to: p.conversion.homeCurrency,
                quote: quote, rounding: settings.rounding.value)
            // A new rate must not carry a stored purchase past the bound that add and import keep.
            try PurchaseBound.check(c, field: "home amount of #\(p.id)")
            if c.provisional {
                summary.remainingProvisional += 1
                summary.reasons[p.currency.code] =
                    c.source == .none ? "no rate" : c.source == .fallback ? "using fallback" : "provisional \(c.quote?.provider ?? "") rate"
            }
            guard c != p.conversion else { continue }
            summary.changed += 1
            summary.delta[c.homeCurrency.code, default: 0] += sign * ((c.home ?? 0) - (p.conversion.home ?? 0))
            let q = c.quote
            try update.run(
                RerateUpdateColumn.allCases.map { column -> SQLValue in
                    switch column {
                    case .home: SQLValue(c.home)
                    case .homeDiscount: SQLValue(c.homeDiscount)
                    case .homeService: SQLValue(c.homeService)
                    case .homeTax: SQLValue(c.homeTax)
                    case .homeTip: SQLValue(c.homeTip)
                    case .rate: SQLValue(q?.rate)
                    case .rateDate: SQLValue(q?.date?.description)
                    case .rateSource: .text(c.source.rawValue)
                    case .rateProvider: SQLValue(q?.provider)
                    case .rateFetchedAt: SQLValue(q?.fetchedAt)
                    case .provisional: SQLValue(c.provisional)
                    case .updatedAt: .text(clock.now)
                    }
                } + [.integer(p.id)])
        }
        try rerateTransfers(currencies: currencies, tripID: tripID)
        return summary
    }

    /// `trip convert AMOUNT FROM [TO] [--date D]`: the quick calculator, with the same rates.
    public func convertAmount(_ amount: String, from: String, to: String?, date: String?) throws -> (from: Money, to: Money, quote: RateQuote) {
        let source = try CurrencyTable.shared.currency(for: from)
        let target =
            try to.map { t throws(TripError) in try CurrencyTable.shared.currency(for: t) }
            ?? (try currentTrip()?.homeCurrency) ?? defaultHome().currency
        let day = try date.map { d throws(TripError) in try clock.date(d, field: "date") } ?? clock.today
        let minor = try AmountExpression.evaluate(amount, minorUnits: source.minorUnits, rounding: settings.rounding.value)
        guard let quote = try RateResolver(ledger: self).quote(from: source, to: target, on: day) else {
            throw TripError.noRate(from: source.code, to: target.code, date: day.description)
        }
        let b = Breakdown.unadjusted(minor)
        let c = try Conversion.make(breakdown: b, from: source, to: target, quote: quote, rounding: settings.rounding.value)
        return (Money(minorUnits: minor, currency: source), Money(minorUnits: c.home ?? 0, currency: target), quote)
    }
}
