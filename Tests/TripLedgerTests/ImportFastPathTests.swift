import FoundationEssentials
import Rendering
import TestSupport
import Testing
import TripCore
import TripModel

@testable import Exchange
@testable import Storage
@testable import TripLedger

/// `ExportRowImporter`'s byte-level fast path (`ExportRowFastPath.swift`) must give, for every row
/// it takes, exactly what `row` gives: the same 36 values and the same import key. Every row it
/// does not take goes to `row`, so errors are `row`'s. Both run here side by side on the same
/// records, one importer each (so each keeps its parse memos across rows, as in an import).
@Suite("trip import: the fast path and the general path agree")
struct ImportFastPathTests {
    /// Purchases of every kind the ledger makes, exported, then edited cell by cell into the
    /// spellings a person or a spreadsheet writes, valid and not.
    func rows() throws -> (header: [String], rows: [[String]], ledger: TestLedger) {
        let t = try ImportTests().sourceLedger()
        _ = try t.ledger.createTrip(NewTrip(name: "Kuwait", localCurrency: "KWD", homeCurrency: "EUR"))
        _ = try t.ledger.setManualRate(currency: "KWD", rate: "2.98", in: "EUR", date: "2026-02-01")
        let more = [
            PurchaseDraft(amount: "12.345", note: "souq, \"gold\"", category: "Shopping", tax: "5%", tip: "0.5"),
            PurchaseDraft(amount: "7.5", currency: "EUR", note: "café crème", service: "12.5%", tip: "10%"),
            PurchaseDraft(
                amount: "100", note: "hotel", category: "lodging", paidWith: "card", tax: "8%", taxIncluded: true,
                rounding: "floor"),
            PurchaseDraft(amount: "20", note: "dinner", rate: "2.9", trip: "Kuwait"),
            PurchaseDraft(amount: "0", note: "free museum"),
            PurchaseDraft(amount: "3.333", note: "tea\twith mint", discount: "100%", rounding: "ceiling"),
        ]
        for d in more { _ = try t.ledger.addPurchase(d) }
        let purchases =
            try t.ledger.purchases(PurchaseFilter(trip: "Japan 2026")).purchases
            + t.ledger.purchases(PurchaseFilter(trip: "Kuwait")).purchases
        var rows = purchases.map { PurchaseCSV.fields($0) }
        let header = PurchaseCSV.columns
        func col(_ name: String) -> Int { header.firstIndex(of: name)! }

        // A provider rate with its date, provider and fetch time, as a synced ledger exports it.
        let base = rows.first { $0[col("rate_source")] == "manual" }!
        var provider = base
        provider[col("rate_source")] = "provider"
        provider[col("rate_provider")] = "ecb"
        provider[col("rate_fetched_at")] = "2026-03-01T16:00:00Z"
        provider[col("rate_date")] = "2026-03-01"
        provider[col("provisional")] = "false"
        rows.append(provider)

        let edits: [(String, String)] = [
            ("rate", ".0067"), ("rate", " 0.0067"), ("rate", "0.00670"), ("rate", "-0.0067"), ("rate", "0"), ("rate", ""),
            ("rounding", "HALF_UP"), ("rounding", ""), ("rounding", "half-even"), ("rounding", "sideways"),
            ("tax_included", ""), ("tax_included", "TRUE"), ("provisional", ""), ("provisional", "yes"),
            ("expression", ""), ("expression", " 3600 "), ("expression", "2*1800"), ("expression", "3601"),
            ("price", " 3600"), ("price", "3600.0"), ("price", "3,600"), ("price", "03600"),
            ("category", "FOOD"), ("category", "Food "), ("category", String(repeating: "c", count: 101)), ("category", "a\u{1B}b"),
            ("paid_with", "Cash"), ("note", "tab\there"), ("note", "é"), ("note", "a\u{7F}"), ("note", ""),
            ("note", String(repeating: "n", count: 4097)), ("note", "line\nbreak"),
            ("trip", " japan 2026 "), ("trip", "JAPAN 2026"), ("trip", "Nowhere"), ("trip", ""), ("trip", "Kuwait"),
            ("home_total", "0.01"), ("home_total", ""), ("home_total", "24.12 "), ("total", "1"), ("total", ""), ("discount", ""),
            ("discount", "x"), ("home_currency", "usd"), ("home_currency", "EUR"), ("currency", "jpy"), ("currency", "XXX"),
            ("date", "2026-3-04"), ("date", "2026-02-30"), ("date", " 2026-03-01"), ("rate_date", "2026-13-01"),
            ("rate_date", ""), ("preset", "jp"), ("preset", " "), ("preset", "XX"), ("discount_spec", "10 %"),
            ("discount_spec", "10,5%"), ("discount_spec", "150%"), ("tax_spec", ""), ("tip_spec", "-5%"),
            ("rate_source", "identity"), ("rate_source", "none"), ("rate_source", "charged"), ("rate_source", "Provider"),
            ("charged", "24.12"), ("charged", " "), ("rate_provider", ""), ("rate_fetched_at", "yesterday"),
        ]
        for source in [base, provider] + rows.prefix(4) {
            for (name, value) in edits {
                var r = source
                r[col(name)] = value
                rows.append(r)
            }
        }
        // Group cells: the fast path reads those in the export's spelling; `row` the rest, and every mistake.
        let group: [(String, String, String)] = [
            ("Ana=3000,Ben=600", "Ana=1,Ben=1", "Ana,Ben"), ("Ben=1", "Ana=3/2,Ben=1", ""), ("Ana=1", "Ana=60,Ben=40", ""),
            ("Ana=1", "", ""), ("", "Ana=1", ""), ("Ana=1", "Ana=0", ""), ("Ana=1", "Ana=1,ana=1", ""), ("", "", "Ana,rest"),
        ]
        for (paidBy, split, members) in group {
            var r = base
            r[col("paid_by")] = paidBy
            r[col("split")] = split
            r[col("members")] = members
            rows.append(r)
        }
        return (header, rows, t)
    }

    @Test func everyRowGivesTheSameValuesKeyOrError() throws {
        let (header, rows, t) = try rows()
        var text = PurchaseCSV.record(header)
        for r in rows { text += PurchaseCSV.record(r) }
        let reader = CSVReader(bytes: Array(text.utf8), chunkSize: 1 << 10)
        var record = CSVRecord()
        #expect(try reader.next(into: &record))

        var fast = try ExportRowImporter(ledger: t.ledger, header: header, trip: nil)
        fast.directory = try TripDirectory(ledger: t.ledger)
        var general = fast
        general.fastPathEnabled = false
        let now = "2026-03-02T12:00:00Z"
        var number = 0, accepted = 0, rejected = 0
        while try reader.next(into: &record) {
            number += 1
            var a = PackedValues(), b = PackedValues()
            let ra = Result { try fast.append(record, number: number, to: &a, now: now) }
            let rb = Result { try general.append(record, number: number, to: &b, now: now) }
            switch (ra, rb) {
            case let (.success(x), .success(y)):
                accepted += 1
                #expect(Self.split(&fast) == Self.split(&general), "row \(number): split")
                #expect(x.0.id == y.0.id, "row \(number)")
                #expect(x.1 == y.1, "row \(number): import key")
                #expect(a.sqlValues(0..<a.count) == b.sqlValues(0..<b.count), "row \(number)")
                #expect(a.count == PurchaseRow.columnCount)
            case let (.failure(x), .failure(y)):
                rejected += 1
                #expect("\(x)" == "\(y)", "row \(number)")
                #expect(a.isEmpty && b.isEmpty)
            default:
                Issue.record("row \(number): fast path \(ra), general path \(rb)")
            }
        }
        #expect(number == rows.count)
        // The comparison means something only if both kinds of row occur, and the fast path took
        // a good share of the valid ones (the rest are its deliberate hand-overs).
        #expect(accepted > 100 && rejected > 50, "\(accepted) accepted, \(rejected) rejected")
        #expect(fast.parsed.fastRows > accepted / 5, "fast path took \(fast.parsed.fastRows) of \(accepted)")
        #expect(general.parsed.fastRows == 0)
    }

    /// The split `importer` just read, in names: `trip/row: payers | shares`; `nil` for none.
    static func split(_ importer: inout ExportRowImporter) -> String? {
        guard let s = importer.takeSplit() else { return nil }
        let g = importer.group
        func text(_ list: Int32) -> String { g.parts(list).map { "\($0.name)=\($0.weight.fractionText)" }.joined(separator: ",") }
        return "\(g.trips[Int(s.trip)].id)/\(s.row): \(text(s.payers)) | \(text(s.shares))"
    }

    /// A group trip's `trip export --format csv`: several payers with amounts, weights that are
    /// fractions, percentages and --items portions, a refund of a split purchase, an unconverted
    /// split purchase, a purchase with no split, and transfers.
    static func groupExport() throws -> String {
        let t = try TestLedger()
        _ = try t.ledger.createTrip(NewTrip(name: "Group", localCurrency: "JPY", homeCurrency: "EUR"))
        _ = try t.ledger.setManualRate(currency: "JPY", rate: "0.0061", in: nil, date: "2026-03-01")
        // From before the trip had members: no split.
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "700", note: "coffee", date: "2026-03-01"))
        _ = try t.ledger.addMembers(["Ana", "Ben", "Carla", "Dan"], trip: "Group")
        let purchases: [(PurchaseDraft, SplitDraft)] = [
            (PurchaseDraft(amount: "3000", note: "taxi", date: "2026-03-01"), SplitDraft(paidBy: "ana=1000,ben=rest", split: "ana=2,ben=1")),
            (PurchaseDraft(amount: "1001", note: "snacks", date: "2026-03-01"), SplitDraft(paidBy: "carla", split: "ana=1.5,carla=1")),
            (
                PurchaseDraft(amount: "50", currency: "EUR", note: "museum", date: "2026-03-02"),
                SplitDraft(paidBy: "dan", split: "ana=60%,ben=40%")
            ),
            (
                PurchaseDraft(amount: "3000", note: "izakaya", date: "2026-03-02", tax: "10%", tip: "10%"),
                SplitDraft(paidBy: "ben=1000,carla=rest", items: "ana=1250,ben=800,ana=300,carla=rest")
            ),
            (PurchaseDraft(amount: "12000", currency: "MNT", note: "ger camp", date: "2026-03-02"), SplitDraft(paidBy: "dan", split: "all")),
            (PurchaseDraft(amount: "2200", note: "lunch", date: "2026-03-03"), SplitDraft(paidBy: "Ana", split: "ana,ben,carla,dan")),
            (PurchaseDraft(amount: "999", note: "tea", date: "2026-03-03"), SplitDraft(paidBy: "dan=333,carla=rest", split: "dan=33.3%,carla=66.7%")),
        ]
        for (p, s) in purchases { _ = try t.ledger.addPurchase(p, split: s) }
        _ = try t.ledger.addRefund("2", amount: "1000", date: "2026-03-04", charged: nil)
        _ = try t.ledger.addTransfer(from: "Carla", to: "Ana", amount: "500", currency: nil, date: "2026-03-04", note: nil, trip: nil)
        _ = try t.ledger.addTransfer(from: "Ben", to: "Dan", amount: "5", currency: "EUR", date: "2026-03-04", note: "x", trip: nil)
        var csv = ""
        try t.ledger.export(.csv, trip: "Group", all: false) { csv += $0 }
        return csv
    }

    /// Every row of a group trip's export, read by both paths: the same values, import key and
    /// split (payers and sharers, by name and weight), and the fast path takes the split rows it
    /// can.
    @Test func groupRowsGiveTheSameValuesKeyAndSplit() throws {
        let csv = try Self.groupExport()
        let target = try TestLedger()
        _ = try target.ledger.createTrip(NewTrip(name: "Group", localCurrency: "JPY", homeCurrency: "EUR"))
        let reader = CSVReader(bytes: Array(csv.utf8), chunkSize: 1 << 10)
        var record = CSVRecord()
        #expect(try reader.next(into: &record))
        var fast = try ExportRowImporter(ledger: target.ledger, header: PurchaseCSV.columns, trip: nil)
        fast.directory = try TripDirectory(ledger: target.ledger)
        var general = fast
        general.fastPathEnabled = false
        var number = 0, splits = 0, transfers = 0
        while try reader.next(into: &record) {
            number += 1
            if try fast.holdAside(record, number: number) != nil {
                #expect(try general.holdAside(record, number: number) != nil)
                transfers += 1
                continue
            }
            var a = PackedValues(), b = PackedValues()
            let x = try fast.append(record, number: number, to: &a, now: "2026-03-05T12:00:00Z")
            let y = try general.append(record, number: number, to: &b, now: "2026-03-05T12:00:00Z")
            #expect(x.0.id == y.0.id && x.1 == y.1, "row \(number): trip and import key")
            #expect(a.sqlValues(0..<a.count) == b.sqlValues(0..<b.count), "row \(number)")
            let (sa, sb) = (Self.split(&fast), Self.split(&general))
            #expect(sa == sb, "row \(number): split")
            if sa != nil { splits += 1 }
            // The refund's link (the file's id of its purchase) is read alike, and so is each row's own id.
            #expect(fast.takeRefundOf()?.id == general.takeRefundOf()?.id, "row \(number): refund_of")
            #expect(fast.fileID(record) == general.fileID(record) && fast.fileID(record) != nil, "row \(number): id")
        }
        #expect(number == 11 && transfers == 2 && splits == 8, "\(number) rows, \(transfers) transfers, \(splits) splits")
        // All but the first (with `members`), the museum (its expression `50` is not its price
        // `50.00`), the unconverted ger camp and the refund.
        #expect(fast.parsed.fastRows == 5, "the fast path took \(fast.parsed.fastRows) rows")
    }

    /// A group trip's export imported many times over, with and without the fast path, into a
    /// ledger that has the trip and no members: identical tables (members, splits, transfers).
    @Test func groupImportsWithAndWithoutTheFastPathAreIdentical() throws {
        let csv = try Self.groupExport()
        let lines = csv.split(separator: "\r\n", omittingEmptySubsequences: true)
        let body = lines.dropFirst().joined(separator: "\r\n") + "\r\n"
        let folder = TemporaryFolder()
        let path = folder.file("group.csv")
        try (lines[0] + "\r\n" + String(repeating: body, count: 30)).write(toFile: path, atomically: true, encoding: .utf8)
        var dumps: [String] = []
        for fastPath in [true, false] {
            let t = try TestLedger()
            _ = try t.ledger.createTrip(NewTrip(name: "Group", localCurrency: "JPY", homeCurrency: "EUR"))
            var options = ImportOptions()
            options.fastPath = fastPath
            let result = try t.ledger.importPurchases(path: path, options: options, bulkThreshold: 100)
            #expect(result.imported == 9 * 30 && result.transfers == 2 * 30)
            dumps.append(try dumpLedger(t.path))
        }
        #expect(dumps[0] == dumps[1])
        #expect(dumps[0].contains("## purchase_splits\n1|"))
    }

    /// A column the store gains turns the fast path off (imports stay correct, only slower) until
    /// it declares its `fastImportDefault` or `fastAppend` writes it too.
    @Test func fastPathWritesEveryColumn() {
        let stored = PurchaseInsert.targets.map(\.field)
        let missing = stored.filter {
            !ExportRowImporter.fastColumns.contains($0) && PurchaseColumns.named[$0]?.fastImportDefault == nil
                && PurchaseColumns.named[$0]?.textField == nil
        }
        #expect(
            ExportRowImporter.fastColumnsAreCurrent,
            "the import fast path is off: it does not write \(missing) (ExportRowFastPath.swift, or the column's fastImportDefault in PurchaseColumns.swift), or not in PurchaseInsert's order"
        )
    }

    /// A column declared after the fast path's own keeps it on with its `fastImportDefault`; one
    /// without a default, or the fast path's columns out of order, turn it off.
    @Test func aLaterColumnKeepsTheFastPathOnlyWithItsDefault() throws {
        let inserted = PurchaseInsert.targets
        let texts = PurchaseTextFields.all.indices.map { ExportRowImporter.FastTail.text($0) }
        #expect(ExportRowImporter.fastTail(for: inserted) == texts)
        func receipt(_ fastDefault: SQLValue?) -> PurchaseColumn {
            PurchaseColumn(
                name: "receipt", field: "receipt", binding: .row { _ in .null }, origin: .entered,
                wire: .field(WireField("receipt", .text(max: 100), nullable: true)), fastImportDefault: fastDefault)
        }
        #expect(ExportRowImporter.fastTail(for: inserted + [receipt(.null)]) == texts + [.value(.null)])
        #expect(ExportRowImporter.fastTail(for: inserted + [receipt(.text("x")), receipt(.null)]) == texts + [.value(.text("x")), .value(.null)])
        #expect(ExportRowImporter.fastTail(for: inserted + [receipt(nil)]) == nil)
        // A text field's column needs no default: the fast path writes its cell.
        var text = receipt(nil)
        text.textField = 0
        #expect(ExportRowImporter.fastTail(for: inserted + [text, receipt(.null)]) == texts + [.text(0), .value(.null)])
        #expect(ExportRowImporter.fastTail(for: [receipt(.null)] + inserted) == nil)
        #expect(ExportRowImporter.fastTail(for: Array(inserted.dropLast())) == nil)
    }

    /// End to end: the same file imported with and without the fast path fills identical tables.
    @Test func importsWithAndWithoutTheFastPathAreIdentical() throws {
        let (header, rows, source) = try rows()
        // Only rows the general path accepts, several times over so that batches fill up.
        var good: [[String]] = []
        var probe = try ExportRowImporter(ledger: source.ledger, header: header, trip: nil)
        probe.fastPathEnabled = false
        for (i, r) in rows.enumerated() where (try? probe.row(r, number: i + 1)) != nil { good.append(r) }
        var text = PurchaseCSV.record(header)
        for copy in 0..<20 {
            for r in good {
                var r = r
                r[header.firstIndex(of: "note")!] += " #\(copy)"
                text += PurchaseCSV.record(r)
            }
        }
        let path = source.folder.file("all.csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)

        var dumps: [String] = []
        for fastPath in [true, false] {
            let t = try TestLedger()
            _ = try t.ledger.createTrip(NewTrip(name: "Japan 2026", localCurrency: "JPY", homeCurrency: "USD"))
            _ = try t.ledger.createTrip(NewTrip(name: "Kuwait", localCurrency: "KWD", homeCurrency: "EUR"))
            var options = ImportOptions()
            options.fastPath = fastPath
            let result = try t.ledger.importPurchases(path: path, options: options, bulkThreshold: 500)
            #expect(result.imported == good.count * 20)
            dumps.append(try dumpLedger(t.path))
        }
        #expect(dumps[0] == dumps[1])
    }
}
