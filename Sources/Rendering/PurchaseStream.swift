import TripCore
import TripModel

/// `trip list` and `trip export --format json`, written straight from each row's columns.
///
/// `Purchase(row:)` and `Purchase.json` build a struct, a dictionary and a `String` per amount for
/// every row; over a long trip that was most of the time. This writer reads the same columns and
/// appends the same bytes to the output buffer: amounts are formatted from their minor units, and
/// every text that repeats (currencies, specs, rounding, kind, rate source, dates) is turned into
/// its output bytes once. What it writes is exactly what the general renderers (`Purchase.json`
/// with `json(split:)`, `TextFormat.listRow`) write for the same row: `PurchaseStreamTests`
/// compares both, byte for byte, on a ledger with every kind of row.
public final class PurchaseStream {
    /// A currency as a row names it: `Currency.stored`, its code's bytes and width in characters.
    private struct CurrencyText {
        let text: [UInt8]
        let currency: Currency
        let code: [UInt8]
        let codeWidth: Int
    }

    private let members: (Int64) throws -> [Member]
    private var currencies: [CurrencyText] = []
    private var specs = ByteMemo<[UInt8]?>()
    private var roundings = ByteMemo<[UInt8]>()
    private var sources = ByteMemo<RateSource>()
    private var kinds = ByteMemo<PurchaseKind>()
    private var date = LastDate()
    private var rateDate = LastDate()
    /// A trip's members' names (join order) as JSON strings, by trip id.
    private var names: [Int64: [[UInt8]]] = [:]
    private var weightTexts: [Rational: [UInt8]] = [:]
    private var payers: [(index: Int, weight: Rational)] = []
    private var sharers: [(index: Int, weight: Rational)] = []
    private var amounts: [Int64] = []
    private var homes: [Int64] = []
    /// The keys of the text fields, sorted as `JSONValue` sorts an object's (bytes: they are ASCII),
    /// each with its position; `writeJSON` puts each before the first of its own keys that sorts after it.
    private let textKeys: [(key: [UInt8], index: Int)]

    /// `members(tripID)`: the trip's members in join order (`Ledger.members(ofTripID:)`). `texts`:
    /// the text fields a row's `withText` gives, `PurchaseTextFields.all` but in tests.
    public init(members: @escaping (Int64) throws -> [Member], texts: [PurchaseTextField] = PurchaseTextFields.all) {
        self.members = members
        textKeys = texts.indices.map { (Array(texts[$0].key.utf8), $0) }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    }

    // MARK: JSON

    /// The JSON documents around the purchase objects, which go between `opening` and the closing,
    /// each after its `separator`. `trip list --format json`: `{"purchases":[…],"trip":NAME}`, the
    /// objects on one line. `trip export --format json`: `{"purchases":[…]}`, one object per line.
    public enum Document {
        case list(trip: String)
        case export

        public static let opening = "{\"purchases\":["

        /// What goes before an object: a comma unless it is the first, and in an export a line break.
        public func separator(first: Bool) -> String {
            switch self {
            case .list: first ? "" : ","
            case .export: first ? "\n" : ",\n"
            }
        }

        public var closing: String {
            switch self {
            case .list(let trip): "],\"trip\":" + JSONValue.string(trip).serialized + "}\n"
            case .export: "\n]}\n"
            }
        }
    }

    /// Appends row `s`'s purchase object, keys sorted, as `Purchase.json(split:)` serializes it.
    /// `sharedID`: on a shared trip the row's shared id (`.some(nil)` before its first sync), written
    /// as `shared_id`; `nil` on any other trip, whose objects have no such key. `refundOfSharedID`:
    /// a refund's purchase's shared id, written as `refund_of_shared_id` when there is one.
    public func writeJSON(
        _ s: some PurchaseFields, sharedID: String?? = nil, refundOfSharedID: String? = nil, to out: inout [UInt8]
    ) throws {
        let currency = self.currency(s, .currency)
        let home = self.currency(s, .homeCurrency)
        let source = self.source(s)
        let hasQuote = source != .none
        let total = s.int(.total)
        let homeTotal = optionalInt(s, .home)

        func money(_ c: PurchaseField) { quotedMinor(s.int(c), currency.currency.minorUnits, to: &out) }
        func homeMoney(_ v: Int64?) {
            if let v { quotedMinor(v, home.currency.minorUnits, to: &out) } else { append("null", to: &out) }
        }
        func text(_ c: PurchaseField) { jsonString(s.bytes(c), to: &out) }
        func optionalText(_ c: PurchaseField) { if s.isNull(c) { append("null", to: &out) } else { text(c) } }
        func spec(_ c: PurchaseField) {
            guard !s.isNull(c), let bytes = specText(s, c) else { return append("null", to: &out) }
            out.append(contentsOf: bytes)
        }
        func bool(_ b: Bool) { append(b ? "true" : "false", to: &out) }

        // The row's text fields, each written where its key sorts (`writeTexts`). Counted here, not
        // in a stored property of the stream: reading one at each of the object's keys made
        // `trip list --format json` 8% slower (docs/benchmarks.md, "Purchase text fields").
        let textCount = textKeys.count
        var nextText = 0
        @inline(__always) func texts(before key: StaticString?, first: Bool = false) {
            if nextText < textCount { writeTexts(before: key, first: first, next: &nextText, s, to: &out) }
        }

        out.append(UInt8(ascii: "{"))
        texts(before: "category", first: true)
        append("\"category\":", to: &out)
        optionalText(.category)
        texts(before: "charged")
        append(",\"charged\":", to: &out)
        homeMoney(optionalInt(s, .charged))
        texts(before: "converted")
        append(",\"converted\":", to: &out)
        bool(homeTotal != nil)
        texts(before: "currency")
        append(",\"currency\":", to: &out)
        jsonString(currency.code, to: &out)
        texts(before: "date")
        append(",\"date\":", to: &out)
        out.append(contentsOf: date.quoted(s.bytes(.date), fallback: true)!)
        texts(before: "discount")
        append(",\"discount\":", to: &out)
        money(.discount)
        texts(before: "discount_spec")
        append(",\"discount_spec\":", to: &out)
        spec(.discountSpec)
        texts(before: "expression")
        append(",\"expression\":", to: &out)
        text(.expression)
        texts(before: "home_amount")
        append(",\"home_amount\":", to: &out)
        homeMoney(homeTotal)
        texts(before: "home_currency")
        append(",\"home_currency\":", to: &out)
        jsonString(home.code, to: &out)
        texts(before: "home_discount")
        append(",\"home_discount\":", to: &out)
        homeMoney(optionalInt(s, .homeDiscount))
        texts(before: "home_service")
        append(",\"home_service\":", to: &out)
        homeMoney(optionalInt(s, .homeService))
        texts(before: "home_tax")
        append(",\"home_tax\":", to: &out)
        homeMoney(optionalInt(s, .homeTax))
        texts(before: "home_tip")
        append(",\"home_tip\":", to: &out)
        homeMoney(optionalInt(s, .homeTip))
        texts(before: "id")
        append(",\"id\":", to: &out)
        appendInteger(s.int(.id), to: &out)
        texts(before: "kind")
        append(",\"kind\":", to: &out)
        let kind = self.kind(s)
        jsonString(kind.rawValue, to: &out)
        texts(before: "note")
        append(",\"note\":", to: &out)
        text(.note)
        texts(before: "paid_by")
        append(",\"paid_by\":", to: &out)
        let split = try readSplit(s)
        if split {
            writeParts(payers, "paid", total: total, home: homeTotal, s, currency, home, to: &out)
        } else {
            append("null", to: &out)
        }
        texts(before: "paid_with")
        append(",\"paid_with\":", to: &out)
        optionalText(.paidWith)
        texts(before: "preset")
        append(",\"preset\":", to: &out)
        optionalText(.preset)
        texts(before: "price")
        append(",\"price\":", to: &out)
        money(.price)
        texts(before: "provisional")
        append(",\"provisional\":", to: &out)
        bool(hasQuote ? s.int(.provisional) == 1 : true)
        texts(before: "rate")
        append(",\"rate\":", to: &out)
        if hasQuote { jsonString(s.bytes(.rate), to: &out) } else { append("null", to: &out) }
        texts(before: "rate_date")
        append(",\"rate_date\":", to: &out)
        if hasQuote && !s.isNull(.rateDate),
            let d = rateDate.quoted(s.bytes(.rateDate), fallback: false)
        {
            out.append(contentsOf: d)
        } else {
            append("null", to: &out)
        }
        texts(before: "rate_fetched_at")
        append(",\"rate_fetched_at\":", to: &out)
        if hasQuote { optionalText(.rateFetchedAt) } else { append("null", to: &out) }
        texts(before: "rate_provider")
        append(",\"rate_provider\":", to: &out)
        if hasQuote { optionalText(.rateProvider) } else { append("null", to: &out) }
        texts(before: "rate_source")
        append(",\"rate_source\":", to: &out)
        jsonString(source.rawValue, to: &out)
        texts(before: "refund_of")
        append(",\"refund_of\":", to: &out)
        if let r = optionalInt(s, .refundOf) { appendInteger(r, to: &out) } else { append("null", to: &out) }
        if let refundOfSharedID {
            texts(before: "refund_of_shared_id")
            append(",\"refund_of_shared_id\":", to: &out)
            jsonString(refundOfSharedID, to: &out)
        }
        texts(before: "rounding")
        append(",\"rounding\":", to: &out)
        out.append(contentsOf: rounding(s))
        texts(before: "service")
        append(",\"service\":", to: &out)
        money(.service)
        texts(before: "service_spec")
        append(",\"service_spec\":", to: &out)
        spec(.serviceSpec)
        if let sharedID {
            texts(before: "shared_id")
            append(",\"shared_id\":", to: &out)
            if let sharedID { jsonString(sharedID, to: &out) } else { append("null", to: &out) }
        }
        texts(before: "split")
        append(",\"split\":", to: &out)
        if split {
            writeParts(sharers, "share", total: total, home: homeTotal, s, currency, home, to: &out)
        } else {
            append("null", to: &out)
        }
        texts(before: "subtotal")
        append(",\"subtotal\":", to: &out)
        quotedMinor(s.int(.price) - s.int(.discount), currency.currency.minorUnits, to: &out)
        texts(before: "tax")
        append(",\"tax\":", to: &out)
        money(.tax)
        texts(before: "tax_included")
        append(",\"tax_included\":", to: &out)
        bool(s.int(.taxIncluded) == 1)
        texts(before: "tax_spec")
        append(",\"tax_spec\":", to: &out)
        spec(.taxSpec)
        texts(before: "tip")
        append(",\"tip\":", to: &out)
        money(.tip)
        texts(before: "tip_spec")
        append(",\"tip_spec\":", to: &out)
        spec(.tipSpec)
        texts(before: "total")
        append(",\"total\":", to: &out)
        money(.total)
        texts(before: "trip")
        append(",\"trip\":", to: &out)
        text(.tripName)
        texts(before: nil)
        out.append(UInt8(ascii: "}"))
    }

    /// Writes the row's text fields from `next` on whose keys sort before `key` (all that are left
    /// when `nil`), each after a comma, or before one when `first` (`key` is then the object's first).
    private func writeTexts(
        before key: StaticString?, first: Bool, next nextText: inout Int, _ s: some PurchaseFields, to out: inout [UInt8]
    ) {
        while nextText < textKeys.count {
            let (name, index) = textKeys[nextText]
            if let key, !key.withUTF8Buffer({ name.lexicographicallyPrecedes($0) }) { return }
            if !first { out.append(UInt8(ascii: ",")) }
            jsonString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            s.withText(index) { bytes in
                if let bytes { jsonString(bytes, to: &out) } else { append("null", to: &out) }
            }
            if first { out.append(UInt8(ascii: ",")) }
            nextText += 1
        }
    }

    /// Reads the row's payers and sharers into `payers` and `sharers`; false when it has no split
    /// (none stored, or a trip without members), as `Ledger.split(of:)` says.
    private func readSplit(_ s: some PurchaseFields) throws -> Bool {
        let trip = s.int(.tripID)
        if names[trip] == nil {
            names[trip] = try members(trip).map { m in
                var n: [UInt8] = []
                JSONValue.writeString(m.name, to: &n)
                return n
            }
        }
        guard !names[trip]!.isEmpty else { return false }
        payers.removeAll(keepingCapacity: true)
        sharers.removeAll(keepingCapacity: true)
        return try s.readSplit(payers: &payers, sharers: &sharers)
    }

    /// `[{"home_paid":…,"name":…,"paid":…,"weight":…},…]`: `total` and `home` divided among
    /// `parts` by the allocation `trip balances` sums (`Allocation.divide`).
    private func writeParts(
        _ parts: [(index: Int, weight: Rational)], _ key: StaticString, total: Int64, home: Int64?,
        _ s: some PurchaseFields, _ currency: CurrencyText, _ homeCurrency: CurrencyText,
        to out: inout [UInt8]
    ) {
        let names = self.names[s.int(.tripID)]!
        // Into buffers kept from row to row: no array per row.
        amounts.removeAll(keepingCapacity: true)
        amounts.append(contentsOf: repeatElement(0, count: parts.count))
        Allocation.divide(total, among: parts) { amounts[$0] = $1 }
        homes.removeAll(keepingCapacity: true)
        if let home {
            homes.append(contentsOf: repeatElement(0, count: parts.count))
            Allocation.divide(home, among: parts) { homes[$0] = $1 }
        }
        out.append(UInt8(ascii: "["))
        for k in parts.indices {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            append("{\"home_", to: &out)
            append(key, to: &out)
            append("\":", to: &out)
            if home != nil { quotedMinor(homes[k], homeCurrency.currency.minorUnits, to: &out) } else { append("null", to: &out) }
            append(",\"name\":", to: &out)
            out.append(contentsOf: names[parts[k].index])
            append(",\"", to: &out)
            append(key, to: &out)
            append("\":", to: &out)
            quotedMinor(amounts[k], currency.currency.minorUnits, to: &out)
            append(",\"weight\":", to: &out)
            out.append(contentsOf: weightText(parts[k].weight))
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    private func weightText(_ w: Rational) -> [UInt8] {
        if let t = weightTexts[w] { return t }
        var t: [UInt8] = []
        JSONValue.writeString(w.exactDecimalText() ?? w.description, to: &t)
        weightTexts[w] = t
        return t
    }

    // MARK: text

    /// Appends row `s`'s line of `trip list`'s table, as `TextFormat.listRow` writes it.
    public func writeListRow(
        _ s: some PurchaseFields, _ layout: ListLayout, sharedID: String? = nil, refundOfSharedID: String? = nil,
        to out: inout [UInt8]
    ) {
        let currency = self.currency(s, .currency)
        let kind = self.kind(s)
        let sign = kind.sign
        // id
        let id = s.int(.id)
        let idStart = out.count
        out.append(UInt8(ascii: "#"))
        appendInteger(id, to: &out)
        if let sharedID {
            out.append(0x20)
            out.append(contentsOf: sharedID.utf8)
        }
        pad(out.count - idStart, layout.idWidth, to: &out)
        out.append(0x20)
        out.append(0x20)
        // date: always ten characters
        out.append(contentsOf: date.plain(s.bytes(.date)))
        out.append(0x20)
        out.append(0x20)
        // amount, right-aligned: `JPY 1,200`
        let total = sign * s.int(.total)
        let amountWidth = currency.codeWidth + 1 + minorUnitsWidth(total, currency.currency.minorUnits, grouped: true)
        pad(amountWidth, layout.amountWidth, to: &out)
        out.append(contentsOf: currency.code)
        out.append(0x20)
        appendMinorUnits(total, currency.currency.minorUnits, grouped: true, to: &out)
        out.append(0x20)
        out.append(0x20)
        // home amount, right-aligned, or an em dash
        let home = optionalInt(s, .home)
        if let home {
            let homeCurrency = self.currency(s, .homeCurrency)
            let v = sign * home
            pad(minorUnitsWidth(v, homeCurrency.currency.minorUnits, grouped: true), layout.homeWidth, to: &out)
            appendMinorUnits(v, homeCurrency.currency.minorUnits, grouped: true, to: &out)
        } else {
            pad(1, layout.homeWidth, to: &out)
            append("—", to: &out)
        }
        out.append(0x20)
        out.append(0x20)
        // rate flag
        let source = self.source(s)
        let flagStart = out.count
        if home == nil {
            append("none", to: &out)
        } else {
            out.append(contentsOf: source.rawValue.utf8)
            // `Conversion.provisional`: no quote counts as provisional.
            if source == .none || s.int(.provisional) == 1 { out.append(UInt8(ascii: "*")) }
        }
        pad(out.count - flagStart, layout.rateWidth, to: &out)
        out.append(0x20)
        out.append(0x20)
        // note, with what the row is and its category
        switch kind {
        case .purchase: break
        case .refund:
            append("refund of #", to: &out)
            if let r = optionalInt(s, .refundOf) { appendInteger(r, to: &out) } else { out.append(UInt8(ascii: "?")) }
            if let refundOfSharedID {
                out.append(0x20)
                out.append(contentsOf: refundOfSharedID.utf8)
            }
            out.append(0x20)
        case .credit: append("credit ", to: &out)
        }
        if !s.isNull(.category) {
            out.append(UInt8(ascii: "["))
            safeText(s.bytes(.category), to: &out)
            append("] ", to: &out)
        }
        safeText(s.bytes(.note), to: &out)
        out.append(0x0A)
    }

    /// `TextFormat.safe` of the text: printable ASCII as it is.
    private func safeText(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            out.append(contentsOf: bytes)
        } else {
            out.append(contentsOf: TextFormat.safe(String(decoding: bytes, as: UTF8.self)).utf8)
        }
    }

    // MARK: the row's repeated texts

    private func currency(_ s: some PurchaseFields, _ c: PurchaseField) -> CurrencyText {
        let bytes = s.bytes(c)
        for known in currencies where sameBytes(bytes, known.text) { return known }
        let currency = Currency.stored(String(decoding: bytes, as: UTF8.self))
        let found = CurrencyText(
            text: Array(bytes), currency: currency, code: Array(currency.code.utf8),
            codeWidth: currency.code.count)
        currencies.append(found)
        return found
    }

    /// The spec's `description` as a JSON string, or `nil` (JSON null) when it does not parse.
    private func specText(_ s: some PurchaseFields, _ c: PurchaseField) -> [UInt8]? {
        let bytes = s.bytes(c)
        if let known = specs.find(bytes) { return known }
        let spec = try? AdjustmentSpec.parse(String(decoding: bytes, as: UTF8.self), field: "stored")
        let text = spec.map { d -> [UInt8] in
            var t: [UInt8] = []
            JSONValue.writeString(d.description, to: &t)
            return t
        }
        specs.insert(bytes, text)
        return text
    }

    private func rounding(_ s: some PurchaseFields) -> [UInt8] {
        let bytes = s.bytes(.rounding)
        if let known = roundings.find(bytes) { return known }
        var t: [UInt8] = []
        JSONValue.writeString((RoundingMode(rawValue: String(decoding: bytes, as: UTF8.self)) ?? .halfUp).rawValue, to: &t)
        roundings.insert(bytes, t)
        return t
    }

    private func source(_ s: some PurchaseFields) -> RateSource {
        let bytes = s.bytes(.rateSource)
        if let known = sources.find(bytes) { return known }
        let source = RateSource(rawValue: String(decoding: bytes, as: UTF8.self)) ?? .none
        sources.insert(bytes, source)
        return source
    }

    private func kind(_ s: some PurchaseFields) -> PurchaseKind {
        let bytes = s.bytes(.kind)
        if let known = kinds.find(bytes) { return known }
        let kind = PurchaseKind(rawValue: String(decoding: bytes, as: UTF8.self)) ?? .purchase
        kinds.insert(bytes, kind)
        return kind
    }

    private func optionalInt(_ s: some PurchaseFields, _ c: PurchaseField) -> Int64? { s.isNull(c) ? nil : s.int(c) }
}

/// The fields of a stored purchase that `PurchaseStream` writes. A reader maps each to the
/// storage column of the same name.
public enum PurchaseField: Int, CaseIterable, Sendable {
    case id, tripID, tripName, date, note, category, paidWith, currency, expression, price, discount, discountSpec, service
    case serviceSpec, tax, taxSpec, taxIncluded, tip, tipSpec, total, preset, rounding, charged, homeCurrency, home
    case homeDiscount, homeService, homeTax, homeTip, rate, rateDate, rateSource, rateProvider, rateFetchedAt, provisional
    case kind, refundOf
}

/// One stored purchase as `PurchaseStream` reads it, straight from storage without building a
/// `Purchase`: each field by name, a text as its UTF-8 bytes. The ledger's streamed rows conform.
public protocol PurchaseFields {
    func int(_ field: PurchaseField) -> Int64
    func isNull(_ field: PurchaseField) -> Bool
    /// The field's text as UTF-8 bytes, valid until the reader moves to its next row. Handed out
    /// as they are rather than to a closure: the JSON list reads 20 a row, and a generic closure
    /// call across modules for each cost it 4% of its instructions (docs/benchmarks.md).
    func bytes(_ field: PurchaseField) -> UnsafeBufferPointer<UInt8>
    /// The value of `PurchaseTextFields.all[index]` as bytes, `nil` when it has none.
    func withText<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T
    /// Appends the purchase's payers and sharers, each as its member's position in the trip's
    /// join order and its weight; false when the purchase has no split.
    func readSplit(payers: inout [(index: Int, weight: Rational)], sharers: inout [(index: Int, weight: Rational)]) throws -> Bool
}

/// The last date text read and its `CivilDate.description` (rows come date by date).
private struct LastDate {
    private var text: [UInt8] = [0]
    private var plainText: [UInt8] = []
    private var quotedText: [UInt8]?

    /// The date as `Purchase` shows it: the stored date, or 1970-01-01 when it is not one.
    mutating func plain(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        update(bytes)
        return plainText
    }

    /// As a JSON string; with `fallback` false, `nil` for a text that is not a date.
    mutating func quoted(_ bytes: UnsafeBufferPointer<UInt8>, fallback: Bool) -> [UInt8]? {
        update(bytes)
        if quotedText == nil && fallback { return Array("\"1970-01-01\"".utf8) }
        return quotedText
    }

    private mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        if sameBytes(bytes, text) { return }
        text = Array(bytes)
        let date = CivilDate(iso: String(decoding: bytes, as: UTF8.self))
        plainText = Array((date ?? CivilDate(year: 1970, month: 1, day: 1)!).description.utf8)
        quotedText = date.map { Array("\"\($0.description)\"".utf8) }
    }
}

// MARK: bytes

@inline(__always)
private func append(_ s: StaticString, to out: inout [UInt8]) {
    s.withUTF8Buffer { out.append(contentsOf: $0) }
}

/// `JSONValue.writeString` of these UTF-8 bytes: printable ASCII with nothing to escape as it is.
private func jsonString(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: bytes)
        out.append(UInt8(ascii: "\""))
    } else {
        JSONValue.writeString(String(decoding: bytes, as: UTF8.self), to: &out)
    }
}

private func jsonString(_ bytes: [UInt8], to out: inout [UInt8]) {
    bytes.withUnsafeBufferPointer { jsonString($0, to: &out) }
}

private func jsonString(_ s: String, to out: inout [UInt8]) {
    JSONValue.writeString(s, to: &out)
}

private func appendInteger(_ v: Int64, to out: inout [UInt8]) {
    if v < 0 { out.append(UInt8(ascii: "-")) }
    var m = v.magnitude
    let start = out.count
    repeat {
        out.append(UInt8(48 + m % 10))
        m /= 10
    } while m > 0
    out[start...].reverse()
}

/// Characters `appendMinorUnits` writes.
func minorUnitsWidth(_ v: Int64, _ exponent: Int, grouped: Bool) -> Int {
    var digits = 1
    var m = v.magnitude
    while m >= 10 {
        m /= 10
        digits += 1
    }
    let whole = max(digits - exponent, 1)
    var n = whole + (exponent > 0 ? 1 + exponent : 0) + (v < 0 ? 1 : 0)
    if grouped { n += (whole - 1) / 3 }
    return n
}

/// `Money(minorUnits: v, …).plainText` (`Rational.render`), with `grouped` as `Money.group` has it.
func appendMinorUnits(_ v: Int64, _ exponent: Int, grouped: Bool, to out: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24 + exponent) { digits in
        var m = v.magnitude
        var n = 0
        repeat {
            digits[n] = UInt8(48 + m % 10)
            m /= 10
            n += 1
        } while m > 0
        while n <= exponent {
            digits[n] = 48
            n += 1
        }
        // digits[n-1] is the most significant.
        if v < 0 { out.append(UInt8(ascii: "-")) }
        let whole = n - exponent
        for i in 0..<whole {
            if grouped && i > 0 && (whole - i) % 3 == 0 { out.append(UInt8(ascii: ",")) }
            out.append(digits[n - 1 - i])
        }
        if exponent > 0 {
            out.append(UInt8(ascii: "."))
            for i in stride(from: exponent - 1, through: 0, by: -1) { out.append(digits[i]) }
        }
    }
}

private func quotedMinor(_ v: Int64, _ exponent: Int, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    appendMinorUnits(v, exponent, grouped: false, to: &out)
    out.append(UInt8(ascii: "\""))
}

/// Spaces that bring a cell of `width` characters to `column`: `TextFormat.pad`'s fill, written
/// before a right-aligned cell or after a left-aligned one.
private func pad(_ width: Int, _ column: Int, to out: inout [UInt8]) {
    if width < column { out.append(contentsOf: repeatElement(0x20, count: column - width)) }
}
