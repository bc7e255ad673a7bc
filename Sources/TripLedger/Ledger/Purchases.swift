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

    /// Validates a draft against its trip (and the purchase being edited) and computes the row.
    func prepareRow(_ d: PurchaseDraft, amount: String, trip: Trip, existing old: Purchase?) throws -> PurchaseRow {
        let table = CurrencyTable.shared
        let currency =
            try d.currency.map { c throws(TripError) in try table.currency(for: c) }
            ?? old?.currency ?? trip.localCurrency ?? trip.homeCurrency
        // A field given by flag now, or explicitly before, keeps its value; a preset fills only the others.
        var explicit = ExplicitFields(draft: d)
        if let old { explicit.formUnion(explicitFields(of: old)) }
        let presetName: String? = try {
            if let p = d.preset { return p.lowercased() == "none" ? nil : try settings.preset(named: p).name }
            // Edited in place, a purchase keeps its preset; moved to another currency or trip, it takes that one's default.
            if let old, explicit.contains(.preset) || (old.currency == currency && old.tripID == trip.id) { return old.preset }
            return defaultPreset(of: trip, for: currency)
        }()
        let preset = try presetName.map { try settings.preset(named: $0) }
        let rounding =
            try d.rounding.map { r throws(TripError) in
                guard let m = RoundingMode(userText: r) else {
                    throw .badChoice(field: "rounding", value: r, allowed: RoundingMode.allCases.map(\.rawValue))
                }
                return m
            } ?? (explicit.contains(.rounding) ? old?.inputs.rounding : nil) ?? preset?.rounding
            ?? (old?.preset == presetName ? old?.inputs.rounding : nil) ?? settings.rounding.value

        func spec(
            _ flag: String?, _ field: ExplicitFields, _ name: String, stored: AdjustmentSpec?,
            fromPreset: AdjustmentSpec?
        ) throws -> AdjustmentSpec? {
            if let flag { return flag.isEmpty || flag.lowercased() == "none" ? nil : try AdjustmentSpec.parse(flag, field: name) }
            return explicit.contains(field) ? stored : fromPreset
        }
        let discount = try spec(d.discount, .discount, "discount", stored: old?.inputs.discount, fromPreset: nil)
        let service = try spec(d.service, .service, "service", stored: old?.inputs.service, fromPreset: preset?.service)
        let tax = try spec(d.tax, .tax, "tax", stored: old?.inputs.tax, fromPreset: preset?.tax)
        let tip = try spec(d.tip, .tip, "tip", stored: old?.inputs.tip, fromPreset: preset?.tip)
        let taxIncluded: Bool =
            d.taxIncluded
            ?? {
                if d.tax != nil { return false }
                if let old, explicit.contains(.taxIncluded) { return old.inputs.taxIncluded }
                return preset?.taxIncluded ?? false
            }()
        if taxIncluded && tax == nil {
            throw TripError.usage("tax-included: give the included rate with --tax, e.g. --tax 10% --tax-included")
        }
        let inputs = AdjustmentInputs(
            discount: discount, service: service, tax: tax, taxIncluded: taxIncluded, tip: tip,
            rounding: rounding, tipOnTaxed: settings.tipOnTaxed.value)
        let price = try AmountExpression.evaluate(amount, field: "amount", minorUnits: currency.minorUnits, rounding: rounding)
        let breakdown = try Breakdown.compute(price: price, currency: currency, inputs: inputs)

        let date = try d.date.map { x throws(TripError) in try clock.date(x, field: "date") } ?? old?.date ?? clock.today
        let note = try Ledger.checkText(d.note ?? old?.note ?? "", field: "note")
        let category = try (d.category ?? old?.category).flatMap { c in try Ledger.checkLabel(c, field: "category") }
        let paidWith = try (d.paidWith ?? old?.paidWith).flatMap { c in try Ledger.checkLabel(c, field: "paid-with") }
        let home = trip.homeCurrency
        let purchaseRate = try (d.rate ?? old?.purchaseRate).flatMap { r throws(TripError) in
            r.isEmpty ? nil : try Ledger.validateRate(r, field: "rate")
        }
        let charged =
            try
            (d.charged.map { c throws(TripError) -> Int64? in
                c.isEmpty ? nil : try AmountExpression.evaluate(c, field: "charged", minorUnits: home.minorUnits, rounding: rounding)
            } ?? old?.chargedMinor)
        try PurchaseBound.check(breakdown, currency: currency)
        let conversion = try convert(breakdown, currency: currency, home: home, date: date, purchaseRate: purchaseRate, charged: charged)
        try PurchaseBound.check(conversion)
        return PurchaseRow(
            tripID: trip.id, date: date, note: note, category: category, paidWith: paidWith, currency: currency,
            expression: amount.trimmingSpaces, inputs: inputs, breakdown: breakdown, preset: presetName,
            purchaseRate: purchaseRate, charged: charged, conversion: conversion, explicit: explicit)
    }

    /// The fields of `p` the user set by flag. A row that did not record them (from before m0005,
    /// or imported) counts a field as explicit when its value differs from what its preset gives,
    /// and its preset as explicit when it is not the trip's default for its currency.
    func explicitFields(of p: Purchase) -> ExplicitFields {
        if let recorded = p.explicitFields { return recorded }
        let preset = p.preset.flatMap { try? settings.preset(named: $0) }
        var e: ExplicitFields = []
        if p.inputs.discount != nil { e.insert(.discount) }
        if p.inputs.service != preset?.service { e.insert(.service) }
        if p.inputs.tax != preset?.tax { e.insert(.tax) }
        if p.inputs.taxIncluded != (preset?.taxIncluded ?? false) { e.insert(.taxIncluded) }
        if p.inputs.tip != preset?.tip { e.insert(.tip) }
        if let r = preset?.rounding, r != p.inputs.rounding { e.insert(.rounding) }
        if let trip = try? trip(id: p.tripID), p.preset != defaultPreset(of: trip, for: p.currency) { e.insert(.preset) }
        return e
    }

    /// The preset a purchase in `currency` gets from its trip when none is given.
    /// The first of the trip's presets that `applies(to:)` the currency; none when the preset is
    /// no longer configured.
    func defaultPreset(of trip: Trip, for currency: Currency) -> String? {
        trip.presets.first { name in
            (try? settings.preset(named: name))?.applies(to: currency.code, local: trip.localCurrency?.code) ?? false
        }
    }

    /// Chooses and applies the rate: `--charged` wins, then `--rate`, then `RateResolver`.
    func convert(
        _ b: Breakdown, currency: Currency, home: Currency, date: CivilDate,
        purchaseRate: String?, charged: Int64?
    ) throws -> Conversion {
        let rounding = settings.rounding.value
        if let charged {
            let effective: String
            if b.total == 0 {
                effective = "0"
            } else {
                let r = try Rational(Int128(charged), Int128(b.total)).scaled(byPowerOfTen: currency.minorUnits - home.minorUnits)
                effective = r.derivedRateText
            }
            let q = RateQuote(rate: effective, date: date, source: .charged, provisional: false)
            return try Conversion.make(breakdown: b, from: currency, to: home, quote: q, charged: charged, rounding: rounding)
        }
        if let purchaseRate {
            let q = RateQuote(rate: purchaseRate, date: date, source: .manual, provisional: false)
            return try Conversion.make(breakdown: b, from: currency, to: home, quote: q, rounding: rounding)
        }
        let q = try RateResolver(ledger: self).quote(from: currency, to: home, on: date)
        return try Conversion.make(breakdown: b, from: currency, to: home, quote: q, rounding: rounding)
    }

    /// A rate as typed: a positive plain decimal (`0.0067`, `149.25`), at most 30 digits.
    static func validateRate(_ text: String, field: String) throws(TripError) -> String {
        let t = text.trimmingSpaces
        guard let r = Rational(decimalText: t), t.first != "-" else {
            throw .badRate(field: field, value: text, reason: "is not a rate; write a positive decimal such as 0.0067")
        }
        guard r > .zero else { throw .badRate(field: field, value: text, reason: "must be greater than zero") }
        return t.first == "." ? "0" + t : t
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
