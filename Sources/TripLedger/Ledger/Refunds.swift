import Storage
import TripCore
import TripModel

extension Ledger {
    /// `trip refund ID [AMOUNT] [--date D] [--charged X]`: money back for purchase `ID`, in its currency.
    ///
    /// Without `amount` it refunds what remains of the purchase. The refund is converted at the rate
    /// of its own date (the same rules as a purchase: manual, provider cache, fallback, none) or at
    /// its `--charged` home amount, and takes the purchase's trip, category, payment method and note,
    /// so every breakdown nets it. The refunds of a purchase never add up to more than its total.
    ///
    /// A `currency` after the amount (`trip refund 4 500 yen`) only confirms the purchase's: a
    /// refund is in the currency of what it refunds, so any other is refused, never converted.
    public func addRefund(
        _ idText: String, amount: String?, currency: String? = nil, date: String?, charged: String?
    ) throws -> Purchase {
        let id = try purchaseID(idText)
        return try transaction {
            let p = try purchase(id: id)
            guard p.kind == .purchase else {
                throw TripError.badTextValue(
                    field: "id", value: idText,
                    reason: """
                        is a \(p.kind.rawValue), not a purchase; refund the purchase itself
                        """)
            }
            let trip = try self.trip(id: p.tripID)!
            try requireOpen(trip)
            if let currency, try self.currency(word: currency, field: "currency", trip: trip).code != p.currency.code {
                throw TripError.badTextValue(
                    field: "currency", value: currency,
                    reason: "is not \(p.currency.code), the currency of purchase #\(id); a refund is in the purchase's currency")
            }
            let remaining = try refundable(p)!
            let rounding = p.inputs.rounding
            let minor: Int64
            if let amount {
                minor = try AmountExpression.evaluate(
                    amount, field: "amount", minorUnits: p.currency.minorUnits, rounding: rounding, currencyCode: p.currency.code)
                guard minor > 0 else { throw TripError.badAmount(field: "amount", value: amount, reason: "must be greater than zero") }
                guard minor <= remaining else {
                    throw TripError.badAmount(
                        field: "amount", value: amount,
                        reason: """
                            is more than what remains to refund of purchase #\(id): \
                            \(Money(minorUnits: remaining, currency: p.currency).plainText) \(p.currency.code) of \
                            \(Money(minorUnits: p.breakdown.total, currency: p.currency).plainText) \(p.currency.code)
                            """)
                }
            } else {
                guard remaining > 0 else {
                    throw TripError.badTextValue(field: "id", value: idText, reason: "is already refunded in full")
                }
                minor = remaining
            }
            let day = try date.map { d throws(TripError) in try clock.date(d, field: "date") } ?? clock.today
            let home = trip.homeCurrency
            let chargedMinor = try charged.map { c throws(TripError) in
                let v = try AmountExpression.evaluate(c, field: "charged", minorUnits: home.minorUnits, rounding: rounding, currencyCode: home.code)
                guard v > 0 else { throw TripError.badAmount(field: "charged", value: c, reason: "must be greater than zero") }
                return v
            }
            // A refund is a purchase of its amount alone: the purchase's currency, rounding and
            // texts, no adjustment or preset, converted at its own date (or its charged amount).
            let values = try PurchaseBuilder.build(
                PurchaseEntry(
                    amount: amount ?? Money(minorUnits: minor, currency: p.currency).plainText, price: minor,
                    date: day.description, discount: "", service: "", tax: "", taxIncluded: false, tip: "", preset: "none",
                    rounding: rounding.rawValue, rate: "", charged: chargedMinor == nil ? "" : charged),
                editing: prior(of: p), in: PurchaseContext(trip: PurchaseTrip(trip), settings: settings, clock: clock),
                lookUpRate: try rateLookup(trip: trip.id))
            var row = PurchaseRow(values)
            row.explicit = nil
            row.kind = .refund
            row.refundOf = id
            // The id explicitly: never one a removed purchase had (m0006).
            let refundID = try nextID(.purchases)
            try purchaseStore.insert(row, id: refundID, now: clock.now, createdAt: clock.now)
            // On a group trip a refund is divided like the purchase it refunds.
            try copySplit(from: p, to: refundID)
            return try withSharedID(try purchase(id: refundID))
        }
    }

    /// What can still be refunded of `p`, in its currency's minor units: its total less its
    /// refunds so far; `nil` when `p` is not a purchase (a refund or a credit is never refunded).
    /// The one rule `trip refund` and a card statement's money-back rows both follow.
    func refundable(_ p: Purchase) throws -> Int64? {
        guard p.kind == .purchase else { return nil }
        return p.breakdown.total - (try purchaseStore.refundedTotal(of: p.id))
    }

    /// Makes credit `creditID`, `amount` of `currency` just imported from a statement, a refund of
    /// the purchase it gives back when exactly one fits: same trip and currency, a note equal to
    /// `merchant` (ignoring case), dated on or before `date`, with `amount` still refundable
    /// (`refundable`). With none, or with two (the same taxi twice), it stays a credit: a wrong
    /// link would move money between categories and members. Returns whether it linked.
    package func linkImportedRefund(
        _ creditID: Int64, amount: Int64, currency: Currency, merchant: String, date: CivilDate, trip: Trip
    ) throws -> Bool {
        var fits: [Purchase] = []
        for id in try purchaseStore.refundCandidates(trip: trip.id, currency: currency, note: merchant, onOrBefore: date.description)
        where id != creditID {
            let p = try purchase(id: id)
            if let room = try refundable(p), amount <= room { fits.append(p) }
        }
        guard fits.count == 1 else { return false }
        try purchaseStore.linkRefund(creditID, to: fits[0].id)
        // On a group trip a refund is divided like the purchase it refunds, as `addRefund` does.
        try copySplit(from: fits[0], to: creditID)
        return true
    }

    /// After an edit of purchase or refund `id`: a purchase's refunds still share its trip and
    /// currency and add up to at most its total. Runs inside the edit's transaction, so a failure
    /// leaves the ledger as it was.
    func checkRefundLink(of p: Purchase) throws {
        let (purchaseID, refunds): (Int64, [Int64]) =
            p.kind == .refund
            ? (p.refundOf ?? p.id, [p.id]) : (p.id, try purchaseStore.refundIDs(of: p.id))
        guard !refunds.isEmpty, p.kind != .credit else { return }
        let original = try purchase(id: purchaseID)
        let list = refunds.map { "#\($0)" }.joined(separator: ", ")
        if p.kind == .purchase {
            let mismatch = try purchaseStore.refundsElsewhere(of: purchaseID, currency: original.currency, trip: original.tripID)
            if mismatch > 0 {
                throw TripError.badText(
                    field: "edit",
                    reason: """
                        purchase #\(purchaseID) has refunds (\(list)) in its currency and trip; remove them first to change those
                        """)
            }
        } else if p.currency != original.currency || p.tripID != original.tripID {
            throw TripError.badText(
                field: "edit",
                reason: """
                    refund #\(p.id) must stay in the currency and trip of purchase #\(purchaseID)
                    """)
        }
        let refunded = try purchaseStore.refundedTotal(of: purchaseID)
        if refunded > original.breakdown.total {
            throw TripError.badText(
                field: "edit",
                reason: """
                    the refunds of purchase #\(purchaseID) would add up to \
                    \(Money(minorUnits: refunded, currency: original.currency).plainText) \(original.currency.code), more than its \
                    total \(Money(minorUnits: original.breakdown.total, currency: original.currency).plainText)
                    """)
        }
    }
}
