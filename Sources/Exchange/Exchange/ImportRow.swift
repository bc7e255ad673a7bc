import Rendering
import Storage
import TripCore
import TripLedger
import TripModel

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
    /// The header position of each `PurchaseCSV` column (by `ExportColumn.rawValue`), -1 when absent.
    let at: [Int]
    /// The header position of each `PurchaseTextFields.all` column, -1 when absent.
    let textAt: [Int]
    // Parsed cell texts. Rows of one file repeat a handful of trips, currencies, specs and rates,
    // so each is parsed once and later recognised by comparing its text (see `ByteMemo`).
    var trips = ByteMemo<Trip?>()
    var current: Trip?
    private var currencies = ByteMemo<Currency>()
    private var specs = ByteMemo<AdjustmentSpec>()
    private var presets = ByteMemo<String>()
    private var rates = ByteMemo<String>()
    private var roundings = ByteMemo<RoundingMode>()
    private var labels = ByteMemo<String>()
    /// The conversion factor of a rate text between two currencies' minor units, exactly as
    /// `Conversion.make` derives it (rate × 10^(home digits − currency digits)).
    private var factors: [FactorKey: Rational] = [:]
    private var fields: [String] = []
    private var number = 0
    /// When set, trip names and the current trip come from here instead of the database, so rows
    /// can be read on another thread than the connection's (see `ImportPipeline`).
    var directory: TripDirectory?
    /// What `append`'s fast path has parsed so far (see `ExportRowFastPath.swift`).
    var parsed = ParsedCells()
    /// Off: every row takes `row`'s path (tests compare the two).
    var fastPathEnabled = true
    /// On when the ledger has no current trip and no --trip was given: a row whose `trip` names no
    /// trip of the ledger creates it from the row's `trip_*` facts (only on the connection's thread).
    var createsTrips = false
    /// Group cells read so far (`members`, transfers) and the split of the row `row` just read.
    var group = GroupImport()
    var pendingSplit: GroupImport.Split?
    /// The `refund_of` of the row `row` just read (its file id and cell).
    var pendingRefundOf: (id: Int64, cell: String)?

    mutating func takeSplit() -> GroupImport.Split? {
        defer { pendingSplit = nil }
        return pendingSplit
    }

    mutating func takeRefundOf() -> (id: Int64, cell: String)? {
        defer { pendingRefundOf = nil }
        return pendingRefundOf
    }

    /// The `id` cell as the export writes it (digits), read from its bytes; `nil` when absent or not an id.
    func fileID(_ record: CSVRecord) -> Int64? {
        let i = at[ExportColumn.id.rawValue]
        guard i >= 0, i < record.count else { return nil }
        let range = record.range(i)
        guard !range.isEmpty, range.count <= 18 else { return nil }
        var v: Int64 = 0
        for b in record.bytes[range] {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            v = v * 10 + Int64(b - 0x30)
        }
        return v
    }

    init(ledger: Ledger, header: [String], trip: String?) throws {
        // A report's CSV (`reportColumns`) imports too: its extra column is derived, so ignored.
        let known = Set(PurchaseCSV.exportColumns + PurchaseCSV.reportColumns)
        let unknown = header.filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw TripError.badText(
                field: "import",
                reason: """
                    unknown column\(unknown.count == 1 ? "" : "s") \(unknown.map { quoted($0) }.joined(separator: ", ")) in the \
                    header; expected the columns of `trip export --format csv`, or give --date-column and --amount-column \
                    for a card statement
                    """)
        }
        let missing = Self.required.filter { !header.contains($0) }
        if !missing.isEmpty {
            throw TripError.badText(
                field: "import",
                reason: """
                    the header lacks the required column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")); \
                    for a card statement give --date-column and --amount-column
                    """)
        }
        at = ExportColumn.allCases.map { header.firstIndex(of: $0.name) ?? -1 }
        textAt = PurchaseTextFields.all.map { header.firstIndex(of: $0.key) ?? -1 }
        self.ledger = ledger
        forcedTrip = try trip.map { try ledger.trip(named: $0) }
        rounding = ledger.settings.rounding.value
        tipOnTaxed = ledger.settings.tipOnTaxed.value
    }

    /// The cell of `column`, or `""` when the header does not have it.
    @inline(__always)
    private func cell(_ column: ExportColumn) -> String {
        let i = at[column.rawValue]
        return i < 0 ? "" : fields[i]
    }

    private func bad(_ column: ExportColumn, _ reason: String) -> TripError {
        .badRow(row: number, column: column.name, value: cell(column), reason: reason)
    }

    /// Runs `body`, turning a field error into a row error in `column`.
    private func field<T>(_ column: ExportColumn, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as TripError { throw e.inRow(number, column: column.name, cell: cell(column)) }
    }

    mutating func row(_ fields: [String], number: Int) throws -> (PurchaseRow, Trip, UInt64) {
        self.fields = fields
        self.number = number
        pendingSplit = nil
        pendingRefundOf = nil
        let trip = try targetTrip()

        let dateText = cell(.date)
        guard isoDate(dateText) != nil else { throw bad(.date, "is not a date; the export format writes YYYY-MM-DD") }
        let currency = try currency(cell(.currency))
        let roundingText = cell(.rounding)
        let rowRounding: RoundingMode
        if roundingText.isEmpty {
            rowRounding = rounding
        } else if let m = roundings[roundingText] {
            rowRounding = m
        } else {
            guard let m = RoundingMode(userText: roundingText) else {
                throw bad(.rounding, "is not one of \(RoundingMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            roundings[roundingText] = m
            rowRounding = m
        }
        let priceText = cell(.price)
        let price = try amount(.price, minorUnits: currency.minorUnits, rounding: rowRounding)
        let expressionText = trimmed(cell(.expression))
        let expression = expressionText.isEmpty ? trimmed(priceText) : expressionText
        if expression != priceText {
            let value = try field(.expression) {
                try AmountExpression.evaluate(expression, field: "expression", minorUnits: currency.minorUnits, rounding: rowRounding)
            }
            guard value == price else {
                throw bad(.expression, "gives \(Money(minorUnits: value, currency: currency).plainText), not the price \(priceText)")
            }
        }
        let taxIncluded = try bool(.taxIncluded, default: false)
        let tax = try spec(.taxSpec)
        if taxIncluded && tax == nil { throw bad(.taxIncluded, "is true but tax_spec is empty; give the included rate, e.g. 10%") }
        _ = try spec(.discountSpec)
        _ = try spec(.serviceSpec)
        _ = try spec(.tipSpec)
        // The cells read after the money: checked now, their first error thrown once the money
        // has been checked, so a row's first error is the one it always was.
        let described = Result { () throws -> (preset: String?, note: String, kind: PurchaseKind, texts: PurchaseTexts) in
            let presetText = trimmed(cell(.preset))
            let preset = presetText.isEmpty ? nil : try presetName(presetText)
            let note = try field(.note) { try Ledger.checkText(cell(.note), field: "note") }
            _ = try text(.category)
            _ = try text(.paidWith)
            let kindText = trimmed(cell(.kind))
            guard let kind = kindText.isEmpty ? .purchase : PurchaseKind(rawValue: kindText) else {
                throw bad(.kind, "is not one of \(PurchaseKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return (preset, note, kind, try textCells())
        }
        let valid = try? described.get()

        // Every cell the builder reads is valid by now (a row whose text cells are not gets
        // placeholders, and their error after the money's).
        let entry = PurchaseEntry(
            amount: expression, price: price, currency: currency.code, note: valid?.note ?? "", date: dateText,
            category: valid == nil ? nil : cell(.category), paidWith: valid == nil ? nil : cell(.paidWith),
            discount: cell(.discountSpec), service: cell(.serviceSpec), tax: cell(.taxSpec), taxIncluded: taxIncluded,
            tip: cell(.tipSpec), preset: valid?.preset ?? "none", rounding: rowRounding.rawValue)
        let home = trip.homeCurrency
        let (cells, at) = (fields, self.at)
        let built = try PurchaseBuilder.build(
            entry, in: PurchaseContext(trip: PurchaseTrip(trip), settings: ledger.settings, clock: ledger.clock),
            lookUpRate: { _, _, _ in nil },
            recorded: { b in
                // What the row recorded must be what its price and specs give.
                try check(.discount, b.discount, currency, rowRounding)
                try check(.service, b.service, currency, rowRounding)
                try check(.tax, b.tax, currency, rowRounding)
                try check(.tip, b.tip, currency, rowRounding)
                try check(.total, b.total, currency, rowRounding)
                guard cell(.homeCurrency) == home.code else {
                    throw bad(.homeCurrency, "is not the home currency \(home.code) of trip \(quoted(trip.name))")
                }
                return try recordedConversion(currency: currency, home: home)
            },
            naming: { step, e in
                let column: ExportColumn =
                    switch step {
                    case .entry, .breakdown: .price
                    case .conversion: .rate
                    case .homeAmounts: .homeTotal
                    }
                let i = at[column.rawValue]
                return e.inRow(number, column: column.name, cell: i < 0 ? "" : cells[i])
            })
        if built.conversion.quote != nil { try checkHomeTotal(built.conversion, home: home) }
        let (preset, note, kind, texts) = try described.get()
        let inputs = built.inputs, category = built.category, paidWith = built.paidWith, charged = built.charged
        var row = PurchaseRow(built)
        row.texts = texts
        // The file's ids are not this ledger's: the link is stored after the inserts, through the
        // rows' import keys (`RefundLinks`). A refund with no `refund_of` (from a ledger that lost
        // the link) stays a refund of nothing, as it was.
        row.kind = kind
        let refundOfText = trimmed(cell(.refundOf))
        if !refundOfText.isEmpty {
            guard let of = Int64(refundOfText), of > 0, kind == .refund else {
                throw bad(.refundOf, kind == .refund ? "is not a purchase id" : "is set on a row whose kind is not refund")
            }
            pendingRefundOf = (of, cell(.refundOf))
        }
        try readMembers(trip: trip)
        pendingSplit = try split(trip: trip)

        // The purchase as paid, not its conversion: a re-rated export of the same purchases is still a duplicate.
        var h = FNV1a()
        h.add("purchase")
        h.add(trip.id)
        // `isoDate` accepts exactly the canonical YYYY-MM-DD text, which is `date.description`.
        h.add(dateText)
        h.add(currency.code)
        h.add(price)
        h.add(expression)
        h.add(inputs.discount?.description ?? "")
        h.add(inputs.service?.description ?? "")
        h.add(inputs.tax?.description ?? "")
        h.add(inputs.tip?.description ?? "")
        h.add(taxIncluded ? "1" : "0")
        h.add(rowRounding.rawValue)
        h.add(preset ?? "")
        h.add(note)
        h.add(category ?? "")
        h.add(paidWith ?? "")
        h.add(charged.map { String($0) } ?? "")
        // Only money back adds to the key, so files exported before refunds existed keep their keys.
        if kind != .purchase { h.add(kind.rawValue) }
        Self.addTexts(texts, to: &h)
        return (row, trip, h.value)
    }

    /// The row's `PurchaseTextFields` cells, each checked as its field's rule says and named by its
    /// column when it fails.
    private func textCells() throws -> PurchaseTexts {
        var texts = PurchaseTexts()
        for (i, field) in PurchaseTextFields.all.enumerated() where textAt[i] >= 0 {
            let text = fields[textAt[i]]
            do { texts[i] = try field.value(text) } catch { throw error.inRow(number, column: field.key, cell: text) }
        }
        return texts
    }

    /// A row's text fields in its import key: only those it has, so a file without them keeps its keys.
    static func addTexts(_ texts: PurchaseTexts, to h: inout FNV1a) {
        for (i, field) in PurchaseTextFields.all.enumerated() {
            guard let value = texts[i] else { continue }
            h.add(field.key)
            h.add(value)
        }
    }

    /// A `members` cell: the trip's members in join order, added on import where missing.
    private mutating func readMembers(trip: Trip) throws {
        let text = trimmed(cell(.members))
        guard !text.isEmpty else { return }
        let names = try field(.members) {
            try text.split(separator: ",", omittingEmptySubsequences: false).map { try Ledger.memberName(String($0)) }
        }
        group.members.append((trip, number, names))
    }

    /// The row's `paid_by` and `split` (both or neither), as `SplitText` reads them.
    private mutating func split(trip: Trip) throws -> GroupImport.Split? {
        let paidBy = trimmed(cell(.paidBy)), split = trimmed(cell(.split))
        if paidBy.isEmpty && split.isEmpty { return nil }
        if paidBy.isEmpty { throw bad(.paidBy, "is empty but split is given; a split needs its payers (NAME=WEIGHT,…)") }
        if split.isEmpty { throw bad(.split, "is empty but paid_by is given; name who shares it (NAME=WEIGHT,…)") }
        let payers = try field(.paidBy) { try SplitText.read(paidBy, field: "paid_by") }
        let shares = try field(.split) { try SplitText.read(split, field: "split") }
        return GroupImport.Split(
            trip: group.index(of: trip), row: number, payers: group.addList(payers), shares: group.addList(shares))
    }

    /// Takes a row of kind `transfer` aside into `group` (it is not a purchase) and returns its
    /// trip; `nil` for any other row.
    mutating func holdAside(_ record: CSVRecord, number: Int) throws -> Trip? {
        let i = at[ExportColumn.kind.rawValue]
        guard i >= 0 else { return nil }
        // Every row passes here: its kind cell is looked at as bytes, a `String` made only when spaced.
        let range = record.range(i)
        let spaced =
            !range.isEmpty && [0x20, 0x09].contains(record.bytes[range.lowerBound])
            || !range.isEmpty && [0x20, 0x09].contains(record.bytes[range.upperBound - 1])
        guard
            spaced
                ? trimmed(record.string(i)) == PurchaseCSV.transferKind
                : record.bytes[range].elementsEqual(PurchaseCSV.transferKind.utf8)
        else { return nil }
        return try transfer((0..<record.count).map { record.string($0) }, number: number)
    }

    /// A transfer row: `paid_by` pays `split` the amount (price and total), converted as recorded
    /// and checked like a purchase's conversion; no adjustment, category, preset or charged amount.
    private mutating func transfer(_ fields: [String], number: Int) throws -> Trip {
        self.fields = fields
        self.number = number
        pendingSplit = nil
        let trip = try targetTrip()
        guard let date = isoDate(cell(.date)) else { throw bad(.date, "is not a date; the export format writes YYYY-MM-DD") }
        let currency = try currency(cell(.currency))
        for column in [
            ExportColumn.discountSpec, .serviceSpec, .taxSpec, .tipSpec, .category, .paidWith, .preset, .charged,
            .refundOf,
        ] where !trimmed(cell(column)).isEmpty {
            throw bad(column, "is given on a transfer row; a transfer has an amount only")
        }
        let amount = try amount(.price, minorUnits: currency.minorUnits, rounding: rounding)
        guard amount > 0 else { throw bad(.price, "must be more than zero for a transfer") }
        let expression = trimmed(cell(.expression))
        if !expression.isEmpty && plainMinorUnits(expression, minorUnits: currency.minorUnits) != amount {
            throw bad(.expression, "is not the transfer's amount \(cell(.price))")
        }
        let b = Breakdown.unadjusted(amount)
        for column in [ExportColumn.discount, .service, .tax, .tip, .total] { try check(column, column == .total ? amount : 0, currency, rounding) }
        let home = trip.homeCurrency
        guard cell(.homeCurrency) == home.code else {
            throw bad(.homeCurrency, "is not the home currency \(home.code) of trip \(quoted(trip.name))")
        }
        let recorded = try recordedConversion(currency: currency, home: home)
        let conversion = try field(.rate) {
            try Conversion.make(
                breakdown: b, from: currency, to: home, quote: recorded.quote, charged: recorded.charged, rounding: rounding)
        }
        if recorded.quote != nil {
            try field(.homeTotal) { try PurchaseBound.check(conversion) }
            try checkHomeTotal(conversion, home: home)
        }
        let note = try field(.note) { try Ledger.checkText(cell(.note), field: "note") }
        let from = try field(.paidBy) { try Ledger.memberName(cell(.paidBy)) }
        let to = try field(.split) { try Ledger.memberName(cell(.split)) }
        if from.lowercased() == to.lowercased() { throw bad(.split, "is the member who pays; a transfer is between two members") }
        try readMembers(trip: trip)
        group.transfers.append(
            GroupImport.Transfer(
                trip: trip, row: number, from: from, to: to, date: date, amount: amount,
                currency: currency, conversion: conversion, note: note))
        return trip
    }

    /// A recorded breakdown amount (when the header has its column) must equal the recomputed one.
    @inline(__always)
    private func check(_ column: ExportColumn, _ value: Int64, _ currency: Currency, _ rounding: RoundingMode) throws {
        guard at[column.rawValue] >= 0 else { return }
        let recorded = try amount(column, minorUnits: currency.minorUnits, rounding: rounding, emptyIs: 0)
        if recorded != value {
            throw bad(column, "does not match the price and the row's specs, which give \(Money(minorUnits: value, currency: currency).plainText)")
        }
    }

    /// The row's conversion as recorded: its quote (rate, date, source, provider, fetch time,
    /// provisional flag) and charged amount, each cell checked on its own and against the others.
    private mutating func recordedConversion(currency: Currency, home: Currency) throws -> RecordedConversion {
        guard let source = RateSource(rawValue: cell(.rateSource)) else {
            throw bad(.rateSource, "is not one of \(RateSource.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let chargedText = trimmed(cell(.charged))
        if source == .none {
            for column in [ExportColumn.rate, .homeTotal, .charged] where !cell(column).isEmpty {
                throw bad(column, "is given but rate_source is none (unconverted)")
            }
            return RecordedConversion(quote: nil, charged: nil)
        }
        if source == .charged && chargedText.isEmpty { throw bad(.charged, "is empty but rate_source is charged") }
        if source != .charged && !chargedText.isEmpty {
            throw bad(.charged, "is given but rate_source is \(source.rawValue); a charged amount always has rate_source charged")
        }
        if source == .identity && currency != home { throw bad(.rateSource, "is identity but the currency is not the home currency") }
        let rateText = cell(.rate)
        let rate: String
        if let r = rates[rateText] {
            rate = r
        } else {
            rate = try field(.rate) { try Ledger.validateRate(rateText, field: "rate") }
            rates[rateText] = rate
        }
        let rateDateText = cell(.rateDate)
        var rateDate: CivilDate?
        if !rateDateText.isEmpty {
            guard let d = isoDate(rateDateText) else { throw bad(.rateDate, "is not a date; write YYYY-MM-DD") }
            rateDate = d
        }
        let provider = cell(.rateProvider), fetchedAt = cell(.rateFetchedAt)
        let quote = RateQuote(
            rate: rate, date: rateDate, source: source, provider: provider.isEmpty ? nil : provider,
            fetchedAt: fetchedAt.isEmpty ? nil : fetchedAt,
            provisional: try bool(.provisional, default: source == .fallback))
        let charged = chargedText.isEmpty ? nil : try amount(.charged, minorUnits: home.minorUnits, rounding: rounding)
        return RecordedConversion(quote: quote, charged: charged)
    }

    /// The recorded `home_total` must equal the conversion's.
    private func checkHomeTotal(_ c: Conversion, home: Currency) throws {
        let recorded = try amount(.homeTotal, minorUnits: home.minorUnits, rounding: rounding)
        guard c.home == recorded else {
            let expected = c.home.map { Money(minorUnits: $0, currency: home).plainText } ?? "nothing"
            throw bad(.homeTotal, "does not match total × rate = \(expected) (\(rounding.rawValue))")
        }
    }

    /// The factor from a currency's minor units to the home currency's at `rate`: rate ×
    /// 10^`exponent` (home digits − currency digits), as `Conversion.make` derives it. Parsed once
    /// per rate text and exponent in a file; `nil` when the rate does not parse or overflows.
    mutating func conversionFactor(rate: String, exponent: Int) -> Rational? {
        let key = FactorKey(rate: rate, exponent: exponent)
        if let f = factors[key] { return f }
        guard let r = Rational(decimalText: rate), let f = try? r.scaled(byPowerOfTen: exponent) else { return nil }
        factors[key] = f
        return f
    }

    /// `b`'s total and each adjustment at `factor`, each rounded on its own with the ledger's
    /// rounding (`Rational.timesRounded`, as `Conversion.make` rounds them); `nil` when one does
    /// not fit.
    func homeAmounts(_ b: Breakdown, factor: Rational) -> HomeAmounts? {
        let rounding = rounding
        func convert(_ v: Int64) -> Int64? { v == 0 ? 0 : factor.timesRounded(v, rounding) }
        guard let total = convert(b.total), let discount = convert(b.discount), let service = convert(b.service),
            let tax = convert(b.tax), let tip = convert(b.tip),
            [total, discount, service, tax, tip].allSatisfy(PurchaseBound.contains)
        else { return nil }
        return HomeAmounts(total: total, discount: discount, service: service, tax: tax, tip: tip)
    }

    private mutating func targetTrip() throws -> Trip {
        if let forcedTrip { return forcedTrip }
        let name = cell(.trip)
        if !name.isEmpty {
            if let cached = trips[name] {
                if let cached { return cached }
            } else if let directory {
                let t = directory.trip(named: trimmed(name))
                trips[name] = .some(t)
                if let t { return t }
            } else {
                do {
                    let t = try ledger.trip(named: trimmed(name))
                    trips[name] = t
                    return t
                } catch TripError.tripNotFound {
                    trips[name] = .some(nil)
                }
            }
        }
        if createsTrips, !trimmed(name).isEmpty { return try createTrip(named: trimmed(name)) }
        if let current { return current }
        guard let t = try directory.map({ $0.current }) ?? ledger.currentTrip() else { throw try ledger.noCurrentTrip() }
        current = t
        return t
    }

    /// The trip a row names, created as the exporting ledger had it: its `trip_*` cells (on the
    /// trip's first row of an export), else the row's home currency alone (a file from before them).
    private mutating func createTrip(named name: String) throws -> Trip {
        func fact(_ c: ExportColumn) -> String? {
            let t = trimmed(cell(c))
            return t.isEmpty ? nil : t
        }
        let new = NewTrip(
            name: name, localCurrency: fact(.tripCurrency), homeCurrency: fact(.tripHomeCurrency) ?? fact(.homeCurrency),
            start: fact(.tripStart), end: fact(.tripEnd), budget: fact(.tripBudget),
            presets: fact(.tripPresets).map { $0.split(separator: ",").map { String($0) } } ?? [])
        let t = try field(.trip) { try ledger.createTrip(new) }
        trips[cell(.trip)] = .some(t)
        directory?.add(t)
        return t
    }

    private mutating func currency(_ code: String) throws -> Currency {
        if let c = currencies[code] { return c }
        let c = try field(.currency) { try CurrencyTable.shared.currency(for: code) }
        currencies[code] = c
        return c
    }

    private mutating func spec(_ column: ExportColumn) throws -> AdjustmentSpec? {
        let text = cell(column)
        if text.isEmpty { return nil }
        if let s = specs[text] { return s }
        let s = try field(column) { try AdjustmentSpec.parse(text, field: column.name) }
        specs[text] = s
        return s
    }

    private mutating func presetName(_ text: String) throws -> String {
        if let p = presets[text] { return p }
        let p = try field(.preset) { try ledger.settings.preset(named: text).name }
        presets[text] = p
        return p
    }

    /// A label (category, paid_with): checked and made a `TextField.label` once per distinct text.
    private mutating func text(_ column: ExportColumn) throws -> String? {
        let t = cell(column)
        if t.isEmpty { return nil }
        if let l = labels[t] { return l.isEmpty ? nil : l }
        let l = try field(column) { TextField.label(try Ledger.checkText(t, field: column.name, maxBytes: 100)) }
        labels[t] = l
        return l.isEmpty ? nil : l
    }

    private func bool(_ column: ExportColumn, default value: Bool) throws -> Bool {
        switch cell(column) {
        case "": return value
        case "true": return true
        case "false": return false
        default: throw bad(column, "is not true or false")
        }
    }

    /// An amount cell: a plain decimal (as the export writes it) is read directly; anything else
    /// goes through `AmountExpression`, whose error names the value.
    private func amount(_ column: ExportColumn, minorUnits: Int, rounding: RoundingMode, emptyIs: Int64? = nil) throws -> Int64 {
        let text = cell(column)
        if text.isEmpty, let emptyIs { return emptyIs }
        if let v = plainMinorUnits(text, minorUnits: minorUnits) { return v }
        return try field(column) { try AmountExpression.evaluate(text, field: column.name, minorUnits: minorUnits, rounding: rounding) }
    }
}

/// The ledger's trips, read once inside the import's transaction (which holds the write lock, so
/// none can change before the commit), for resolving trip names without the database.
struct TripDirectory: Sendable {
    private var byName: [String: Trip] = [:]
    /// `Ledger.currentTrip()` at the start.
    let current: Trip?

    init(ledger: Ledger) throws {
        for t in try ledger.trips() { byName[Self.folded(t.name)] = t }
        current = try ledger.currentTrip()
    }

    /// Adds a trip an import just created.
    mutating func add(_ trip: Trip) { byName[Self.folded(trip.name)] = trip }

    /// The trip `Ledger.trip(named:)` finds: `trips.name` is `COLLATE NOCASE`, which ignores the
    /// case of ASCII letters only.
    func trip(named name: String) -> Trip? { byName[Self.folded(name)] }

    private static func folded(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

/// The columns of `PurchaseCSV.columns`, in order: `rawValue` is the position there.
enum ExportColumn: Int, CaseIterable {
    case id, trip, date, note, category, paidWith
    case currency, expression, price
    case discount, discountSpec, service, serviceSpec
    case tax, taxSpec, taxIncluded, tip, tipSpec
    case total, rounding, preset
    case rate, rateDate, rateSource, rateProvider, rateFetchedAt, provisional
    case homeCurrency, homeTotal, charged
    case kind, refundOf
    case paidBy, split, members
    case tripCurrency, tripHomeCurrency, tripStart, tripEnd, tripBudget, tripPresets

    var name: String { PurchaseCSV.exportColumns[rawValue] }
}

/// A breakdown's amounts in minor units of the home currency.
struct HomeAmounts {
    let total, discount, service, tax, tip: Int64
}

struct FactorKey: Hashable {
    let rate: String
    let exponent: Int
}

/// Strict `YYYY-MM-DD` (exactly `CivilDate.description`'s form) without an intermediate array.
func isoDate(_ text: String) -> CivilDate? { isoDate(utf8: text.utf8) }

func isoDate<Bytes: Sequence<UInt8>>(utf8 bytes: Bytes) -> CivilDate? {
    var y = 0, m = 0, d = 0, i = 0
    for b in bytes {
        switch i {
        case 4, 7: guard b == UInt8(ascii: "-") else { return nil }
        case 0...9:
            guard b >= 0x30 && b <= 0x39 else { return nil }
            let v = Int(b - 0x30)
            if i < 4 { y = y * 10 + v } else if i < 7 { m = m * 10 + v } else { d = d * 10 + v }
        default: return nil
        }
        i += 1
    }
    guard i == 10 else { return nil }
    return CivilDate(year: y, month: m, day: d)
}

/// `text` without leading and trailing spaces and tabs; the common untrimmed case costs two byte reads.
func trimmed(_ text: String) -> String {
    guard let first = text.utf8.first, let last = text.utf8.last else { return text }
    if first != 0x20 && first != 0x09 && last != 0x20 && last != 0x09 { return text }
    return text.trimmingSpaces
}

/// `"3240"`, `"21.71"`: digits with at most `minorUnits` decimals, as minor units; `nil` for anything else.
func plainMinorUnits(_ text: String, minorUnits: Int) -> Int64? { plainMinorUnits(utf8: text.utf8, minorUnits: minorUnits) }

func plainMinorUnits<Bytes: Sequence<UInt8>>(utf8 bytes: Bytes, minorUnits: Int) -> Int64? {
    var value: Int64 = 0
    var decimals = -1
    var digits = 0
    for b in bytes {
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
