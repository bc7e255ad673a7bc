import Storage
import TripCore
import TripModel

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
        return try transaction {
            // Its version (m0013): a rate set here after one received from another device is later.
            let version = try tick()
            let rate = ManualRate(base: base, quote: quote, date: day, rate: text)
            // An older entry for the inverse pair on the same day would be ambiguous: the store
            // replaces it, and the new one wins.
            try rateStore.setManualRate(
                ManualRateVersion(rate: rate, createdAt: clock.now, hlc: version, device: try deviceID()), setIn: try currentTrip()?.id)
            let summary = try rerate(currencies: [base.code, quote.code])
            return (rate, summary)
        }
    }

    /// `trip rates show`: every manual rate, by pair then date. In a shared trip (`sharedTrip`,
    /// its name), the rates its purchases convert at: this device's that travel into it and those
    /// pulled from it, the latest of one pair and day. Elsewhere this device's own.
    public func manualRates() throws -> (rates: [ManualRate], sharedTrip: String?) {
        let trip = try currentTrip()
        let scope = try rateScope(trip: trip?.id)
        return (try rateStore.manualRates(in: scope), scope.trip == 0 ? nil : trip?.name)
    }

    /// Chooses the rate again for every purchase of an open trip whose rate came from the resolver
    /// (not `--rate`, not `--charged`) and is provisional, missing or manual. Must run inside the
    /// caller's transaction. `currencies` narrows it to purchases in or into those codes.
    ///
    /// Re-rating is not a local change of a shared trip: every device re-rates alike from the same
    /// shared rates, so its writes stay out of the outbox (`withApplying`).
    ///
    /// `includingClosed`: a shared trip's pull re-rates the trip even when it is closed, so that
    /// every device ends with the same numbers whichever it learned of first, the close or a rate.
    public func rerate(currencies: Set<String>? = nil, tripID: Int64? = nil, includingClosed: Bool = false) throws -> RerateSummary {
        try withApplying { try rerateNow(currencies: currencies, tripID: tripID, includingClosed: includingClosed) }
    }

    private func rerateNow(currencies: Set<String>?, tripID: Int64?, includingClosed: Bool) throws -> RerateSummary {
        var summary = RerateSummary()
        // Trip by trip: each converts at the rates of its own scope (a shared trip's are its own).
        for trip in try (tripID.map { [$0] } ?? tripStore.all().map(\.id)) {
            try rerate(trip: trip, currencies: currencies, includingClosed: includingClosed, into: &summary)
            try rerateTransfers(currencies: currencies, tripID: trip, includingClosed: includingClosed)
        }
        return summary
    }

    private func rerate(trip: Int64, currencies: Set<String>?, includingClosed: Bool, into summary: inout RerateSummary) throws {
        // Refunds and credits are re-rated like purchases; their kind only signs the reported delta.
        let rows = try purchaseStore.rerateCandidates(trip: trip, includingClosed: includingClosed)
        guard !rows.isEmpty else { return }
        let resolver = RateResolver(ledger: self, scope: try rateScope(trip: trip))
        var cache: [String: RateQuote?] = [:]
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
            try purchaseStore.updateConversion(id: p.id, c, now: clock.now)
        }
    }

    /// `trip convert AMOUNT FROM [TO] [--date D]`: the quick calculator, with the same rates.
    public func convertAmount(_ amount: String, from: String, to: String?, date: String?) throws -> (from: Money, to: Money, route: RateRoute) {
        let trip = try currentTrip()
        let source = try currency(word: from, field: "from", trip: trip)
        let target = try to.map { try currency(word: $0, field: "to", trip: trip) } ?? trip?.homeCurrency ?? defaultHome().currency
        let day = try date.map { d throws(TripError) in try clock.date(d, field: "date") } ?? clock.today
        let minor = try AmountExpression.evaluate(amount, minorUnits: source.minorUnits, rounding: settings.rounding.value)
        guard let route = try RateResolver(ledger: self).route(from: source, to: target, on: day) else {
            throw TripError.noRate(from: source.code, to: target.code, date: day.description)
        }
        let b = Breakdown.unadjusted(minor)
        let c = try Conversion.make(breakdown: b, from: source, to: target, quote: route.quote, rounding: settings.rounding.value)
        return (Money(minorUnits: minor, currency: source), Money(minorUnits: c.home ?? 0, currency: target), route)
    }
}
