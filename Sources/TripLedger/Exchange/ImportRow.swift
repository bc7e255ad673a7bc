import TripCore

/// A row of the export format (`PurchaseCSV`), kept as recorded: the same price, adjustment specs,
/// rounding, preset and conversion (rate, its date, source, provider, fetch time, provisional flag,
/// charged amount), so that a fresh ledger with no rate cache reports exactly what the exporting
/// one did.
///
/// Nothing is trusted blindly: the breakdown is recomputed from the price and the specs and must
/// equal the row's amounts, and the home total is recomputed as round(total × rate) (or the charged
/// amount) and must equal the row's `home_total`. A hand-edited file that no longer adds up is
/// rejected with the row, column and value.
struct ExportRowImporter: RowImporter {
    /// Columns that must be in the header; the others default (empty text, no spec, `false`, the
    /// configured rounding) when absent.
    static let required = ["date", "currency", "price", "total", "rate", "rate_source", "home_currency", "home_total"]

    let ledger: Ledger
    let forcedTrip: Trip?
    let rounding: RoundingMode
    let tipOnTaxed: Bool
    private let at: [String: Int]
    private var trips: [String: Trip?] = [:]
    private var current: Trip?
    private var currencies: [String: Currency] = [:]
    private var specs: [String: AdjustmentSpec] = [:]
    private var presets: [String: String] = [:]
    private var rates: [String: String] = [:]
    private var fields: [String] = []
    private var number = 0

    init(ledger: Ledger, header: [String], trip: String?) throws {
        let known = Set(PurchaseCSV.columns)
        let unknown = header.filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw TripError.badText(field: "import", reason: """
                unknown column\(unknown.count == 1 ? "" : "s") \(unknown.map { quoted($0) }.joined(separator: ", ")) in the \
                header; expected the columns of `trip export --format csv`, or give --date-column and --amount-column \
                for a card statement
                """)
        }
        let missing = Self.required.filter { !header.contains($0) }
        if !missing.isEmpty {
            throw TripError.badText(field: "import", reason: """
                the header lacks the required column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")); \
                for a card statement give --date-column and --amount-column
                """)
        }
        var at: [String: Int] = [:]
        for (i, name) in header.enumerated() { at[name] = i }
        self.at = at
        self.ledger = ledger
        forcedTrip = try trip.map { try ledger.trip(named: $0) }
        rounding = ledger.settings.rounding.value
        tipOnTaxed = ledger.settings.tipOnTaxed.value
    }

    /// The cell of `column`, or `""` when the header does not have it.
    private func cell(_ column: String) -> String {
        at[column].map { fields[$0] } ?? ""
    }

    private func bad(_ column: String, _ reason: String) -> TripError {
        .badRow(row: number, column: column, value: cell(column), reason: reason)
    }

    /// Runs `body`, turning a field error into a row error in `column`.
    private func field<T>(_ column: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as TripError { throw e.inRow(number, column: column, cell: cell(column)) }
    }

    mutating func row(_ fields: [String], number: Int) throws -> (PurchaseRow, Trip, UInt64) {
        self.fields = fields
        self.number = number
        let trip = try targetTrip()

        guard let date = CivilDate(iso: cell("date")) else { throw bad("date", "is not a date; the export format writes YYYY-MM-DD") }
        let currency = try currency(cell("currency"), column: "currency")
        let roundingText = cell("rounding")
        let rowRounding: RoundingMode
        if roundingText.isEmpty { rowRounding = rounding } else {
            guard let m = RoundingMode(userText: roundingText) else {
                throw bad("rounding", "is not one of \(RoundingMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            rowRounding = m
        }
        let price = try amount("price", minorUnits: currency.minorUnits, rounding: rowRounding)
        let expressionText = trimmed(cell("expression"))
        let expression = expressionText.isEmpty ? trimmed(cell("price")) : expressionText
        if expression != cell("price") {
            let value = try field("expression") {
                try AmountExpression.evaluate(expression, field: "expression", minorUnits: currency.minorUnits, rounding: rowRounding)
            }
            guard value == price else {
                throw bad("expression", "gives \(Money(minorUnits: value, currency: currency).plainText), not the price \(cell("price"))")
            }
        }
        let taxIncluded = try bool("tax_included", default: false)
        let tax = try spec("tax_spec")
        if taxIncluded && tax == nil { throw bad("tax_included", "is true but tax_spec is empty; give the included rate, e.g. 10%") }
        let inputs = AdjustmentInputs(discount: try spec("discount_spec"), service: try spec("service_spec"), tax: tax,
                                      taxIncluded: taxIncluded, tip: try spec("tip_spec"), rounding: rowRounding,
                                      tipOnTaxed: tipOnTaxed)
        let b = try field("price") { try Breakdown.compute(price: price, currency: currency, inputs: inputs) }
        for (column, value) in [("discount", b.discount), ("service", b.service), ("tax", b.tax), ("tip", b.tip), ("total", b.total)]
        where at[column] != nil {
            let recorded = try amount(column, minorUnits: currency.minorUnits, rounding: rowRounding, emptyIs: 0)
            if recorded != value {
                throw bad(column, "does not match the price and the row's specs, which give \(Money(minorUnits: value, currency: currency).plainText)")
            }
        }

        let home = trip.homeCurrency
        guard cell("home_currency") == home.code else {
            throw bad("home_currency", "is not the home currency \(home.code) of trip \(quoted(trip.name))")
        }
        let conversion = try convert(b, currency: currency, home: home, date: date)

        let presetText = trimmed(cell("preset"))
        let preset = presetText.isEmpty ? nil : try presetName(presetText)
        let note = try field("note") { try Ledger.checkText(cell("note"), field: "note") }
        let category = try text("category")
        let paidWith = try text("paid_with")
        let charged = conversion.source == .charged ? conversion.home : nil
        let row = PurchaseRow(tripID: trip.id, date: date, note: note, category: category, paidWith: paidWith, currency: currency,
                              expression: expression, inputs: inputs, breakdown: b, preset: preset, purchaseRate: nil,
                              charged: charged, conversion: conversion)

        // The purchase as paid, not its conversion: a re-rated export of the same purchases is still a duplicate.
        var h = FNV1a()
        h.add("purchase")
        h.add(trip.id)
        h.add(date.description)
        h.add(currency.code)
        h.add(price)
        h.add(expression)
        for s in [inputs.discount, inputs.service, inputs.tax, inputs.tip] { h.add(s?.description ?? "") }
        h.add(taxIncluded ? "1" : "0")
        h.add(rowRounding.rawValue)
        h.add(preset ?? "")
        h.add(note)
        h.add(category ?? "")
        h.add(paidWith ?? "")
        h.add(charged.map { String($0) } ?? "")
        return (row, trip, h.value)
    }

    /// Checks the recorded conversion against the row's total and returns it, components included.
    private mutating func convert(_ b: Breakdown, currency: Currency, home: Currency, date: CivilDate) throws -> Conversion {
        guard let source = RateSource(rawValue: cell("rate_source")) else {
            throw bad("rate_source", "is not one of \(RateSource.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let chargedText = trimmed(cell("charged"))
        if source == .none {
            for column in ["rate", "home_total", "charged"] where !cell(column).isEmpty {
                throw bad(column, "is given but rate_source is none (unconverted)")
            }
            return try Conversion.make(breakdown: b, from: currency, to: home, quote: nil, rounding: rounding)
        }
        if source == .charged && chargedText.isEmpty { throw bad("charged", "is empty but rate_source is charged") }
        if source != .charged && !chargedText.isEmpty {
            throw bad("charged", "is given but rate_source is \(source.rawValue); a charged amount always has rate_source charged")
        }
        if source == .identity && currency != home { throw bad("rate_source", "is identity but the currency is not the home currency") }
        let rateText = cell("rate")
        let rate: String
        if let r = rates[rateText] { rate = r } else {
            rate = try field("rate") { try Ledger.validateRate(rateText, field: "rate") }
            rates[rateText] = rate
        }
        let rateDateText = cell("rate_date")
        var rateDate: CivilDate?
        if !rateDateText.isEmpty {
            guard let d = CivilDate(iso: rateDateText) else { throw bad("rate_date", "is not a date; write YYYY-MM-DD") }
            rateDate = d
        }
        let provider = cell("rate_provider"), fetchedAt = cell("rate_fetched_at")
        let quote = RateQuote(rate: rate, date: rateDate, source: source, provider: provider.isEmpty ? nil : provider,
                              fetchedAt: fetchedAt.isEmpty ? nil : fetchedAt,
                              provisional: try bool("provisional", default: source == .fallback))
        let charged = chargedText.isEmpty ? nil : try amount("charged", minorUnits: home.minorUnits, rounding: rounding)
        let c = try field("rate") {
            try Conversion.make(breakdown: b, from: currency, to: home, quote: quote, charged: charged, rounding: rounding)
        }
        let recorded = try amount("home_total", minorUnits: home.minorUnits, rounding: rounding)
        guard c.home == recorded else {
            let expected = c.home.map { Money(minorUnits: $0, currency: home).plainText } ?? "nothing"
            throw bad("home_total", "does not match total × rate = \(expected) (\(rounding.rawValue))")
        }
        return c
    }

    private mutating func targetTrip() throws -> Trip {
        if let forcedTrip { return forcedTrip }
        let name = cell("trip")
        if !name.isEmpty {
            let key = name
            if let cached = trips[key] {
                if let cached { return cached }
            } else {
                do {
                    let t = try ledger.trip(named: trimmed(name))
                    trips[key] = t
                    return t
                } catch TripError.tripNotFound {
                    trips[key] = .some(nil)
                }
            }
        }
        if let current { return current }
        guard let t = try ledger.currentTrip() else { throw TripError.noCurrentTrip }
        current = t
        return t
    }

    private mutating func currency(_ code: String, column: String) throws -> Currency {
        if let c = currencies[code] { return c }
        let c = try field(column) { try CurrencyTable.shared.currency(for: code) }
        currencies[code] = c
        return c
    }

    private mutating func spec(_ column: String) throws -> AdjustmentSpec? {
        let text = cell(column)
        if text.isEmpty { return nil }
        if let s = specs[text] { return s }
        let s = try field(column) { try AdjustmentSpec.parse(text, field: column) }
        specs[text] = s
        return s
    }

    private mutating func presetName(_ text: String) throws -> String {
        if let p = presets[text] { return p }
        let p = try field("preset") { try ledger.settings.preset(named: text).name }
        presets[text] = p
        return p
    }

    private func text(_ column: String) throws -> String? {
        let t = cell(column)
        if t.isEmpty { return nil }
        return try field(column) { try Ledger.checkText(t.lowercased(), field: column, maxBytes: 100) }
    }

    private func bool(_ column: String, default value: Bool) throws -> Bool {
        switch cell(column) {
        case "": return value
        case "true": return true
        case "false": return false
        default: throw bad(column, "is not true or false")
        }
    }

    /// An amount cell: a plain decimal (as the export writes it) is read directly; anything else
    /// goes through `AmountExpression`, whose error names the value.
    private func amount(_ column: String, minorUnits: Int, rounding: RoundingMode, emptyIs: Int64? = nil) throws -> Int64 {
        let text = cell(column)
        if text.isEmpty, let emptyIs { return emptyIs }
        if let v = plainMinorUnits(text, minorUnits: minorUnits) { return v }
        return try field(column) { try AmountExpression.evaluate(text, field: column, minorUnits: minorUnits, rounding: rounding) }
    }
}

/// `text` without leading and trailing spaces and tabs; the common untrimmed case costs two byte reads.
func trimmed(_ text: String) -> String {
    guard let first = text.utf8.first, let last = text.utf8.last else { return text }
    if first != 0x20 && first != 0x09 && last != 0x20 && last != 0x09 { return text }
    return text.trimmingSpaces
}

/// `"3240"`, `"21.71"`: digits with at most `minorUnits` decimals, as minor units; `nil` for anything else.
func plainMinorUnits(_ text: String, minorUnits: Int) -> Int64? {
    var value: Int64 = 0
    var decimals = -1
    var digits = 0
    for b in text.utf8 {
        if b == UInt8(ascii: ".") {
            guard decimals < 0 else { return nil }
            decimals = 0
            continue
        }
        guard b >= 0x30 && b <= 0x39 else { return nil }
        if decimals >= 0 { decimals += 1 }
        guard decimals <= minorUnits, digits < 18 else { return nil }
        value = value * 10 + Int64(b - 0x30)
        digits += 1
    }
    guard digits > 0, decimals != 0 else { return nil }
    for _ in 0..<(minorUnits - max(decimals, 0)) {
        let (v, o) = value.multipliedReportingOverflow(by: 10)
        if o { return nil }
        value = v
    }
    return value
}

/// A card-statement row: date, amount, currency and optionally the note, category and the amount
/// charged in the home currency. It goes through the same path as `trip add` (rate chosen as usual;
/// the charged amount wins).
struct StatementRowImporter: RowImporter {
    let ledger: Ledger
    let mapping: StatementMapping
    let trip: Trip
    private let date: Int, amount: Int
    private let currency: Int?, note: Int?, category: Int?, charged: Int?

    init(ledger: Ledger, header: [String], mapping: StatementMapping, trip: String?) throws {
        func index(_ name: String?, _ option: String) throws -> Int? {
            guard let name else { return nil }
            guard let i = header.firstIndex(of: name.trimmingSpaces) else {
                throw TripError.badText(field: "import", reason: """
                    \(option) \(quoted(name)) is not a column of the header; it has \(header.map { quoted($0) }.joined(separator: ", "))
                    """)
            }
            return i
        }
        self.ledger = ledger
        self.mapping = mapping
        date = try index(mapping.date, "--date-column")!
        amount = try index(mapping.amount, "--amount-column")!
        currency = try index(mapping.currency, "--currency-column")
        note = try index(mapping.note, "--note-column")
        category = try index(mapping.category, "--category-column")
        charged = try index(mapping.charged, "--charged-column")
        self.trip = try ledger.resolveTrip(trip)
    }

    mutating func row(_ fields: [String], number: Int) throws -> (PurchaseRow, Trip, UInt64) {
        func cell(_ i: Int?) -> String? {
            i.map { fields[$0].trimmingSpaces }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let dateText = fields[date]
        guard let day = mapping.dateFormat.parse(dateText) else {
            throw TripError.badRow(row: number, column: mapping.date, value: dateText,
                                   reason: "is not a date in the form \(mapping.dateFormat.rawValue)")
        }
        let amountText = fields[amount]
        let draft = PurchaseDraft(amount: amountText, currency: cell(currency), note: cell(note), date: day.description,
                                  category: cell(category), charged: cell(charged))
        let row: PurchaseRow
        do {
            row = try ledger.prepareRow(draft, amount: amountText, trip: trip, existing: nil)
        } catch let e as TripError {
            let (column, index): (String, Int?) = switch e {
            case .unknownCurrency, .currencyWithoutMinorUnits: (mapping.currency ?? "currency", currency)
            case .badAmount(let f, _, _), .ambiguousAmount(let f, _, _, _), .badText(let f, _):
                f == "charged" ? (mapping.charged ?? f, charged) : f == "note" ? (mapping.note ?? f, note)
                    : f == "category" ? (mapping.category ?? f, category) : (mapping.amount, amount)
            default: (mapping.amount, amount)
            }
            throw e.inRow(number, column: column, cell: index.map { fields[$0] } ?? "")
        }
        var h = FNV1a()
        h.add("statement")
        h.add(trip.id)
        h.add(day.description)
        h.add(row.currency.code)
        h.add(row.breakdown.price)
        h.add(row.note)
        h.add(row.category ?? "")
        h.add(row.charged.map { String($0) } ?? "")
        return (row, trip, h.value)
    }
}
