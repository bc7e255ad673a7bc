import TripCore

extension Ledger {
    /// `trip add`: validates everything, then inserts the purchase in one transaction.
    public func addPurchase(_ draft: PurchaseDraft, split: SplitDraft = SplitDraft()) throws -> Purchase {
        guard let amount = draft.amount else { throw TripError.usage("amount: missing; e.g. trip add 1200 JPY ramen") }
        let trip = try resolveTrip(draft.trip)
        try requireOpen(trip)
        var draft = draft
        (draft.amount, draft.currency) = try PastedAmount.read(
            amount, given: draft.currency, purchaseCurrency: trip.localCurrency ?? trip.homeCurrency
        ) { "trip add \($0) \($1)" }
        var row = try prepareRow(draft, amount: draft.amount ?? amount, trip: trip, existing: nil)
        row.kind = draft.kind
        return try db.transaction {
            // The id explicitly: never one a removed purchase had (m0006).
            let id = try nextID(.purchases)
            try db.run(
                "INSERT INTO purchases (id, \(PurchaseRow.insertColumns)) VALUES (?, \(PurchaseRow.placeholders))",
                [.integer(id)] + row.values(now: clock.now, createdAt: clock.now))
            let added = try purchase(id: id)
            try storeSplit(split, purchase: added, previousTrip: nil)
            return added
        }
    }

    /// `trip edit ID`: the draft's non-nil fields replace the stored ones; percentages are
    /// recomputed against the new price and the conversion is chosen again.
    public func editPurchase(_ idText: String, _ draft: PurchaseDraft, split: SplitDraft = SplitDraft()) throws -> Purchase {
        let id = try Ledger.parseID(idText)
        return try db.transaction {
            let old = try purchase(id: id)
            try requireOpen(try self.trip(id: old.tripID)!)
            let trip = try draft.trip.map { try self.trip(named: $0) } ?? self.trip(id: old.tripID)!
            try requireOpen(trip)
            var draft = draft
            if let amount = draft.amount {
                (draft.amount, draft.currency) = try PastedAmount.read(amount, given: draft.currency, purchaseCurrency: old.currency) {
                    "trip edit \(id) --amount \($0) --currency \($1)"
                }
            }
            var row = try prepareRow(draft, amount: draft.amount ?? old.expression, trip: trip, existing: old)
            // An edit keeps what the row is: a refund stays the refund of its purchase.
            row.kind = old.kind
            row.refundOf = old.refundOf
            let created = try db.scalarText("SELECT created_at FROM purchases WHERE id = ?", [.integer(id)]) ?? clock.now
            // An imported purchase keeps its import key, so re-importing its file does not add it again.
            let importKey = try db.scalarInt("SELECT import_key FROM purchases WHERE id = ?", [.integer(id)])
            // The row is deleted and inserted again under its id: its refunds' `refund_of` points at it
            // in between, so foreign keys are checked at commit (the pragma ends with the transaction).
            try db.execute("PRAGMA defer_foreign_keys = ON")
            try db.run("DELETE FROM purchases WHERE id = ?", [.integer(id)])
            try db.run(
                "INSERT INTO purchases (id, \(PurchaseRow.insertColumns)) VALUES (?, \(PurchaseRow.placeholders))",
                [.integer(id)] + row.values(now: clock.now, createdAt: created))
            if let importKey {
                try db.run("UPDATE purchases SET import_key = ? WHERE id = ?", [.integer(importKey), .integer(id)])
            }
            let edited = try purchase(id: id)
            try storeSplit(split, purchase: edited, previousTrip: old.tripID)
            try checkRefundLink(of: edited)
            return edited
        }
    }

    public func purchase(id: Int64) throws -> Purchase {
        guard
            let p = try db.prepare("SELECT \(Purchase.columns) \(Purchase.from) WHERE p.id = ?")
                .first([.integer(id)], { Purchase(row: $0.row()) })
        else { throw TripError.purchaseNotFound(String(id)) }
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
    func prepareRow(_ draft: PurchaseDraft, amount: String, trip: Trip, existing old: Purchase?) throws -> PurchaseRow {
        var entry = draft.entry
        entry.amount = amount
        let prior = old.map(prior(of:))
        let values = try PurchaseBuilder.build(
            entry, editing: prior, in: PurchaseContext(trip: PurchaseTrip(trip), settings: settings, clock: clock),
            lookUpRate: lookUpRate)
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
            purchaseRate: p.purchaseRate, charged: p.chargedMinor)
    }

    /// The fields of `p` the user set by flag (`PriorPurchase.explicitFields(settings:)`).
    func explicitFields(of p: Purchase) -> ExplicitFields { prior(of: p).explicitFields(settings: settings) }

    /// The preset a purchase in `currency` gets from `trip` when none is given.
    func defaultPreset(of trip: Trip, for currency: Currency) -> String? {
        PurchaseTrip(trip).defaultPreset(for: currency, settings: settings)
    }

    /// `PurchaseBuilder.convert` with the ledger's rounding and rates.
    func convert(
        _ b: Breakdown, currency: Currency, home: Currency, date: CivilDate, purchaseRate: String?, charged: Int64?
    ) throws -> Conversion {
        try PurchaseBuilder.convert(
            b, currency: currency, home: home, date: date, purchaseRate: purchaseRate, charged: charged,
            rounding: settings.rounding.value, lookUpRate: lookUpRate)
    }

    /// The rate `RateResolver` chooses from this ledger's manual rates, cache and fallback table.
    func lookUpRate(from: Currency, to: Currency, on date: CivilDate) throws -> RateQuote? {
        try RateResolver(ledger: self).quote(from: from, to: to, on: date)
    }

    /// A rate as typed (`RateQuote.checkedRate`).
    static func validateRate(_ text: String, field: String) throws(TripError) -> String {
        try RateQuote.checkedRate(text, field: field)
    }
}

extension ExplicitFields {
    /// The fields a draft gives.
    init(draft: PurchaseDraft) { self.init(given: draft.entry) }
}

extension PurchaseTrip {
    init(_ trip: Trip) {
        self.init(id: trip.id, homeCurrency: trip.homeCurrency, localCurrency: trip.localCurrency, presets: trip.presets)
    }
}

extension PurchaseRow {
    /// The row of what `PurchaseBuilder` built, of kind purchase (the caller sets a refund's or credit's).
    init(_ built: PurchaseValues) {
        self.init(
            tripID: built.tripID, date: built.date, note: built.note, category: built.category, paidWith: built.paidWith,
            currency: built.currency, expression: built.expression, inputs: built.inputs, breakdown: built.breakdown,
            preset: built.preset, purchaseRate: built.purchaseRate, charged: built.charged, conversion: built.conversion,
            explicit: built.explicit)
    }
}

/// The columns of one purchase row, computed and validated, ready to insert.
struct PurchaseRow {
    let tripID: Int64
    let date: CivilDate
    let note: String
    let category: String?
    let paidWith: String?
    let currency: Currency
    let expression: String
    let inputs: AdjustmentInputs
    let breakdown: Breakdown
    let preset: String?
    let purchaseRate: String?
    let charged: Int64?
    let conversion: Conversion
    /// `nil` for rows that do not record it (imported).
    var explicit: ExplicitFields? = nil
    var kind: PurchaseKind = .purchase
    var refundOf: Int64? = nil

    /// The columns `values` fills, `Column`'s list (the id is bound before them).
    static let insertColumns = Column.sqlList
    static let placeholders = Column.placeholders
    /// The number of `insertColumns`.
    static let columnCount = Int(Column.count)

    /// The columns of `purchases` that an inserted purchase sets, in order. `PurchaseColumnTests`
    /// checks that every column of the table is here or named as one an insert leaves alone.
    enum Column: Int32, ColumnList {
        case tripID, date, note, category, paidWith, currency, expression, price, discountSpec, discount, serviceSpec
        case service, taxSpec, taxIncluded, tax, tipSpec, tip, total, rounding, preset, purchaseRate, charged
        case homeCurrency, home, homeDiscount, homeService, homeTax, homeTip, rate, rateDate, rateSource, rateProvider
        case rateFetchedAt, provisional, createdAt, updatedAt, explicitFields, kind, refundOf

        var sql: StaticString {
            switch self {
            case .tripID: "trip_id"
            case .date: "date"
            case .note: "note"
            case .category: "category"
            case .paidWith: "paid_with"
            case .currency: "currency"
            case .expression: "expression"
            case .price: "price_minor"
            case .discountSpec: "discount_spec"
            case .discount: "discount_minor"
            case .serviceSpec: "service_spec"
            case .service: "service_minor"
            case .taxSpec: "tax_spec"
            case .taxIncluded: "tax_included"
            case .tax: "tax_minor"
            case .tipSpec: "tip_spec"
            case .tip: "tip_minor"
            case .total: "total_minor"
            case .rounding: "rounding"
            case .preset: "preset"
            case .purchaseRate: "purchase_rate"
            case .charged: "charged_minor"
            case .homeCurrency: "home_currency"
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
            case .createdAt: "created_at"
            case .updatedAt: "updated_at"
            case .explicitFields: "explicit_fields"
            case .kind: "kind"
            case .refundOf: "refund_of"
            }
        }
    }

    private static let allColumns = Column.allCases

    /// The values of `insertColumns`, in their order.
    func values(now: String, createdAt: String) -> [SQLValue] {
        var out: [SQLValue] = []
        out.reserveCapacity(Self.columnCount)
        for column in Self.allColumns { out.append(value(column, now: now, createdAt: createdAt)) }
        return out
    }

    func value(_ column: Column, now: String, createdAt: String) -> SQLValue {
        let b = breakdown, c = conversion, q = conversion.quote
        switch column {
        case .tripID: return .integer(tripID)
        case .date: return .text(date.description)
        case .note: return .text(note)
        case .category: return SQLValue(category)
        case .paidWith: return SQLValue(paidWith)
        case .currency: return .text(currency.code)
        case .expression: return .text(expression)
        case .price: return .integer(b.price)
        case .discountSpec: return SQLValue(inputs.discount?.description)
        case .discount: return .integer(b.discount)
        case .serviceSpec: return SQLValue(inputs.service?.description)
        case .service: return .integer(b.service)
        case .taxSpec: return SQLValue(inputs.tax?.description)
        case .taxIncluded: return SQLValue(inputs.taxIncluded)
        case .tax: return .integer(b.tax)
        case .tipSpec: return SQLValue(inputs.tip?.description)
        case .tip: return .integer(b.tip)
        case .total: return .integer(b.total)
        case .rounding: return .text(inputs.rounding.rawValue)
        case .preset: return SQLValue(preset)
        case .purchaseRate: return SQLValue(purchaseRate)
        case .charged: return SQLValue(charged)
        case .homeCurrency: return .text(c.homeCurrency.code)
        case .home: return SQLValue(c.home)
        case .homeDiscount: return SQLValue(c.homeDiscount)
        case .homeService: return SQLValue(c.homeService)
        case .homeTax: return SQLValue(c.homeTax)
        case .homeTip: return SQLValue(c.homeTip)
        case .rate: return SQLValue(q?.rate)
        case .rateDate: return SQLValue(q?.date?.description)
        case .rateSource: return .text(c.source.rawValue)
        case .rateProvider: return SQLValue(q?.provider)
        case .rateFetchedAt: return SQLValue(q?.fetchedAt)
        case .provisional: return SQLValue(c.provisional)
        case .createdAt: return .text(createdAt)
        case .updatedAt: return .text(now)
        case .explicitFields: return SQLValue(explicit?.stored)
        case .kind: return .text(kind.rawValue)
        case .refundOf: return SQLValue(refundOf)
        }
    }
}
