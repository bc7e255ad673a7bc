import TripCore

/// Chooses the rate for converting `from` into `to` on `date`, in this order:
/// 1. the same currency: identity, rate 1;
/// 2. a manual rate (`trip rates set`): the latest on or before the date, else the earliest after;
///    stored either way round (JPY→USD or USD→JPY, inverted to 12 significant digits);
/// 3. each provider of the configured chain, from the cache that `trip rates sync` fills: the
///    observation on the date, else the latest before it within `stale_days`. Final when it is of
///    the date itself, or when the provider has already published a later date;
/// 4. the fixed fallback table: provisional;
/// 5. nothing: `nil`, and the purchase stays unconverted.
///
/// `--charged` and `--rate` on a purchase are handled by the caller before this is asked.
public struct RateResolver {
    let ledger: Ledger

    public init(ledger: Ledger) { self.ledger = ledger }

    public func quote(from: Currency, to: Currency, on date: CivilDate) throws -> RateQuote? {
        if from.code == to.code {
            return RateQuote(rate: "1", date: date, source: .identity, provisional: false)
        }
        if let q = try manual(from: from.code, to: to.code, on: date) { return q }
        for provider in ledger.settings.rateChain.value {
            if let q = try cached(provider: provider, from: from.code, to: to.code, on: date) { return q }
        }
        if let f = ledger.settings.fallback.rate(from: from.code, to: to.code) {
            return RateQuote(rate: f.rate, date: nil, source: .fallback, provider: nil, provisional: f.provisional)
        }
        return nil
    }

    func manual(from: String, to: String, on date: CivilDate) throws -> RateQuote? {
        let d = date.description
        let sql = """
            SELECT \(ManualRate.Column.sqlList) FROM manual_rates
            WHERE ((base = ?1 AND quote = ?2) OR (base = ?2 AND quote = ?1))
            ORDER BY (date <= ?3) DESC, CASE WHEN date <= ?3 THEN date END DESC, date ASC, base = ?1 DESC
            LIMIT 1
            """
        guard
            let (base, text, day) = try ledger.db.prepare(sql).first(
                [.text(from), .text(to), .text(d)],
                {
                    let s = ResultRow<ManualRate.Column>($0)
                    return (s.text(.base), s.text(.rate), s.text(.date))
                })
        else { return nil }
        let on = CivilDate(iso: day)
        let rate = base == from ? text : RateResolver.inverse(text)
        return RateQuote(rate: rate, date: on, source: .manual, provisional: false)
    }

    /// 1 / rate, exact when it terminates within 12 decimals, else to 12 significant digits.
    public static func inverse(_ text: String) -> String {
        guard let r = Rational(decimalText: text), let inv = try? Rational.one / r else { return text }
        return inv.derivedRateText
    }

    /// A provider's cached rate for the pair, crossed through the provider's base when neither side is it.
    func cached(provider: String, from: String, to: String, on date: CivilDate) throws -> RateQuote? {
        let staleLimit = date.adding(days: -ledger.settings.staleDays.value) ?? date
        for base in try bases(of: provider) {
            func leg(_ quote: String, onOrBefore day: CivilDate) throws -> (rate: Rational, text: String, date: String, fetched: String)? {
                if quote == base { return (.one, "1", day.description, "") }
                guard
                    let row = try ledger.db.prepare(
                        """
                        SELECT \(ObservationColumn.sqlList) FROM rate_observations
                        WHERE provider = ? AND base = ? AND quote = ? AND date <= ? ORDER BY date DESC LIMIT 1
                        """
                    ).first(
                        [.text(provider), .text(base), .text(quote), .text(day.description)],
                        {
                            let s = ResultRow<ObservationColumn>($0)
                            return (s.text(.rate), s.text(.date), s.text(.fetchedAt))
                        }), let r = Rational(decimalText: row.0)
                else { return nil }
                return (r, row.0, row.1, row.2)
            }
            guard var a = try leg(from, onOrBefore: date), var b = try leg(to, onOrBefore: date) else { continue }
            // Both legs must be of one observation date; step back to the older one.
            if a.date != b.date, from != base, to != base {
                let older = CivilDate(iso: min(a.date, b.date))!
                guard let a2 = try leg(from, onOrBefore: older), let b2 = try leg(to, onOrBefore: older), a2.date == b2.date else { continue }
                a = a2; b = b2
            }
            let observed = from == base ? b.date : a.date
            guard let obsDate = CivilDate(iso: observed), obsDate >= staleLimit else { continue }
            let text: String
            if from == base {
                text = b.text
            } else if to == base, let inv = try? Rational.one / a.rate {
                text = inv.derivedRateText
            } else if let cross = try? b.rate / a.rate {
                text = cross.derivedRateText
            } else {
                continue
            }
            let latest = try ledger.db.scalarText(
                "SELECT max(latest_date) FROM provider_state WHERE provider = ? AND base = ?",
                [.text(provider), .text(base)])
            let final = obsDate == date || (latest.flatMap { CivilDate(iso: $0) }.map { $0 > date } ?? false)
            return RateQuote(
                rate: text, date: obsDate, source: .provider, provider: provider,
                fetchedAt: max(a.fetched, b.fetched), provisional: !final)
        }
        return nil
    }

    func bases(of provider: String) throws -> [String] {
        var out: [String] = []
        try ledger.db.prepare("SELECT DISTINCT base FROM provider_state WHERE provider = ?")
            .forEach([.text(provider)]) { out.append($0.text(0)) }
        return out
    }
}

/// The columns of `rate_observations` a cached quote is read from.
enum ObservationColumn: Int32, ColumnList {
    case rate, date, fetchedAt

    var sql: StaticString {
        switch self {
        case .rate: "rate"
        case .date: "date"
        case .fetchedAt: "fetched_at"
        }
    }
}
