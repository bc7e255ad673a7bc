import Storage
import TripCore
import TripModel

/// Chooses the rate for converting `from` into `to` on `date` (README, "Which rate a purchase gets"):
/// 1. the same currency: identity, rate 1;
/// 2. tier by tier (`RatePrecedence`): manual rates (`trip rates set`), then each provider of the
///    configured chain from the cache that `trip rates sync` fills. In each tier a direct rate
///    first, then a cross through a currency both sides have rates to, its weaker leg of this tier;
/// 3. the fixed fallback table: provisional;
/// 4. nothing: `nil`, and the purchase stays unconverted.
///
/// Every leg follows its own source's date rule. A manual rate: the latest on or before the date,
/// else the earliest after; stored either way round (JPY→USD or USD→JPY, inverted as
/// `Rational.derivedRateText` writes it). A provider's: the observation on the date, else the latest
/// before it within `stale_days`; final when it is of the date itself, or when the provider has
/// already published a later date. A provider's own cross through its base uses one observation
/// date for both legs.
///
/// The rates are those of `scope` (`RateScope`): a shared trip's for its purchases, else this
/// device's own.
///
/// `--charged` and `--rate` on a purchase are handled by the caller before this is asked.
public struct RateResolver {
    let ledger: Ledger
    let scope: RateScope

    /// A resolver of this device's own rates.
    public init(ledger: Ledger) { self.init(ledger: ledger, scope: .own) }

    init(ledger: Ledger, scope: RateScope) {
        self.ledger = ledger
        self.scope = scope
    }

    public func quote(from: Currency, to: Currency, on date: CivilDate) throws -> RateQuote? {
        try route(from: from, to: to, on: date)?.quote
    }

    /// The rate and, for a cross, the legs it came from.
    public func route(from: Currency, to: Currency, on date: CivilDate) throws -> RateRoute? {
        if from.code == to.code {
            return RateRoute(quote: RateQuote(rate: "1", date: date, source: .identity, provisional: false))
        }
        let scope = self.scope.converting(from.code, to.code)
        // Tier 0 is the manual rates, tier n the chain's n-th provider.
        let tiers: [String?] = [nil] + ledger.settings.rateChain.value
        var legs: [String: RateLeg?] = [:]
        func leg(_ a: String, _ b: String, tier: Int) throws -> RateLeg? {
            let key = "\(a)>\(b)#\(tier)"
            if let known = legs[key] { return known }
            let found = try tiers[tier].map { try providerLeg($0, a, b, on: date, scope) } ?? manualLeg(a, b, on: date, scope)
            legs[key] = found
            return found
        }
        var pivots: [String]?
        for (tier, provider) in tiers.enumerated() {
            if let provider {
                if let q = try cached(provider: provider, from: from.code, to: to.code, on: date, scope) { return q }
            } else if let l = try leg(from.code, to.code, tier: 0) {
                return RateRoute(direct: l)
            }
            let candidates = try pivots ?? pivotCandidates(from.code, to.code, scope)
            pivots = candidates
            var crosses: [RateRoute] = []
            for pivot in candidates {
                // The best leg each side at this tier or better; at least one of them of this tier.
                func best(_ a: String, _ b: String) throws -> (leg: RateLeg, tier: Int)? {
                    for t in 0...tier { if let l = try leg(a, b, tier: t) { return (l, t) } }
                    return nil
                }
                guard let first = try best(from.code, pivot), let second = try best(pivot, to.code),
                    max(first.tier, second.tier) == tier, let q = RateRoute.cross(first.leg, second.leg)
                else { continue }
                crosses.append(q)
            }
            if let q = RatePrecedence.best(crosses: crosses) { return q }
        }
        if let f = ledger.settings.fallback.rate(from: from.code, to: to.code) {
            return RateRoute(quote: RateQuote(rate: f.rate, date: nil, source: .fallback, provider: nil, provisional: f.provisional))
        }
        return nil
    }

    /// Currencies a cross may go through: those with a manual rate to either side, and the
    /// providers' bases.
    func pivotCandidates(_ from: String, _ to: String, _ scope: RateScope) throws -> [String] {
        let store = ledger.rateStore
        var codes = Set(try store.manualPartners(of: from, in: scope)).union(try store.manualPartners(of: to, in: scope))
        for provider in ledger.settings.rateChain.value { codes.formUnion(try store.bases(of: provider, in: scope)) }
        codes.subtract([from, to])
        return codes.sorted()
    }

    func manualLeg(_ from: String, _ to: String, on date: CivilDate, _ scope: RateScope) throws -> RateLeg? {
        guard let (base, text, day) = try ledger.rateStore.manualRate(from: from, to: to, on: date, in: scope) else { return nil }
        let leg = RateLeg(
            from: base, to: base == from ? to : from, published: text, date: CivilDate(iso: day), source: .manual,
            provisional: false)
        return base == from ? leg : leg.reversed
    }

    /// A provider's rate between its base and another currency, either way round; nil when neither
    /// side is one of its bases.
    func providerLeg(_ provider: String, _ from: String, _ to: String, on date: CivilDate, _ scope: RateScope) throws -> RateLeg? {
        for base in try ledger.rateStore.bases(of: provider, in: scope) {
            if base == from, let l = try observed(provider, base: base, quote: to, onOrBefore: date, for: date, scope) { return l }
            if base == to, let l = try observed(provider, base: base, quote: from, onOrBefore: date, for: date, scope) {
                return l.reversed
            }
        }
        return nil
    }

    /// 1 `base` = rate `quote` as `provider` published it on or before `day`, for a conversion on
    /// `date`: nil when older than `stale_days` before `date`.
    func observed(
        _ provider: String, base: String, quote: String, onOrBefore day: CivilDate, for date: CivilDate, _ scope: RateScope
    ) throws -> RateLeg? {
        let staleLimit = date.adding(days: -ledger.settings.staleDays.value) ?? date
        guard let row = try ledger.rateStore.observation(provider: provider, base: base, quote: quote, onOrBefore: day, in: scope),
            let observedOn = CivilDate(iso: row.date), observedOn >= staleLimit
        else { return nil }
        let latest = try ledger.rateStore.latestPublished(provider: provider, base: base, in: scope)
        let final = observedOn == date || (latest.flatMap { CivilDate(iso: $0) }.map { $0 > date } ?? false)
        return RateLeg(
            from: base, to: quote, published: row.rate, date: observedOn, source: .provider, provider: provider,
            fetchedAt: row.fetchedAt.isEmpty ? nil : row.fetchedAt, provisional: !final)
    }

    /// A provider's cached rate for the pair, crossed through the provider's base when neither side is it.
    func cached(provider: String, from: String, to: String, on date: CivilDate, _ scope: RateScope) throws -> RateRoute? {
        if let l = try providerLeg(provider, from, to, on: date, scope) { return RateRoute(direct: l) }
        for base in try ledger.rateStore.bases(of: provider, in: scope) {
            func legs(onOrBefore day: CivilDate) throws -> (RateLeg, RateLeg)? {
                guard let a = try observed(provider, base: base, quote: from, onOrBefore: day, for: date, scope)?.reversed,
                    let b = try observed(provider, base: base, quote: to, onOrBefore: day, for: date, scope)
                else { return nil }
                return (a, b)
            }
            guard var pair = try legs(onOrBefore: date), let aDate = pair.0.date, let bDate = pair.1.date else { continue }
            // Both legs must be of one observation date; step back to the older one.
            if aDate != bDate {
                guard let older = try legs(onOrBefore: min(aDate, bDate)), older.0.date == older.1.date else { continue }
                pair = older
            }
            if let q = RateRoute.cross(pair.0, pair.1) { return q }
        }
        return nil
    }
}
