import Storage
import TripCore
import TripModel

extension Ledger {
    /// `trip add`: validates everything, then inserts the purchase in one transaction.
    public func addPurchase(_ draft: PurchaseDraft, split: SplitDraft = SplitDraft()) throws -> Purchase {
        guard let amount = draft.amount else { throw TripError.usage("amount: missing; e.g. trip add 1200 JPY ramen") }
        let trip = try resolveTrip(draft.trip)
        try requireOpen(trip)
        var draft = draft
        try readWords(of: &draft, trip: trip)
        if draft.kind == .credit && draft.entry.preset == nil {
            // Money received is not a price the trip's preset describes: a tax-free refund at the
            // airport holds no 10% tax. Its own --preset or --tax still apply.
            draft.entry.preset = "none"
        }
        (draft.amount, draft.currency) = try PastedAmount.read(
            draft.amount ?? amount, given: draft.currency, purchaseCurrency: trip.localCurrency ?? trip.homeCurrency
        ) { "trip add \($0) \($1)" }
        var row = try prepareRow(draft, amount: draft.amount ?? amount, trip: trip, existing: nil)
        row.kind = draft.kind
        return try transaction {
            // The id explicitly: never one a removed purchase had (m0006).
            let id = try nextID(.purchases)
            try purchaseStore.insert(row, id: id, now: clock.now, createdAt: clock.now)
            let added = try purchase(id: id)
            try storeSplit(split, purchase: added, previousTrip: nil)
            return added
        }
    }

    /// `trip edit ID`: the draft's non-nil fields replace the stored ones; percentages are
    /// recomputed against the new price and the conversion is chosen again.
    public func editPurchase(_ idText: String, _ draft: PurchaseDraft, split: SplitDraft = SplitDraft()) throws -> Purchase {
        let id = try purchaseID(idText)
        return try transaction {
            let old = try purchase(id: id)
            try requireOpen(try self.trip(id: old.tripID)!)
            let trip = try draft.trip.map { try self.trip(named: $0) } ?? self.trip(id: old.tripID)!
            try requireOpen(trip)
            // The other devices of a shared trip would keep it (README, "Shared trips"): a removal
            // travels, a move does not.
            if trip.id != old.tripID, try syncStore.isShared(trip: old.tripID) {
                throw TripError.badTextValue(
                    field: "--trip", value: draft.trip ?? trip.name,
                    reason: "cannot take #\(id) out of the shared trip \(quoted(try self.trip(id: old.tripID)!.name)); "
                        + "remove it there (`trip rm \(id)`, which every device follows) and add it to \(quoted(trip.name))")
            }
            var draft = draft
            // `--currency won` as `trip add 8900 won` reads it (README, "Currency words").
            if let word = draft.currency { draft.currency = try currency(word: word, field: "currency", trip: trip).code }
            if let amount = draft.amount {
                (draft.amount, draft.currency) = try PastedAmount.read(amount, given: draft.currency, purchaseCurrency: old.currency) {
                    "trip edit \(id) --amount \($0) --currency \($1)"
                }
            }
            var row = try prepareRow(draft, amount: draft.amount ?? old.expression, trip: trip, existing: old)
            // An edit keeps what the row is: a refund stays the refund of its purchase.
            row.kind = old.kind
            row.refundOf = old.refundOf
            try purchaseStore.replace(id: id, with: row, now: clock.now)
            let edited = try purchase(id: id)
            try storeSplit(split, purchase: edited, previousTrip: old.tripID, before: old)
            try checkRefundLink(of: edited)
            return try withSharedID(edited)
        }
    }

    public func purchase(id: Int64) throws -> Purchase {
        guard let p = try purchaseStore.purchase(id: id) else { throw TripError.purchaseNotFound(String(id)) }
        return p
    }

    /// The trip's purchases by date, then id, as one array (`purchaseRows` streams them).
    public func purchases(_ filter: PurchaseFilter) throws -> (trip: Trip, purchases: [Purchase]) {
        var out: [Purchase] = []
        let trip = try purchaseRows(filter) { out.append($0) }
        return (trip, out)
    }

    static func parseID(_ text: String) throws(TripError) -> Int64 {
        let t = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard let id = Int64(t), id > 0 else { throw .purchaseNotFound(text) }
        return id
    }

    /// The row `PurchaseBuilder` builds from a draft on `trip` (editing `old`): this gathers what
    /// it needs from the ledger (the trips, the settings, the clock and the rate lookup).
    package func prepareRow(_ draft: PurchaseDraft, amount: String, trip: Trip, existing old: Purchase?) throws -> PurchaseRow {
        var entry = draft.entry
        entry.amount = amount
        let prior = old.map(prior(of:))
        let values = try PurchaseBuilder.build(
            entry, editing: prior, in: PurchaseContext(trip: PurchaseTrip(trip), settings: settings, clock: clock),
            lookUpRate: try rateLookup(trip: trip.id))
        return PurchaseRow(values)
    }

    /// What an edit of `p` inherits, with the trip it is on.
    func prior(of p: Purchase) -> PriorPurchase {
        // Only a row that did not record its explicit fields reads its trip's presets (to derive them).
        let trip =
            p.explicitFields == nil ? (try? self.trip(id: p.tripID)).flatMap { $0.map(PurchaseTrip.init) } : nil
        return PriorPurchase(
            trip: trip ?? PurchaseTrip(id: p.tripID, homeCurrency: p.conversion.homeCurrency, localCurrency: nil, presets: []),
            currency: p.currency, expression: p.expression, inputs: p.inputs, preset: p.preset,
            recordedExplicitFields: p.explicitFields, date: p.date, note: p.note, category: p.category, paidWith: p.paidWith,
            purchaseRate: p.purchaseRate, charged: p.chargedMinor, texts: p.texts)
    }

    /// The fields of `p` the user set by flag (`PriorPurchase.explicitFields(settings:)`).
    func explicitFields(of p: Purchase) -> ExplicitFields { prior(of: p).explicitFields(settings: settings) }

    /// The preset a purchase in `currency` gets from `trip` when none is given.
    func defaultPreset(of trip: Trip, for currency: Currency) -> String? {
        PurchaseTrip(trip).defaultPreset(for: currency, settings: settings)
    }

    /// `PurchaseBuilder.convert` with the ledger's rounding and the rates of trip `tripID`.
    func convert(
        _ b: Breakdown, currency: Currency, home: Currency, date: CivilDate, purchaseRate: String?, charged: Int64?, trip tripID: Int64
    ) throws -> Conversion {
        try PurchaseBuilder.convert(
            b, currency: currency, home: home, date: date, purchaseRate: purchaseRate, charged: charged,
            rounding: settings.rounding.value, lookUpRate: try rateLookup(trip: tripID))
    }

    /// The rate `RateResolver` chooses for a purchase of trip `tripID`, from the manual rates and
    /// cache of its scope (`rateScope(trip:)`) and the fallback table.
    func rateLookup(trip tripID: Int64) throws -> PurchaseBuilder.RateLookup {
        let resolver = RateResolver(ledger: self, scope: try rateScope(trip: tripID))
        return { from, to, date in try resolver.quote(from: from, to: to, on: date) }
    }

    /// A rate as typed (`RateQuote.checkedRate`).
    package static func validateRate(_ text: String, field: String) throws(TripError) -> String {
        try RateQuote.checkedRate(text, field: field)
    }
}

extension ExplicitFields {
    /// The fields a draft gives.
    init(draft: PurchaseDraft) { self.init(given: draft.entry) }
}

extension PurchaseTrip {
    package init(_ trip: Trip) {
        self.init(id: trip.id, homeCurrency: trip.homeCurrency, localCurrency: trip.localCurrency, presets: trip.presets)
    }
}
