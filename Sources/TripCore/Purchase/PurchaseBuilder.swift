/// The rules that turn what was given for a purchase into its stored values: which spec each
/// field gets, its breakdown, and how it converts to the home currency.
///
/// `trip add`, `trip edit`, `trip refund`, the card-statement import and the export-row import all
/// build their purchases here, so these rules are written once (the import's fast path computes the
/// common export row itself, with the same `Breakdown`, bound and rounding, and `ImportFastPathTests`
/// proves it equal). A field given now (by flag or cell), or
/// explicitly before, keeps its value; a preset fills only the others. The rate: a charged amount
/// wins, then `--rate`, then the rate looked up for the date.
///
/// It reads no file, database or clock: the caller passes the trip, settings and clock as values,
/// and the rate lookup as a closure. The lookup is a closure, not a second step after this one,
/// because whether it is wanted at all (no charged amount, no `--rate`, nothing recorded) is
/// itself one of these rules; a caller converting afterwards would have to repeat it.
public enum PurchaseBuilder {
    /// The ledger's rate for one unit of `from` in `to` on a date; `nil`: none, unconverted.
    public typealias RateLookup = (_ from: Currency, _ to: Currency, _ on: CivilDate) throws -> RateQuote?

    /// Where building failed, for a caller that names errors by the part of its input at fault
    /// (the export import's columns).
    public enum Step: Sendable {
        /// Reading what was given.
        case entry
        /// The breakdown, and its amounts within `PurchaseBound`.
        case breakdown
        /// Converting the breakdown at the chosen quote.
        case conversion
        /// The home amounts within `PurchaseBound`.
        case homeAmounts
    }

    /// Builds the purchase `entry` describes, on `context.trip`, inheriting from `prior` when it
    /// edits one. Throws the error of the first field at fault, passed through `naming`.
    ///
    /// `recorded`, for an export row: given the breakdown, the conversion the row recorded, which
    /// is kept instead of being chosen (and the row then records no explicit fields); `nil` for
    /// everything else. A closure so that the import checks the row's recorded amounts against the
    /// breakdown before it reads the rate cells, as it always has.
    public static func build(
        _ entry: PurchaseEntry, editing prior: PriorPurchase? = nil, in context: PurchaseContext,
        lookUpRate: RateLookup, recorded: (Breakdown) throws -> RecordedConversion? = { _ in nil },
        naming: (Step, TripError) -> any Error = { $1 }
    ) throws -> PurchaseValues {
        func step<T>(_ s: Step, _ body: () throws -> T) throws -> T {
            do { return try body() } catch let e as TripError { throw naming(s, e) }
        }
        let settings = context.settings, trip = context.trip
        // The order in which `trip add` has always reported the first error.
        let adjusted = try step(.entry) { try adjustments(entry, prior: prior, settings: settings, trip: trip) }
        let currency = adjusted.currency
        let computed = try step(.breakdown) {
            try Breakdown.compute(price: adjusted.price, currency: currency, inputs: adjusted.inputs)
        }
        let rest = try step(.entry) {
            try details(entry, prior: prior, home: trip.homeCurrency, rounding: adjusted.inputs.rounding, clock: context.clock)
        }
        let b = try step(.breakdown) {
            try PurchaseBound.check(computed, currency: currency)
            return computed
        }
        let home = trip.homeCurrency
        let rounding = settings.rounding.value
        var kept: RecordedConversion?
        let conversion = try step(.conversion) {
            if let r = try recorded(b) {
                kept = r
                return try Conversion.make(breakdown: b, from: currency, to: home, quote: r.quote, charged: r.charged, rounding: rounding)
            }
            return try convert(
                b, currency: currency, home: home, date: rest.date, purchaseRate: rest.purchaseRate, charged: rest.charged,
                chargedText: rest.chargedText, rounding: rounding, lookUpRate: lookUpRate)
        }
        try step(.homeAmounts) { try PurchaseBound.check(conversion) }
        return PurchaseValues(
            tripID: trip.id, date: rest.date, note: rest.note, category: rest.category, paidWith: rest.paidWith,
            currency: currency, expression: adjusted.expression, inputs: adjusted.inputs, breakdown: b,
            preset: adjusted.preset, purchaseRate: rest.purchaseRate, charged: kept.map(\.charged) ?? rest.charged,
            conversion: conversion,
            // A recorded row keeps no explicit fields: an edit derives them from its specs and preset.
            explicit: kept == nil ? adjusted.explicit : nil, texts: rest.texts)
    }

    /// The currency, preset, adjustments and price, as given or inherited.
    private struct Adjusted {
        let currency: Currency
        let preset: String?
        let explicit: ExplicitFields
        let inputs: AdjustmentInputs
        let expression: String
        let price: Int64
    }

    private static func adjustments(
        _ entry: PurchaseEntry, prior: PriorPurchase?, settings: Settings, trip: PurchaseTrip
    ) throws(TripError) -> Adjusted {
        let table = CurrencyTable.shared
        let currency =
            try entry.currency.map { c throws(TripError) in try table.currency(for: c) }
            ?? prior?.currency ?? trip.localCurrency ?? trip.homeCurrency
        // A field given now, or explicitly before, keeps its value; a preset fills only the others.
        var explicit = ExplicitFields(given: entry)
        if let prior { explicit.formUnion(prior.explicitFields(settings: settings)) }
        let presetName: String? = try { () throws(TripError) -> String? in
            if let p = entry.preset { return p.lowercased() == "none" ? nil : try settings.preset(named: p).name }
            // Edited in place, a purchase keeps its preset; moved to another currency or trip, it takes that one's default.
            if let prior, explicit.contains(.preset) || (prior.currency == currency && prior.trip.id == trip.id) {
                return prior.preset
            }
            return trip.defaultPreset(for: currency, settings: settings)
        }()
        let preset = try presetName.map { name throws(TripError) in try settings.preset(named: name) }
        let rounding =
            try entry.rounding.map { r throws(TripError) in
                guard let m = RoundingMode(userText: r) else {
                    throw .badChoice(field: "rounding", value: r, allowed: RoundingMode.allCases.map(\.rawValue))
                }
                return m
            } ?? (explicit.contains(.rounding) ? prior?.inputs.rounding : nil) ?? preset?.rounding
            ?? (prior?.preset == presetName ? prior?.inputs.rounding : nil) ?? settings.rounding.value

        func spec(
            _ given: String?, _ field: ExplicitFields, _ name: String, stored: AdjustmentSpec?, fromPreset: AdjustmentSpec?
        ) throws(TripError) -> AdjustmentSpec? {
            if let given {
                return given.isEmpty || given.lowercased() == "none" ? nil : try AdjustmentSpec.parse(given, field: name)
            }
            return explicit.contains(field) ? stored : fromPreset
        }
        let discount = try spec(entry.discount, .discount, "discount", stored: prior?.inputs.discount, fromPreset: nil)
        let service = try spec(entry.service, .service, "service", stored: prior?.inputs.service, fromPreset: preset?.service)
        let tax = try spec(entry.tax, .tax, "tax", stored: prior?.inputs.tax, fromPreset: preset?.tax)
        let tip = try spec(entry.tip, .tip, "tip", stored: prior?.inputs.tip, fromPreset: preset?.tip)
        let taxIncluded: Bool =
            entry.taxIncluded
            ?? {
                if entry.tax != nil { return false }
                if let prior, explicit.contains(.taxIncluded) { return prior.inputs.taxIncluded }
                return preset?.taxIncluded ?? false
            }()
        if taxIncluded && tax == nil {
            throw .usage("tax-included: give the included rate with --tax, e.g. --tax 10% --tax-included")
        }
        let inputs = AdjustmentInputs(
            discount: discount, service: service, tax: tax, taxIncluded: taxIncluded, tip: tip,
            rounding: rounding, tipOnTaxed: settings.tipOnTaxed.value)
        guard let amount = entry.amount ?? prior?.expression else { throw .usage("amount: missing; e.g. trip add 1200 JPY ramen") }
        var price: Int64
        if let given = entry.price {
            price = given
        } else {
            price = try AmountExpression.evaluate(
                amount, field: "amount", minorUnits: currency.minorUnits, rounding: rounding, currencyCode: currency.code)
        }
        return Adjusted(
            currency: currency, preset: presetName, explicit: explicit, inputs: inputs, expression: amount.trimmingSpaces,
            price: price)
    }

    /// The date, text fields, `--rate` and charged amount, as given or inherited.
    private struct Details {
        let date: CivilDate
        let note: String
        let category: String?
        let paidWith: String?
        let purchaseRate: String?
        let charged: Int64?
        /// `charged` as typed (`12`, not `12.00`): what an error about it quotes.
        let chargedText: String?
        let texts: PurchaseTexts
    }

    private static func details(
        _ entry: PurchaseEntry, prior: PriorPurchase?, home: Currency, rounding: RoundingMode, clock: Clock
    ) throws(TripError) -> Details {
        let date = try entry.date.map { x throws(TripError) in try clock.date(x, field: "date") } ?? prior?.date ?? clock.today
        let note = try TextField.check(
            entry.note ?? prior?.note ?? "", field: "note", maxBytes: TextField.noteMaxBytes, allowsLayout: true)
        let category = try (entry.category ?? prior?.category).flatMap { c throws(TripError) in try label(c, field: "category") }
        let paidWith = try (entry.paidWith ?? prior?.paidWith).flatMap { c throws(TripError) in try label(c, field: "paid-with") }
        let purchaseRate = try (entry.rate ?? prior?.purchaseRate).flatMap { r throws(TripError) in
            r.isEmpty ? nil : try RateQuote.checkedRate(r, field: "rate")
        }
        // An empty charged amount clears the stored one; none given keeps it.
        let charged =
            try entry.charged.map { c throws(TripError) -> Int64? in
                c.isEmpty
                    ? nil
                    : try AmountExpression.evaluate(c, field: "charged", minorUnits: home.minorUnits, rounding: rounding, currencyCode: home.code)
            } ?? prior?.charged
        // Each text field as given, else as the edited purchase had it.
        var texts = prior?.texts ?? PurchaseTexts()
        for (i, field) in PurchaseTextFields.all.enumerated() {
            if let given = entry.texts[field.key] { texts[i] = try field.value(given) }
        }
        return Details(
            date: date, note: note, category: category, paidWith: paidWith, purchaseRate: purchaseRate, charged: charged,
            chargedText: entry.charged.flatMap { $0.isEmpty ? nil : $0.trimmingSpaces }, texts: texts)
    }

    /// A category or payment method checked, then stored as `TextField.label` has it; nil when empty.
    private static func label(_ text: String, field: String) throws(TripError) -> String? {
        let label = TextField.label(try TextField.check(text, field: field, maxBytes: TextField.labelMaxBytes))
        return label.isEmpty ? nil : label
    }

    /// Chooses and applies the rate: the charged amount wins, then `--rate`, then `lookUpRate`.
    /// Public for what converts like a purchase without being one (a transfer between members).
    /// `chargedText` is the charged amount as the user typed it, for errors; `nil`: it was stored.
    public static func convert(
        _ breakdown: Breakdown, currency: Currency, home: Currency, date: CivilDate, purchaseRate: String?, charged: Int64?,
        chargedText: String? = nil, rounding: RoundingMode, lookUpRate: RateLookup
    ) throws -> Conversion {
        let b = breakdown
        if let charged {
            // A charged amount is a rate in disguise: zero would store a rate of 0, and a
            // home-currency purchase charged anything but its total a rate other than 1.
            let typed = chargedText ?? Money(minorUnits: charged, currency: home).plainText
            guard charged > 0 || b.total == 0 else {
                throw TripError.badAmount(
                    field: "charged", value: typed,
                    reason: "must be more than zero; leave --charged out when the card charged nothing")
            }
            if currency == home && charged != b.total {
                throw TripError.badAmount(
                    field: "charged", value: typed,
                    reason: """
                        is not the total \(Money(minorUnits: b.total, currency: home).plainText) of a purchase in the home \
                        currency \(home.code); a purchase in \(home.code) is charged its total: leave --charged out
                        """)
            }
            let q = RateQuote(
                rate: try effectiveRate(charged: charged, total: b.total, from: currency, to: home), date: date, source: .charged,
                provisional: false)
            return try Conversion.make(breakdown: b, from: currency, to: home, quote: q, charged: charged, rounding: rounding)
        }
        if let purchaseRate {
            let q = RateQuote(rate: purchaseRate, date: date, source: .manual, provisional: false)
            return try Conversion.make(breakdown: b, from: currency, to: home, quote: q, rounding: rounding)
        }
        let q = try lookUpRate(currency, home, date)
        return try Conversion.make(breakdown: b, from: currency, to: home, quote: q, rounding: rounding)
    }

    /// The rate a charged amount implies, in units of `to` per unit of `from`: charged ÷ total,
    /// scaled from minor units to whole units; `0` for a purchase of nothing.
    public static func effectiveRate(charged: Int64, total: Int64, from: Currency, to: Currency) throws -> String {
        if total == 0 { return "0" }
        return try Rational(Int128(charged), Int128(total)).scaled(byPowerOfTen: from.minorUnits - to.minorUnits).derivedRateText
    }
}

extension RateQuote {
    /// A rate as typed: a positive plain decimal (`0.0067`, `149.25`), at most 30 digits; a leading
    /// point gets its zero.
    public static func checkedRate(_ text: String, field: String) throws(TripError) -> String {
        let t = text.trimmingSpaces
        guard let r = Rational(decimalText: t), t.first != "-" else {
            throw .badRate(field: field, value: text, reason: "is not a rate; write a positive decimal such as 0.0067")
        }
        guard r > .zero else { throw .badRate(field: field, value: text, reason: "must be greater than zero") }
        return t.first == "." ? "0" + t : t
    }
}
