import Storage
import TripCore
import TripLedger
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The common export row, read straight from its bytes.
///
/// `trip import` of a file `trip export --format csv` wrote spends its time on rows that are all
/// alike: plain amounts, the expression equal to the price, a rate from a provider or the fallback
/// table, printable ASCII notes. For such a row this path does what `row` does, with the same
/// checks in the same terms, but on the cells' bytes: no `String` per cell, and each distinct
/// trip, currency, spec, rate, label and date text parsed once per file (`ByteMemo`).
///
/// It never reports an error. Any row it does not recognise as that common case (an expression,
/// a charged amount, no rate, a cell that does not parse, an amount that does not add up, any
/// non-ASCII note…) goes to `row`, which accepts it or names the row, column and value exactly as
/// before. So the fast path can only accept rows `row` accepts, with the same values and import
/// key: `ImportFastPathTests` checks both on every row of its files.
extension ExportRowImporter {
    /// The columns `fastAppend` writes itself, in its order, by `PurchaseColumns`' field names.
    static let fastColumns = [
        "tripID", "date", "note", "category", "paidWith", "currency", "expression", "price", "discountSpec", "discount",
        "serviceSpec", "service", "taxSpec", "taxIncluded", "tax", "tipSpec", "tip", "total", "rounding", "preset",
        "purchaseRate", "charged", "homeCurrency", "home", "homeDiscount", "homeService", "homeTax", "homeTip", "rate",
        "rateDate", "rateSource", "rateProvider", "rateFetchedAt", "provisional", "createdAt", "updatedAt", "explicitFields",
        "kind", "refundOf",
    ]
    /// What `fastAppend` writes for an inserted column after `fastColumns`.
    enum FastTail: Equatable {
        /// The column's `fastImportDefault`.
        case value(SQLValue)
        /// The cell of `PurchaseTextFields.all[index]`, as it is (`PurchaseTextField.isStoredAsIs`).
        case text(Int)
    }
    /// What `fastAppend` appends after `fastColumns`' values, for the inserted columns `columns`
    /// (`PurchaseInsert`'s): a text field's cell, or a later column's `fastImportDefault`. `nil`
    /// (the fast path is off) unless `columns` starts with `fastColumns`, in order, and every later
    /// one is a text field or declares its default.
    static func fastTail(for columns: [PurchaseColumn]) -> [FastTail]? {
        guard columns.prefix(fastColumns.count).map(\.field) == fastColumns else { return nil }
        var tail: [FastTail] = []
        for column in columns.dropFirst(fastColumns.count) {
            if let index = column.textField {
                tail.append(.text(index))
            } else if let value = column.fastImportDefault {
                tail.append(.value(value))
            } else {
                return nil
            }
        }
        return tail
    }
    /// `fastTail(for:)` of the inserted columns. When a migration adds a column to `purchases`
    /// declared without a `fastImportDefault` (and not a text field), the fast path turns itself
    /// off: every row takes `row`'s path, which writes the new column through `PurchaseRow`, and
    /// the import stays correct, only slower, until the column declares its default or is written
    /// here (`ImportFastPathTests` names it).
    static let fastTail = fastTail(for: PurchaseInsert.targets) ?? []
    /// Whether the fast path can write the inserted columns (`fastTail(for:)`).
    static let fastColumnsAreCurrent = fastTail(for: PurchaseInsert.targets) != nil

    mutating func append(_ record: CSVRecord, number: Int, to values: inout PackedValues, now: String) throws -> (Trip, UInt64) {
        if fastPathEnabled && Self.fastColumnsAreCurrent {
            if parsed.nowText != now {
                parsed.nowText = now
                parsed.now = Array(now.utf8)
            }
            pendingSplit = nil
            pendingRefundOf = nil
            let done = record.bytes.withUnsafeBufferPointer { fastAppend($0, record, number: number, to: &values) }
            if let done { return done }
        }
        let (row, trip, key) = try row((0..<record.count).map { record.string($0) }, number: number)
        for v in row.values(now: now, createdAt: now) { values.append(v) }
        return (trip, key)
    }

    /// The row appended to `values` with its trip and import key, or `nil` (nothing appended) when
    /// it is not the common case.
    private mutating func fastAppend(
        _ p: UnsafeBufferPointer<UInt8>, _ record: CSVRecord, number: Int,
        to values: inout PackedValues
    ) -> (Trip, UInt64)? {
        let at = self.at, textAt = self.textAt
        @inline(__always) func cell(_ c: ExportColumn) -> UnsafeBufferPointer<UInt8> {
            let i = at[c.rawValue]
            return i < 0 ? UnsafeBufferPointer(start: nil, count: 0) : UnsafeBufferPointer(rebasing: p[record.range(i)])
        }
        @inline(__always) func has(_ c: ExportColumn) -> Bool { at[c.rawValue] >= 0 }

        // Refunds and credits (and their links) take `row`'s path, which checks them.
        if has(.kind) {
            let kind = cell(.kind)
            guard kind.isEmpty || kind.elementsEqual(PurchaseKind.purchase.rawValue.utf8) else { return nil }
        }
        if has(.refundOf) && !cell(.refundOf).isEmpty { return nil }
        // A `members` cell (on a trip's first row) is `row`'s too.
        if has(.members) && !cell(.members).isEmpty { return nil }
        guard let trip = fastTrip(cell(.trip)) else { return nil }
        let dateCell = cell(.date)
        guard let date = parsed.dates.text(of: dateCell) else { return nil }
        guard let (currency, code) = fastCurrency(cell(.currency)) else { return nil }
        let minor = currency.minorUnits

        let roundingCell = cell(.rounding)
        let rowRounding: RoundingMode, roundingText: [UInt8]
        if roundingCell.isEmpty {
            if parsed.defaultRounding.isEmpty { parsed.defaultRounding = Array(rounding.rawValue.utf8) }
            (rowRounding, roundingText) = (rounding, parsed.defaultRounding)
        } else if let r = parsed.roundings.find(roundingCell) {
            (rowRounding, roundingText) = r
        } else {
            guard let m = RoundingMode(userText: String(decoding: roundingCell, as: UTF8.self)) else { return nil }
            (rowRounding, roundingText) = (m, Array(m.rawValue.utf8))
            parsed.roundings.insert(roundingCell, (rowRounding, roundingText))
        }

        // The price as the export writes it, and no other expression: `row` evaluates anything else.
        let priceCell = cell(.price)
        guard let price = plainMinorUnits(utf8: priceCell, minorUnits: minor) else { return nil }
        let expressionCell = cell(.expression)
        guard expressionCell.isEmpty || sameBytes(expressionCell, priceCell) else { return nil }

        guard let taxIncluded = Self.bool(cell(.taxIncluded), default: false) else { return nil }
        guard let discount = fastSpec(cell(.discountSpec), .discountSpec), let service = fastSpec(cell(.serviceSpec), .serviceSpec),
            let tax = fastSpec(cell(.taxSpec), .taxSpec), let tip = fastSpec(cell(.tipSpec), .tipSpec)
        else { return nil }
        if taxIncluded && tax.spec == nil { return nil }
        let inputs = AdjustmentInputs(
            discount: discount.spec, service: service.spec, tax: tax.spec, taxIncluded: taxIncluded,
            tip: tip.spec, rounding: rowRounding, tipOnTaxed: tipOnTaxed)
        guard let b = try? Breakdown.compute(price: price, currency: currency, inputs: inputs), PurchaseBound.contains(b) else {
            return nil
        }
        func matches(_ c: ExportColumn, _ value: Int64) -> Bool {
            guard has(c) else { return true }
            let text = cell(c)
            return (text.isEmpty ? 0 : plainMinorUnits(utf8: text, minorUnits: minor)) == value
        }
        guard matches(.discount, b.discount), matches(.service, b.service), matches(.tax, b.tax), matches(.tip, b.tip),
            matches(.total, b.total)
        else { return nil }

        // The conversion: a rate without a charged amount (`row` handles charged and unconverted rows).
        let home = trip.homeCurrency
        if parsed.homeTrip != trip.id {
            parsed.homeTrip = trip.id
            parsed.homeCode = Array(home.code.utf8)
        }
        guard sameBytes(cell(.homeCurrency), parsed.homeCode) else { return nil }
        guard let (source, sourceText) = fastSource(cell(.rateSource)), cell(.charged).isEmpty else { return nil }
        if source == .identity && currency != home { return nil }
        guard let (rate, rateText) = fastRate(cell(.rate)) else { return nil }
        let rateDateCell = cell(.rateDate)
        var rateDate: [UInt8]?
        if !rateDateCell.isEmpty {
            guard let d = parsed.rateDates.text(of: rateDateCell) else { return nil }
            rateDate = d
        }
        guard let provisional = Self.bool(cell(.provisional), default: source == .fallback) else { return nil }
        let exponent = home.minorUnits - minor
        let factor: Rational
        if let last = parsed.lastFactor, last.exponent == exponent, sameBytes(cell(.rate), last.cell) {
            factor = last.factor
        } else {
            guard let f = conversionFactor(rate: rate, exponent: exponent) else { return nil }
            parsed.lastFactor = (Array(cell(.rate)), exponent, f)
            factor = f
        }
        guard let converted = homeAmounts(b, factor: factor) else { return nil }
        guard plainMinorUnits(utf8: cell(.homeTotal), minorUnits: home.minorUnits) == converted.total else { return nil }

        guard let preset = fastPreset(cell(.preset)) else { return nil }
        let note = cell(.note)
        guard note.count <= TextField.noteMaxBytes, note.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else { return nil }
        guard let category = fastLabel(cell(.category), .category), let paidWith = fastLabel(cell(.paidWith), .paidWith) else {
            return nil
        }

        // A text field's cell as it is stored, or `row`'s (which tidies or refuses it).
        @inline(__always) func text(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            let i = textAt[index]
            return i < 0 ? UnsafeBufferPointer(start: nil, count: 0) : UnsafeBufferPointer(rebasing: p[record.range(i)])
        }
        for index in textAt.indices {
            let cell = text(index)
            guard cell.isEmpty || PurchaseTextFields.all[index].isStoredAsIs(cell) else { return nil }
        }

        // Last, as `row` reads it: nothing is appended for a row handed over.
        guard let split = fastSplit(paidBy: cell(.paidBy), split: cell(.split)) else { return nil }

        // `PurchaseRow.values`, in its order.
        values.appendInteger(trip.id)
        values.appendText(date)
        values.appendText(note)
        Self.appendOptional(category, to: &values)
        Self.appendOptional(paidWith, to: &values)
        values.appendText(code)
        values.appendText(priceCell)
        values.appendInteger(price)
        Self.appendOptional(discount.text, to: &values)
        values.appendInteger(b.discount)
        Self.appendOptional(service.text, to: &values)
        values.appendInteger(b.service)
        Self.appendOptional(tax.text, to: &values)
        values.appendInteger(taxIncluded ? 1 : 0)
        values.appendInteger(b.tax)
        Self.appendOptional(tip.text, to: &values)
        values.appendInteger(b.tip)
        values.appendInteger(b.total)
        values.appendText(roundingText)
        Self.appendOptional(preset, to: &values)
        values.appendNull()  // purchase_rate
        values.appendNull()  // charged_minor
        values.appendText(parsed.homeCode)
        values.appendInteger(converted.total)
        values.appendInteger(converted.discount)
        values.appendInteger(converted.service)
        values.appendInteger(converted.tax)
        values.appendInteger(converted.tip)
        values.appendText(rateText)
        Self.appendOptional(rateDate, to: &values)
        values.appendText(sourceText)
        let provider = cell(.rateProvider), fetchedAt = cell(.rateFetchedAt)
        if provider.isEmpty { values.appendNull() } else { values.appendText(provider) }
        if fetchedAt.isEmpty { values.appendNull() } else { values.appendText(fetchedAt) }
        values.appendInteger(provisional ? 1 : 0)
        values.appendText(parsed.now)
        values.appendText(parsed.now)
        values.appendNull()  // explicit_fields: not in the export; derived from the specs and preset on edit
        values.appendText(PurchaseKind.purchase.rawValue)  // kind: other kinds take `row`'s path
        values.appendNull()  // refund_of
        for tail in Self.fastTail {
            switch tail {
            case .value(let value): values.append(value)
            case .text(let index):
                let cell = text(index)
                if cell.isEmpty { values.appendNull() } else { values.appendText(cell) }
            }
        }

        parsed.fastRows += 1
        if let split { pendingSplit = GroupImport.Split(trip: group.index(of: trip), row: number, payers: split.payers, shares: split.shares) }
        // The same key as `row`'s, fed the same bytes.
        var h = ParsedCells.purchaseKeySeed
        h.add(trip.id)
        h.add(bytes: dateCell)
        h.add(bytes: code)
        h.add(price)
        h.add(bytes: priceCell)
        h.add(bytes: discount.text ?? [])
        h.add(bytes: service.text ?? [])
        h.add(bytes: tax.text ?? [])
        h.add(bytes: tip.text ?? [])
        h.add(taxIncluded ? "1" : "0")
        h.add(bytes: roundingText)
        h.add(bytes: preset ?? [])
        h.add(bytes: note)
        h.add(bytes: category ?? [])
        h.add(bytes: paidWith ?? [])
        h.add("")  // no charged amount
        // `addTexts`' order and bytes.
        for (index, field) in PurchaseTextFields.all.enumerated() where !text(index).isEmpty {
            h.add(field.key)
            h.add(bytes: text(index))
        }
        return (trip, h.value)
    }

    /// The row's split as `split(trip:)` reads it (`.some(nil)`: neither cell is given), as lists
    /// of `group`; `nil` for anything but the export's own spelling (`NAME=N` or `NAME=N/D`, ASCII,
    /// no spaces), or a mistake, which `row` names. The export repeats a few `split` cells, each
    /// read once; a `paid_by` cell holds amounts, so only its names are remembered.
    private mutating func fastSplit(paidBy: UnsafeBufferPointer<UInt8>, split: UnsafeBufferPointer<UInt8>)
        -> (payers: Int32, shares: Int32)??
    {
        if paidBy.isEmpty && split.isEmpty { return .some(nil) }
        guard !paidBy.isEmpty, !split.isEmpty else { return nil }
        let shares: Int32
        if let known = parsed.shareLists.find(split) {
            shares = known
        } else {
            guard fastParts(split) else { return nil }
            shares = group.addList(parsed.parts)
            parsed.shareLists.insert(split, shares)
        }
        guard fastParts(paidBy) else { return nil }
        return .some((group.addList(parsed.parts), shares))
    }

    /// Reads a `SplitText` cell into `parsed.parts`; `false` when `SplitText.read` might read it
    /// otherwise or refuse it.
    private mutating func fastParts(_ cell: UnsafeBufferPointer<UInt8>) -> Bool {
        parsed.parts.removeAll(keepingCapacity: true)
        // Bytes, not Characters: only ASCII, where the two split alike.
        guard cell.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return false }
        var start = 0
        while start <= cell.count {
            var end = start
            while end < cell.count && cell[end] != UInt8(ascii: ",") { end += 1 }
            var equals = start
            while equals < end && cell[equals] != UInt8(ascii: "=") { equals += 1 }
            guard equals < end, let name = fastMemberName(UnsafeBufferPointer(rebasing: cell[start..<equals])),
                let weight = Self.fastWeight(UnsafeBufferPointer(rebasing: cell[(equals + 1)..<end]))
            else { return false }
            let fold = group.folded[Int(name)]
            if parsed.parts.contains(where: { group.folded[Int($0.name)] == fold }) { return false }
            parsed.parts.append((name, weight))
            start = end + 1
        }
        return true
    }

    /// The index in `group.names` of a name as `Ledger.memberName` checks it; `nil` when it refuses it.
    private mutating func fastMemberName(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        if let known = parsed.memberNames.find(bytes) { return known }
        let name = (try? Ledger.memberName(String(decoding: bytes, as: UTF8.self))).map { group.index(ofName: $0) }
        parsed.memberNames.insert(bytes, name)
        return name
    }

    /// `N` or `N/D`, digits with no leading zero, as `SplitText` reads them; `nil` for anything else.
    private static func fastWeight(_ bytes: UnsafeBufferPointer<UInt8>) -> Rational? {
        func whole(_ range: Range<Int>) -> Int64? {
            guard !range.isEmpty, range.count <= 18, bytes[range.lowerBound] != UInt8(ascii: "0") else { return nil }
            var v: Int64 = 0
            for i in range {
                guard bytes[i] >= 0x30 && bytes[i] <= 0x39 else { return nil }
                v = v * 10 + Int64(bytes[i] - 0x30)
            }
            return v
        }
        guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")) else {
            return whole(0..<bytes.count).map { Rational(integer: Int128($0)) }
        }
        guard let n = whole(0..<slash), let d = whole((slash + 1)..<bytes.count) else { return nil }
        return try? Rational(Int128(n), Int128(d))
    }

    private static func appendOptional(_ text: [UInt8]?, to values: inout PackedValues) {
        if let text { values.appendText(text) } else { values.appendNull() }
    }

    /// `""`: the default, `true`, `false`; `nil` for anything else.
    private static func bool(_ cell: UnsafeBufferPointer<UInt8>, default value: Bool) -> Bool? {
        switch cell.count {
        case 0: return value
        case 4
        where cell[0] == UInt8(ascii: "t") && cell[1] == UInt8(ascii: "r") && cell[2] == UInt8(ascii: "u")
            && cell[3] == UInt8(ascii: "e"):
            return true
        case 5
        where cell[0] == UInt8(ascii: "f") && cell[1] == UInt8(ascii: "a") && cell[2] == UInt8(ascii: "l")
            && cell[3] == UInt8(ascii: "s") && cell[4] == UInt8(ascii: "e"):
            return false
        default: return nil
        }
    }

    /// `targetTrip` for a row read on the reading thread (from `directory`).
    private mutating func fastTrip(_ name: UnsafeBufferPointer<UInt8>) -> Trip? {
        if let forcedTrip { return forcedTrip }
        guard let directory else { return nil }
        if !name.isEmpty {
            if let known = parsed.trips.find(name) {
                if let known { return known }
            } else {
                let t = directory.trip(named: trimmed(String(decoding: name, as: UTF8.self)))
                // A trip `row` is about to create is looked up again once it exists.
                if t != nil || !createsTrips { parsed.trips.insert(name, t) }
                if let t { return t }
            }
        }
        if let current { return current }
        guard let t = directory.current else { return nil }
        current = t
        return t
    }

    private mutating func fastCurrency(_ cell: UnsafeBufferPointer<UInt8>) -> (Currency, [UInt8])? {
        if let c = parsed.currencies.find(cell) { return c }
        guard let c = try? CurrencyTable.shared.currency(for: String(decoding: cell, as: UTF8.self)) else { return nil }
        let found = (c, Array(c.code.utf8))
        parsed.currencies.insert(cell, found)
        return found
    }

    /// The spec and its stored text; both `nil` for an empty cell; `nil` when it does not parse.
    private mutating func fastSpec(_ cell: UnsafeBufferPointer<UInt8>, _ column: ExportColumn)
        -> (spec: AdjustmentSpec?, text: [UInt8]?)?
    {
        if cell.isEmpty { return (nil, nil) }
        if let s = parsed.specs.find(cell) { return (s.0, s.1) }
        guard let s = try? AdjustmentSpec.parse(String(decoding: cell, as: UTF8.self), field: column.name) else { return nil }
        let text = Array(s.description.utf8)
        parsed.specs.insert(cell, (s, text))
        return (s, text)
    }

    private mutating func fastSource(_ cell: UnsafeBufferPointer<UInt8>) -> (RateSource, [UInt8])? {
        if let s = parsed.sources.find(cell) { return s }
        guard let s = RateSource(rawValue: String(decoding: cell, as: UTF8.self)),
            s == .provider || s == .fallback || s == .manual || s == .identity
        else { return nil }
        let found = (s, Array(s.rawValue.utf8))
        parsed.sources.insert(cell, found)
        return found
    }

    private mutating func fastRate(_ cell: UnsafeBufferPointer<UInt8>) -> (String, [UInt8])? {
        if let r = parsed.rates.find(cell) { return r }
        guard let r = try? Ledger.validateRate(String(decoding: cell, as: UTF8.self), field: "rate") else { return nil }
        let found = (r, Array(r.utf8))
        parsed.rates.insert(cell, found)
        return found
    }

    /// The preset's name, `.some(nil)` for none, `nil` when it is not a preset.
    private mutating func fastPreset(_ cell: UnsafeBufferPointer<UInt8>) -> [UInt8]?? {
        if cell.isEmpty { return .some(nil) }
        if let p = parsed.presets.find(cell) { return p }
        let t = trimmed(String(decoding: cell, as: UTF8.self))
        let name: [UInt8]?
        if t.isEmpty {
            name = nil
        } else {
            guard let p = try? ledger.settings.preset(named: t) else { return nil }
            name = Array(p.name.utf8)
        }
        parsed.presets.insert(cell, name)
        return .some(name)
    }

    /// A category or paid_with label as `row` stores it (`TextField.label`); `.some(nil)` for an empty cell.
    private mutating func fastLabel(_ cell: UnsafeBufferPointer<UInt8>, _ column: ExportColumn) -> [UInt8]?? {
        if cell.isEmpty { return .some(nil) }
        if let l = parsed.labels.find(cell) { return l }
        guard let checked = try? Ledger.checkText(String(decoding: cell, as: UTF8.self), field: column.name, maxBytes: 100)
        else { return nil }
        let l = TextField.label(checked)
        if l.isEmpty { return nil }  // `row` stores no label; leave the row to it
        let label = Array(l.utf8)
        parsed.labels.insert(cell, label)
        return .some(label)
    }
}

/// The fast path's memory of the cell texts it has parsed in one file.
struct ParsedCells {
    var trips = ByteMemo<Trip?>()
    var currencies = ByteMemo<(Currency, [UInt8])>()
    var roundings = ByteMemo<(RoundingMode, [UInt8])>()
    var specs = ByteMemo<(AdjustmentSpec, [UInt8])>()
    var sources = ByteMemo<(RateSource, [UInt8])>()
    var rates = ByteMemo<(String, [UInt8])>()
    var presets = ByteMemo<[UInt8]?>()
    var labels = ByteMemo<[UInt8]>()
    var dates = DateMemo()
    var rateDates = DateMemo()
    var defaultRounding: [UInt8] = []
    /// The last row's trip and its home currency code.
    var homeTrip: Int64 = -1
    var homeCode: [UInt8] = []
    var nowText = ""
    /// The last rate cell, its exponent (home minus currency minor units) and conversion factor.
    var lastFactor: (cell: [UInt8], exponent: Int, factor: Rational)?
    /// Rows this path took.
    var fastRows = 0
    /// `split` cells read, as lists of `ExportRowImporter.group`; member names read, as indices of its `names`.
    var shareLists = ByteMemo<Int32>()
    var memberNames = ByteMemo<Int32?>()
    /// The parts `fastParts` read last.
    var parts: [(name: Int32, weight: Rational)] = []
    var now: [UInt8] = []

    /// FNV-1a after `add("purchase")`, where every purchase key starts.
    static let purchaseKeySeed: FNV1a = {
        var h = FNV1a()
        h.add("purchase")
        return h
    }()
}

/// The last date cell seen and its `CivilDate.description` bytes (equal to the cell, which
/// `isoDate` accepts only in that exact form): a file's rows come day by day.
struct DateMemo {
    private var cell: [UInt8] = []
    private var description: [UInt8] = []

    /// The date's stored text, or `nil` when the cell is not a valid `YYYY-MM-DD` date.
    mutating func text(of bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        if !cell.isEmpty && sameBytes(bytes, cell) { return description }
        guard let d = isoDate(utf8: bytes) else { return nil }
        cell = Array(bytes)
        description = Array(d.description.utf8)
        return description
    }
}

extension FNV1a {
    /// The same as `add(_: String)` of the string with these UTF-8 bytes.
    mutating func add<Bytes: Sequence<UInt8>>(bytes: Bytes) {
        for b in bytes { addByte(b) }
        addByte(0x1F)
    }
}
