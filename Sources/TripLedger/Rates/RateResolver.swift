import TripCore
import TripModel

/// Chooses the rate for converting `from` into `to` on `date`, in this order:
/// 1. the same currency: identity, rate 1;
/// 2. a manual rate (`trip rates set`): the latest on or before the date, else the earliest after;
///    stored either way round (JPY→USD or USD→JPY, inverted as `Rational.derivedRateText` writes it);
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
        guard let (base, text, day) = try ledger.rateStore.manualRate(from: from, to: to, on: date) else { return nil }
        let on = CivilDate(iso: day)
        let rate = base == from ? text : Rational.inverse(ofRate: text)
        return RateQuote(rate: rate, date: on, source: .manual, provisional: false)
    }

    /// A provider's cached rate for the pair, crossed through the provider's base when neither side is it.
    func cached(provider: String, from: String, to: String, on date: CivilDate) throws -> RateQuote? {
        let staleLimit = date.adding(days: -ledger.settings.staleDays.value) ?? date
        for base in try ledger.rateStore.bases(of: provider) {
            func leg(_ quote: String, onOrBefore day: CivilDate) throws -> (rate: Rational, text: String, date: String, fetched: String)? {
                if quote == base { return (.one, "1", day.description, "") }
                guard let row = try ledger.rateStore.observation(provider: provider, base: base, quote: quote, onOrBefore: day),
                    let r = Rational(decimalText: row.rate)
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
            let latest = try ledger.rateStore.latestPublished(provider: provider, base: base)
            let final = obsDate == date || (latest.flatMap { CivilDate(iso: $0) }.map { $0 > date } ?? false)
            return RateQuote(
                rate: text, date: obsDate, source: .provider, provider: provider,
                fetchedAt: max(a.fetched, b.fetched), provisional: !final)
        }
        return nil
    }
}
