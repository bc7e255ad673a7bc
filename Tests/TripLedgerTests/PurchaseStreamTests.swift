import Foundation
import TestSupport
import Testing
import TripCore
import TripModel

@testable import Exchange
@testable import Rendering
@testable import Storage
@testable import TripLedger

/// `trip list` and `trip export --format json` write each row straight from its columns
/// (`PurchaseStream`); these compare that output, byte for byte, with what the general renderers
/// (`Purchase.json(split:)`, `TextFormat.listRow`) make of the same purchases.
@Suite("Streamed list and JSON: the same bytes as the general renderers")
struct PurchaseStreamTests {
    /// `ExportTests.mixedTrip` (JPY with included tax and a discount, SGD with a preset, USD with a
    /// tip, KWD, a charged purchase on a card, MNT with no rate, quotes and line breaks in notes),
    /// plus a refund, a credit with a bidi override and an emoji in its note, a legacy note
    /// with controls, amounts of one cent and of many digits, and a group trip (a purchase before the members, equal, weighted,
    /// percentage and item splits, several payers, a refund of a split purchase).
    static func seeded() throws -> TestLedger {
        let t = try ExportTests.mixedTrip()
        let l = t.ledger
        _ = try l.addRefund("1", amount: "1000", date: "2026-03-03", charged: nil)
        var credit = PurchaseDraft(
            amount: "5.50", currency: "USD", note: "tax-free ☕ café", date: "2026-03-04",
            category: "Über Cafés")
        credit.kind = .credit
        _ = try l.addPurchase(credit)
        let legacy = try l.addPurchase(PurchaseDraft(amount: "0.01", currency: "USD", note: "legacy", date: "2026-03-04"))
        // A note from before the text rules: controls, a bidi override, a backslash and a quote.
        try l.database.db.run(
            "UPDATE purchases SET note = ? WHERE id = ?",
            [.text("tab\there \u{1b}[31m \u{202E}gnp.exe \\ \"q\" \u{85}"), .integer(legacy.id)])
        _ = try l.addPurchase(PurchaseDraft(amount: "10000", note: "gift", date: "2026-03-05", preset: "JP"))

        try l.createTrip(NewTrip(name: "Lisboa \"🇵🇹\"", localCurrency: "EUR", homeCurrency: "USD"))
        let trip = "Lisboa \"🇵🇹\""
        func add(_ amount: String, _ note: String, _ date: String, _ split: SplitDraft = SplitDraft(), currency: String? = nil) throws {
            var d = PurchaseDraft(amount: amount, currency: currency, note: note, date: date, rate: "1.0843")
            d.trip = trip
            _ = try l.addPurchase(d, split: split)
        }
        try add("10", "before members", "2026-03-01")
        _ = try l.addMembers(["Ana", "Ben", "Zoë"], trip: trip)
        _ = try l.whoami(set: "Ana")
        try add("100", "dinner for all", "2026-03-02")
        try add("100", "taxi", "2026-03-02", SplitDraft(paidBy: "ana=30,ben=rest", split: "ana=2,ben=1"))
        try add("77.77", "museum", "2026-03-03", SplitDraft(paidBy: "zoë", split: "ana=60%,zoë=40%"))
        try add("30", "hawker", "2026-03-03", SplitDraft(items: "ana=12.50,ben=8,ana=3,ben=rest"))
        try add("1", "a cent each", "2026-03-04", SplitDraft(split: "ana,ben,zoë"), currency: "JPY")
        _ = try l.addRefund(
            "\(try l.purchases(PurchaseFilter(trip: trip)).purchases[1].id)", amount: "20", date: "2026-03-05",
            charged: nil)
        return t
    }

    /// What `writeList` writes to a file.
    static func streamed(_ t: TestLedger, _ filter: PurchaseFilter, json: Bool) throws -> String {
        let path = t.folder.file("list-\(UUID().uuidString)")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        // A small buffer, so that rows also cross flushes.
        let out = BufferedOutput(fileDescriptor: fd, capacity: 512)
        try t.ledger.writeList(filter, json: json, to: out)
        try out.flush()
        close(fd)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The same list from `Purchase` values and the general renderers.
    static func general(_ t: TestLedger, _ filter: PurchaseFilter, json: Bool) throws -> String {
        let (trip, purchases) = try t.ledger.purchases(filter)
        if json {
            let objects = try purchases.map { try $0.json(split: t.ledger.split(of: $0)).serialized }
            return "{\"purchases\":[" + objects.joined(separator: ",") + "],\"trip\":" + JSONValue.string(trip.name).serialized + "}\n"
        }
        let (_, layout) = try t.ledger.listLayout(filter)
        guard let header = TextFormat.listHeader(trip, layout) else {
            return TextFormat.listEmpty(trip, filter: try t.ledger.unmatchedFilter(filter, trip: trip)) + "\n"
        }
        return header + purchases.map { TextFormat.listRow($0, layout) }.joined() + (TextFormat.listFooter(layout) ?? "")
    }

    static let asia = "Asia, \"loop\" 2026"
    static let filters: [PurchaseFilter] = [
        PurchaseFilter(trip: asia), PurchaseFilter(trip: asia, reverse: true), PurchaseFilter(trip: asia, limit: 3),
        PurchaseFilter(trip: asia, limit: 2, reverse: true), PurchaseFilter(trip: asia, category: "food"),
        PurchaseFilter(trip: asia, since: "2026-03-03"), PurchaseFilter(trip: asia, category: "nothing"), PurchaseFilter(),
        PurchaseFilter(trip: "Lisboa \"🇵🇹\""), PurchaseFilter(trip: "Lisboa \"🇵🇹\"", reverse: true),
        PurchaseFilter(trip: "Lisboa \"🇵🇹\"", limit: 4),
    ]

    @Test func listIsByteForByteTheGeneralRenderers() throws {
        let t = try Self.seeded()
        for filter in Self.filters {
            for json in [false, true] {
                let streamed = try Self.streamed(t, filter, json: json)
                let general = try Self.general(t, filter, json: json)
                #expect(streamed == general, "\(filter) json: \(json)")
            }
        }
        // The seeded trips do reach every case compared above.
        let lisbon = try Self.streamed(t, PurchaseFilter(trip: "Lisboa \"🇵🇹\""), json: true)
        #expect(lisbon.contains("\"split\":null"))
        #expect(lisbon.contains("\"home_share\":\"36.15\""))
        #expect(lisbon.contains("\"kind\":\"refund\""))
        let asia = try Self.streamed(t, PurchaseFilter(trip: "Asia, \"loop\" 2026"), json: false)
        #expect(asia.contains("credit [über cafés] tax-free ☕ café"))
        #expect(asia.contains("tab\\u{9}here \\u{1b}[31m \\u{202e}gnp.exe"))
        #expect(asia.contains("refund of #1 [food]"))
    }

    @Test func exportJSONIsByteForByteTheGeneralRenderer() throws {
        let t = try Self.seeded()
        var text = ""
        try t.ledger.export(.json, trip: nil, all: true) { text += $0 }
        var objects: [String] = []
        for trip in try t.ledger.trips().sorted(by: { $0.id < $1.id }) {
            for p in try t.ledger.purchases(PurchaseFilter(trip: trip.name)).purchases {
                objects.append(try p.json(split: t.ledger.split(of: p)).serialized)
            }
        }
        #expect(text == "{\"purchases\":[\n" + objects.joined(separator: ",\n") + "\n]}\n")
        #expect(objects.count == 18)
    }

    /// Text fields (`PurchaseTextFields`) go where their keys sort among the object's own: first,
    /// between two, past the conditional `shared_id`, and last; null when a row has none. The
    /// product declares none yet, so the stream is given four and each row their values.
    @Test func textFieldsTakeTheirSortedPlaces() throws {
        let t = try Self.seeded()
        let fields = [PurchaseTextField("zz_last"), PurchaseTextField("aa_first"), PurchaseTextField("receipt"), PurchaseTextField("shared_idx")]
        let splits = SplitPositions { try t.ledger.members(ofTripID: $0) }
        let stream = PurchaseStream(members: splits.members(trip:), texts: fields)
        var rows = 0
        try t.ledger.purchaseStore.forEachExportedStreamed(trip: nil, splits: splits) { row, purchase in
            let values: [String?] = [
                "R-\(purchase.id) \"q\" é", purchase.id % 2 == 0 ? nil : "first", purchase.id % 3 == 0 ? nil : "#\(purchase.id)", "x",
            ]
            var bytes: [UInt8] = []
            let shared: String?? = purchase.id % 2 == 0 ? .some("p-\(purchase.id)") : nil
            try stream.writeJSON(WithTexts(row: row, values: values), sharedID: shared, to: &bytes)
            guard case .object(var general) = try purchase.json(split: t.ledger.split(of: purchase)) else {
                Issue.record("not an object")
                return
            }
            for (field, value) in zip(fields, values) { general[field.key] = JSONValue(value) }
            // The stream writes the four it is given; `Purchase.json` every declared field.
            for declared in PurchaseTextFields.all where !fields.contains(where: { $0.key == declared.key }) {
                general[declared.key] = nil
            }
            if let shared { general["shared_id"] = JSONValue(shared) }
            #expect(String(decoding: bytes, as: UTF8.self) == JSONValue.object(general).serialized, "purchase \(purchase.id)")
            rows += 1
        }
        #expect(rows == 18)
    }

    /// A streamed row with the given text field values.
    struct WithTexts<Row: PurchaseFields>: PurchaseFields {
        let row: Row
        let values: [String?]

        func int(_ field: PurchaseField) -> Int64 { row.int(field) }
        func isNull(_ field: PurchaseField) -> Bool { row.isNull(field) }
        func bytes(_ field: PurchaseField) -> UnsafeBufferPointer<UInt8> { row.bytes(field) }
        func withText<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T {
            guard let value = values[index] else { return try body(nil) }
            return try Array(value.utf8).withUnsafeBufferPointer { try body($0) }
        }
        func readSplit(payers: inout [(index: Int, weight: Rational)], sharers: inout [(index: Int, weight: Rational)]) throws -> Bool {
            try row.readSplit(payers: &payers, sharers: &sharers)
        }
    }

    /// Money from its minor units without `Money`: every exponent, sign and digit count against
    /// `Money.plainText` and `Money.formatted`.
    @Test(arguments: [0, 2, 3, 4])
    func amountsAreWrittenAsMoneyWritesThem(exponent: Int) throws {
        let currency = Currency(code: "XTS", minorUnits: exponent, name: "test")
        var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, 999, 1000, 12_345, -12_345, 1_000_000, 123_456_789, Int64.max, Int64.min + 1]
        for d in 1...18 { values.append(Int64(pow(10, Double(d))) - 1) }
        for v in values {
            var plain: [UInt8] = [], grouped: [UInt8] = []
            appendMinorUnits(v, exponent, grouped: false, to: &plain)
            appendMinorUnits(v, exponent, grouped: true, to: &grouped)
            let money = Money(minorUnits: v, currency: currency)
            #expect(String(decoding: plain, as: UTF8.self) == money.plainText)
            #expect("XTS " + String(decoding: grouped, as: UTF8.self) == money.formatted)
            #expect(minorUnitsWidth(v, exponent, grouped: true) == grouped.count)
        }
    }
}
