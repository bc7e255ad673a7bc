import Foundation
import Rendering
import TestSupport
import Testing
import TripCore
import TripModel

@testable import Exchange
@testable import Storage
@testable import TripLedger

@Suite("CSVReader: RFC 4180, streamed")
struct CSVReaderTests {
    struct Good: Sendable, CustomStringConvertible {
        let name: String
        let input: String
        let records: [[String]]
        var description: String { name }
    }

    static let good: [Good] = [
        Good(name: "plain, CRLF", input: "a,b\r\n1,2\r\n", records: [["a", "b"], ["1", "2"]]),
        Good(name: "LF, no trailing newline", input: "a,b\n1,2", records: [["a", "b"], ["1", "2"]]),
        Good(name: "quoted comma", input: "a,b\n\"x, y\",2\n", records: [["a", "b"], ["x, y", "2"]]),
        Good(name: "doubled quotes", input: "a,b\n\"say \"\"hi\"\"\",\"\"\"\"\n", records: [["a", "b"], ["say \"hi\"", "\""]]),
        Good(
            name: "newline inside quotes", input: "a,b\r\n\"line1\r\nline2\nline3\",2\r\n", records: [["a", "b"], ["line1\r\nline2\nline3", "2"]]),
        Good(name: "BOM", input: "\u{FEFF}a,b\n1,2\n", records: [["a", "b"], ["1", "2"]]),
        Good(name: "empty fields", input: "a,b,c\n,,\n\"\",x,\n", records: [["a", "b", "c"], ["", "", ""], ["", "x", ""]]),
        Good(name: "blank lines skipped", input: "a\n\n1\r\n\r\n2\n\n", records: [["a"], ["1"], ["2"]]),
        Good(name: "quote inside an unquoted field is literal", input: "a,b\n5\" screen,2\n", records: [["a", "b"], ["5\" screen", "2"]]),
        Good(name: "UTF-8 text", input: "note\nラーメン · café\n", records: [["note"], ["ラーメン · café"]]),
        Good(name: "lone CR ends a record", input: "a,b\r1,2\r", records: [["a", "b"], ["1", "2"]]),
        Good(name: "empty input", input: "", records: []),
    ]

    @Test(arguments: good, [1, 2, 3, 1 << 16])
    func reads(_ c: Good, chunkSize: Int) throws {
        let r = CSVReader(bytes: Array(c.input.utf8), chunkSize: chunkSize)
        var out: [[String]] = []
        while let rec = try r.next() { out.append(rec) }
        #expect(out == c.records)
    }

    struct Bad: Sendable, CustomStringConvertible {
        let name: String
        let input: String
        let record: Int
        let reason: String
        var description: String { name }
    }

    static let bad: [Bad] = [
        Bad(name: "unbalanced quote", input: "a,b\n1,2\n3,\"open\n4,5\n", record: 3, reason: "unbalanced quote"),
        Bad(name: "too few fields", input: "a,b,c\n1,2,3\n1,2\n", record: 3, reason: "has 2 fields; the header has 3"),
        Bad(name: "too many fields", input: "a,b\n1,2,3\n", record: 2, reason: "has 3 fields; the header has 2"),
        Bad(name: "text after closing quote", input: "a,b\n\"x\"y,2\n", record: 2, reason: "after a closing quote"),
        Bad(name: "not UTF-8", input: "a\n\u{FF}\n", record: 2, reason: "not valid UTF-8"),
    ]

    @Test(arguments: bad, [1, 1 << 16])
    func rejects(_ c: Bad, chunkSize: Int) throws {
        var bytes = Array(c.input.utf8)
        if c.name == "not UTF-8" { bytes = Array("a\n".utf8) + [0xFF, 0x0A] }
        let r = CSVReader(bytes: bytes, chunkSize: chunkSize)
        do {
            while try r.next() != nil {}
            Issue.record("no error for \(c.name)")
        } catch {
            #expect(error.record == c.record)
            #expect(error.reason.contains(c.reason), "\(error.reason)")
        }
    }

    @Test func readsAFileDescriptorInChunks() throws {
        let folder = TemporaryFolder()
        let path = folder.file("x.csv")
        var text = "a,b\r\n"
        for i in 0..<5000 { text += "\(i),\"v\r\n\(i)\"\r\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let r = CSVReader(fileDescriptor: fd, chunkSize: 7)
        var count = 0
        _ = try r.next()
        while let rec = try r.next() {
            #expect(rec == [String(count), "v\r\n\(count)"])
            count += 1
        }
        #expect(count == 5000)
    }
}

@Suite("trip import on a real ledger")
struct ImportTests {
    /// A trip in several currencies, with presets, a charged purchase, a fallback rate and an
    /// unconverted MNT purchase.
    func sourceLedger() throws -> TestLedger {
        let t = try TestLedger()
        _ = try t.ledger.createTrip(NewTrip(name: "Japan 2026", localCurrency: "JPY", homeCurrency: "USD", preset: "JP"))
        _ = try t.ledger.setManualRate(currency: "JPY", rate: "0.0067", in: nil, date: "2026-03-01")
        let drafts = [
            PurchaseDraft(amount: "3*1200", note: "ramen", category: "food", discount: "10%"),
            PurchaseDraft(amount: "25", currency: "SGD", note: "chilli crab, \"spicy\"", category: "food", preset: "SG"),
            PurchaseDraft(amount: "48.50", currency: "USD", note: "JFK dinner", tax: "8.875%", tip: "20%"),
            PurchaseDraft(amount: "180", currency: "SGD", note: "hotel\nroom 2", category: "lodging", charged: "134.12"),
            PurchaseDraft(amount: "35000", currency: "MNT", note: "ger camp"),
            PurchaseDraft(amount: "1,200", note: "taxi", category: "transport", paidWith: "cash", rounding: "half-even"),
            PurchaseDraft(amount: "12.345", currency: "KWD", note: "souq", date: "2026-02-28", discount: "1"),
            PurchaseDraft(amount: "3*1200", note: "ramen", category: "food", discount: "10%"),
        ]
        for d in drafts { _ = try t.ledger.addPurchase(d) }
        return t
    }

    func writeCSV(_ purchases: [Purchase], to path: String) throws {
        var text = PurchaseCSV.record(PurchaseCSV.columns)
        for p in purchases { text += PurchaseCSV.record(PurchaseCSV.fields(p)) }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func freshLedger() throws -> TestLedger {
        let t = try TestLedger()
        _ = try t.ledger.createTrip(NewTrip(name: "Japan 2026", localCurrency: "JPY", homeCurrency: "USD"))
        return t
    }

    @Test func roundTripGivesAnIdenticalReport() throws {
        let a = try sourceLedger()
        let before = try a.ledger.purchases(PurchaseFilter()).purchases
        #expect(Set(before.map(\.conversion.source)) == [.manual, .fallback, .identity, .charged, .none])
        let path = a.folder.file("export.csv")
        try writeCSV(before, to: path)

        let b = try freshLedger()
        let result = try b.ledger.importPurchases(path: path, options: ImportOptions())
        #expect(result.counts == ImportResult(imported: before.count, skipped: 0, trips: ["Japan 2026"]))

        let ra = try a.ledger.report(trip: nil), rb = try b.ledger.report(trip: nil)
        #expect(ra.purchaseCount == rb.purchaseCount)
        #expect(ra.totals == rb.totals)
        #expect(ra.byCategory == rb.byCategory)
        #expect(ra.byCurrency == rb.byCurrency)
        #expect(ra.provenance == rb.provenance)
        #expect(ra.unconverted == rb.unconverted)
        #expect(ra.provisionalCount == rb.provisionalCount)
        #expect(ra.firstDate == rb.firstDate && ra.lastDate == rb.lastDate)

        let after = try b.ledger.purchases(PurchaseFilter()).purchases
        #expect(after.count == before.count)
        for (x, y) in zip(before, after) {
            #expect(x.date == y.date && x.note == y.note && x.category == y.category && x.paidWith == y.paidWith)
            #expect(x.currency == y.currency && x.expression == y.expression && x.preset == y.preset)
            #expect(x.inputs == y.inputs)
            #expect(x.breakdown == y.breakdown)
            #expect(x.conversion == y.conversion, "\(x.note)")
            #expect(x.chargedMinor == y.chargedMinor)
        }
        // And the new ledger exports the same rows, ids aside (they are the new ledger's own).
        #expect(after.map { PurchaseCSV.fields($0).dropFirst() } == before.map { PurchaseCSV.fields($0).dropFirst() })
    }

    @Test func reimportSkipsEveryRowAndIdenticalRowsBothImport() throws {
        let a = try sourceLedger()
        let path = a.folder.file("export.csv")
        try writeCSV(try a.ledger.purchases(PurchaseFilter()).purchases, to: path)
        let b = try freshLedger()
        let first = try b.ledger.importPurchases(path: path, options: ImportOptions())
        #expect(first.imported == 8)  // the two identical ramen rows both count
        let second = try b.ledger.importPurchases(path: path, options: ImportOptions())
        #expect(second.counts == ImportResult(imported: 0, skipped: 8, trips: ["Japan 2026"]))
        #expect(try b.ledger.purchases(PurchaseFilter()).purchases.count == 8)
        #expect(second.text == "imported 0 purchases into \"Japan 2026\" (8 duplicates skipped)")
        // Bulk mode (indexes dropped, keys checked in memory, indexes recreated) recognises them too.
        let indexes =
            "SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_master WHERE tbl_name = 'purchases' AND type = 'index' ORDER BY name)"
        let before = try b.ledger.database.db.scalarText(indexes)
        let bulk = try b.ledger.importPurchases(path: path, options: ImportOptions(), bulkThreshold: 1)
        #expect(bulk.counts == ImportResult(imported: 0, skipped: 8, trips: ["Japan 2026"]))
        #expect(try b.ledger.database.db.scalarText(indexes) == before)
        let c = try freshLedger()
        let fresh = try c.ledger.importPurchases(path: path, options: ImportOptions(), bulkThreshold: 3)
        #expect(fresh.imported == 8)
        #expect(try c.ledger.report(trip: nil).totals == a.ledger.report(trip: nil).totals)
        #expect(second.json.serialized == #"{"imported":0,"skipped":8,"transfers":0,"trip":"Japan 2026","trips":["Japan 2026"]}"#)
    }

    @Test func aHandEditedHomeTotalIsARowErrorAndNothingIsWritten() throws {
        let a = try sourceLedger()
        let path = a.folder.file("export.csv")
        try writeCSV(try a.ledger.purchases(PurchaseFilter()).purchases, to: path)
        let edited = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: ",USD,21.71,", with: ",USD,21.72,")
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        let b = try freshLedger()
        // Row 1 is the KWD purchase (listed first by date); the ramen is row 2.
        #expect(
            throws: TripError.badRow(
                row: 2, column: "home_total", value: "21.72",
                reason: "does not match total × rate = 21.71 (half-up)")
        ) {
            try b.ledger.importPurchases(path: path, options: ImportOptions())
        }
        #expect(try b.ledger.purchases(PurchaseFilter()).purchases.isEmpty)
    }

    /// A row with two faults names the first in the order the import has always checked them:
    /// the price and specs, the amounts they give, the home currency, the rate cells, home_total,
    /// then the preset, note, labels and kind.
    @Test(arguments: [
        (("total", "1"), ("preset", "XX"), "total"),
        (("total", "1"), ("rate", "x"), "total"),
        (("discount", "1"), ("home_currency", "EUR"), "discount"),
        (("home_currency", "EUR"), ("note", "a\u{7F}"), "home_currency"),
        (("home_total", "0.01"), ("category", "a\u{1B}b"), "home_total"),
        (("rate", "x"), ("kind", "gift"), "rate"),
        (("preset", "XX"), ("kind", "gift"), "preset"),
        (("tip_spec", "-5%"), ("total", "1"), "tip_spec"),
    ])
    func theFirstFaultOfARowIsTheOneNamed(_ first: (String, String), _ second: (String, String), column: String) throws {
        let a = try sourceLedger()
        let ramen = try #require(a.ledger.purchases(PurchaseFilter()).purchases.first { $0.note == "ramen" })
        let header = PurchaseCSV.columns
        var fields = PurchaseCSV.fields(ramen)
        for (name, value) in [first, second] { fields[header.firstIndex(of: name)!] = value }
        var importer = try ExportRowImporter(ledger: a.ledger, header: header, trip: nil)
        #expect {
            _ = try importer.row(fields, number: 1)
        } throws: { error in
            guard case .badRow(_, let named, _, _) = error as? TripError else { return false }
            return named == column
        }
    }

    @Test func headerWithUnknownOrMissingColumnsIsRejected() throws {
        let b = try freshLedger()
        let unknown = b.folder.file("u.csv")
        try (PurchaseCSV.columns + ["colour"]).joined(separator: ",").write(toFile: unknown, atomically: true, encoding: .utf8)
        #expect { try b.ledger.importPurchases(path: unknown, options: ImportOptions()) } throws: { e in
            "\(e)".contains("unknown column \"colour\"")
        }
        let missing = b.folder.file("m.csv")
        try PurchaseCSV.columns.filter { $0 != "home_total" }.joined(separator: ",")
            .write(toFile: missing, atomically: true, encoding: .utf8)
        #expect { try b.ledger.importPurchases(path: missing, options: ImportOptions()) } throws: { e in
            "\(e)".contains("lacks the required column home_total")
        }
    }

    @Test func cardStatementWithChargedColumn() throws {
        let b = try freshLedger()
        _ = try b.ledger.setManualRate(currency: "JPY", rate: "0.0067", in: nil, date: "2026-03-01")
        let path = b.folder.file("card.csv")
        try """
        Transaction Date,Description,Amount,Currency,Billed Amount\r
        03/02/2026,"Coffee, Shibuya",450,JPY,3.05\r
        03/02/2026,"Coffee, Shibuya",450,JPY,3.05\r
        04/02/2026,Taxi,"1,200",JPY,\r
        05/02/2026,Dinner,48.50,USD,\r

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let mapping = StatementMapping(
            date: "Transaction Date", amount: "Amount", currency: "Currency", note: "Description",
            charged: "Billed Amount", dateFormat: DatePattern("DD/MM/YYYY"))
        let r = try b.ledger.importPurchases(path: path, options: ImportOptions(statement: mapping))
        #expect(r.imported == 4 && r.skipped == 0 && r.trips == ["Japan 2026"])
        let ps = try b.ledger.purchases(PurchaseFilter()).purchases
        #expect(ps.map(\.date.description) == ["2026-02-03", "2026-02-03", "2026-02-04", "2026-02-05"])
        #expect(ps[0].note == "Coffee, Shibuya")
        #expect(ps[0].conversion.source == .charged && ps[0].conversion.home == 305 && ps[0].chargedMinor == 305)
        #expect(ps[2].breakdown.price == 1200 && ps[2].conversion.source == .manual && ps[2].conversion.home == 804)
        #expect(ps[3].conversion.source == .identity && ps[3].conversion.home == 4850)
        let again = try b.ledger.importPurchases(path: path, options: ImportOptions(statement: mapping))
        #expect(again.imported == 0 && again.skipped == 4)
    }

    @Test func cardStatementErrorNamesRowColumnAndValue() throws {
        let b = try freshLedger()
        let path = b.folder.file("card.csv")
        try "Date,Amount\n2026-03-01,450\n2026-03-02,\"12,34,5\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        // A file that names no currency, in a trip of two, must say which.
        var options = ImportOptions(statement: StatementMapping(date: "Date", amount: "Amount"))
        options.statementOptions.currency = "JPY"
        #expect {
            try b.ledger.importPurchases(path: path, options: options)
        } throws: { e in "\(e)" == #"import: row 2, column Amount: "12,34,5" is not a valid number"# }
        #expect(try b.ledger.purchases(PurchaseFilter()).purchases.isEmpty)
    }

    @Test(arguments: [
        ("2026-03-04", "YYYY-MM-DD"), ("4/3/2026", "DD/MM/YYYY"), ("03/04/2026", "MM/DD/YYYY"), ("04.03.2026", "DD.MM.YYYY"),
        ("04-03-2026", "DD-MM-YYYY"), ("2026-03-04 6:11:59", "YYYY-MM-DD HH:MM:SS"), ("Mar 4, 2026", "MMM D, YYYY"),
        ("2026 March 4", "YYYY MMMM D"), ("4 Mar 2026", "D MMM YYYY"),
    ])
    func statementDateFormats(_ text: String, _ pattern: String) {
        #expect(DatePattern(pattern)?.parse(text)?.description == "2026-03-04")
    }

    @Test func aYearlessDateIsInTheLatestYearNotInTheFuture() {
        let today = CivilDate(year: 2026, month: 3, day: 10)!
        #expect(DatePattern("MMMM D")?.parse("September 15") == nil)
        #expect(DatePattern.latestYear(month: 9, day: 15, notAfter: today) == 2025)
        #expect(DatePattern.latestYear(month: 3, day: 10, notAfter: today) == 2026)
    }

    @Test func importKeysCountOccurrences() {
        var keys = ImportKeys()
        let a = keys.key(for: 42), b = keys.key(for: 42), c = keys.key(for: 7)
        #expect(a != b && a != c && b != c)
        var again = ImportKeys()
        #expect(again.key(for: 42) == a && again.key(for: 42) == b)
    }

    @Test func foreignKeysAreOnAgainAfterAnImportAndADeletedTripIsCaught() throws {
        let a = try sourceLedger()
        let path = a.folder.file("export.csv")
        try writeCSV(try a.ledger.purchases(PurchaseFilter()).purchases, to: path)
        let b = try freshLedger()
        _ = try b.ledger.importPurchases(path: path, options: ImportOptions())
        #expect(try b.ledger.database.db.scalarInt("PRAGMA foreign_keys") == 1)
        #expect(throws: TripError.self) { try b.ledger.verifyTrips([999]) }
        try b.ledger.verifyTrips([try b.ledger.trip(named: "Japan 2026").id])
    }

    @Test(arguments: [
        "2026-03-04", "0999-12-31", "2024-02-29", "2025-02-29", "2026-3-04", "2026/03/04", "2026-03-04 ",
        "20260304", "2026-13-01", "0000-01-01", "", "2026-03-0x",
    ])
    func isoDateIsCivilDateIso(_ text: String) {
        #expect(isoDate(text) == CivilDate(iso: text))
        if let d = isoDate(text) { #expect(d.description == text) }
    }

    /// More rows than one insert batch (64): full batches, a last partial one, keys already stored
    /// from an earlier partial import, and bulk mode switching on mid-file.
    @Test func rowsBeyondOneBatchImportOnceAndAddUp() throws {
        let a = try freshLedger()
        for i in 0..<150 {
            _ = try a.ledger.addPurchase(
                PurchaseDraft(
                    amount: String(100 + i * 7), note: "item \(i % 40)", date: "2026-02-\(String(format: "%02d", 1 + i % 28))",
                    category: i % 3 == 0 ? "food" : nil, tax: i % 2 == 0 ? "10%" : nil))
        }
        let purchases = try a.ledger.purchases(PurchaseFilter()).purchases
        let all = a.folder.file("all.csv"), part = a.folder.file("part.csv")
        try writeCSV(purchases, to: all)
        try writeCSV(Array(purchases.prefix(100)), to: part)

        let b = try freshLedger()
        #expect(try b.ledger.importPurchases(path: part, options: ImportOptions()).imported == 100)
        let rest = try b.ledger.importPurchases(path: all, options: ImportOptions())
        #expect(rest.counts == ImportResult(imported: 50, skipped: 100, trips: ["Japan 2026"]))
        #expect(try b.ledger.report(trip: nil).totals == a.ledger.report(trip: nil).totals)

        let c = try freshLedger()
        let bulk = try c.ledger.importPurchases(path: all, options: ImportOptions(), bulkThreshold: 70)
        #expect(bulk.counts == ImportResult(imported: 150, skipped: 0, trips: ["Japan 2026"]))
        #expect(try c.ledger.importPurchases(path: all, options: ImportOptions(), bulkThreshold: 1).imported == 0)
        #expect(try c.ledger.report(trip: nil).totals == a.ledger.report(trip: nil).totals)
        #expect(
            try c.ledger.purchases(PurchaseFilter()).purchases.map { PurchaseCSV.fields($0).dropFirst() }
                == purchases.map { PurchaseCSV.fields($0).dropFirst() })
    }

    /// More rows than the reading thread may queue ahead (`ImportPipeline`): all of them arrive,
    /// in order; a bad row near the end stops both threads, names row, column and value, and
    /// leaves the ledger untouched (the inserting thread had already inserted earlier batches).
    @Test func manyQueuedBatchesImportInOrderAndALateBadRowWritesNothing() throws {
        let a = try freshLedger()
        for i in 0..<50 {
            _ = try a.ledger.addPurchase(PurchaseDraft(amount: String(100 + i * 13), note: "n\(i)", category: i % 2 == 0 ? "food" : nil))
        }
        let path = a.folder.file("one.csv")
        try writeCSV(try a.ledger.purchases(PurchaseFilter()).purchases, to: path)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n").map(String.init)
        let copies = ImportPipeline.queueDepth * ImportPipeline.rowsPerBatch / 50 * 2
        // The same 50 rows again and again: later copies are new purchases (occurrence counts in the key).
        let body = Array(repeating: lines.dropFirst(), count: copies).flatMap { $0 }
        let good = a.folder.file("many.csv"), bad = a.folder.file("bad.csv")
        try ([lines[0]] + body).map { $0 + "\r\n" }.joined().write(toFile: good, atomically: true, encoding: .utf8)
        var broken = body
        let last = broken.count - 3
        broken[last] = broken[last].replacingOccurrences(of: ",USD,", with: ",EUR,")
        #expect(broken[last] != body[last])
        try ([lines[0]] + broken).map { $0 + "\r\n" }.joined().write(toFile: bad, atomically: true, encoding: .utf8)

        let b = try freshLedger()
        #expect { try b.ledger.importPurchases(path: bad, options: ImportOptions(), bulkThreshold: 100) } throws: { e in
            guard case let .badRow(row, column, _, _) = e as? TripError else { return false }
            return row == last + 1 && column == "home_currency"
        }
        #expect(try b.ledger.database.db.scalarInt("SELECT count(*) FROM purchases") == 0)
        #expect(try b.ledger.database.db.scalarInt("PRAGMA foreign_keys") == 1)

        let result = try b.ledger.importPurchases(path: good, options: ImportOptions(), bulkThreshold: 100)
        #expect(result.counts == ImportResult(imported: body.count, skipped: 0, trips: ["Japan 2026"]))
        // Bulk mode truncates the WAL it filled (later reads go through the memory map again)…
        let wal = try FileManager.default.attributesOfItem(atPath: b.ledger.database.db.path + "-wal")[.size] as? Int
        #expect(wal == 0)
        // …and leaves planner statistics for the new size (reports pick the covering index).
        #expect(try b.ledger.database.db.scalarInt("SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'purchases' AND idx = 'purchases_report'") == 1)
        let notes = try b.ledger.purchases(PurchaseFilter()).purchases.map(\.note)
        #expect(notes.count == body.count)
        #expect(
            try b.ledger.database.db.scalarText("SELECT group_concat(note, ',') FROM (SELECT note FROM purchases ORDER BY id)")
                == body.map { $0.split(separator: ",", omittingEmptySubsequences: false)[3] }.joined(separator: ","))
    }

    /// The reading thread finds trips by name as the database would (`COLLATE NOCASE`: ASCII case
    /// ignored), and a name that is no trip still falls back to the current trip.
    @Test func tripColumnIgnoresASCIICaseAndUnknownNamesGoToTheCurrentTrip() throws {
        let a = try freshLedger()
        _ = try a.ledger.addPurchase(PurchaseDraft(amount: "500", note: "a"))
        _ = try a.ledger.addPurchase(PurchaseDraft(amount: "700", note: "b"))
        let path = a.folder.file("t.csv")
        try writeCSV(try a.ledger.purchases(PurchaseFilter()).purchases, to: path)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: ",Japan 2026,2026", with: ",JAPAN 2026,2026")
        #expect(text.contains(",JAPAN 2026,"))
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let b = try TestLedger()
        _ = try b.ledger.createTrip(NewTrip(name: "Japan 2026", localCurrency: "JPY", homeCurrency: "USD"))
        _ = try b.ledger.createTrip(NewTrip(name: "Other", localCurrency: "JPY", homeCurrency: "USD"))
        #expect(try b.ledger.importPurchases(path: path, options: ImportOptions()).trips == ["Japan 2026"])
        let unknown = text.replacingOccurrences(of: ",JAPAN 2026,", with: ",Nowhere,")
        let c = try TestLedger()
        _ = try c.ledger.createTrip(NewTrip(name: "Other", localCurrency: "JPY", homeCurrency: "USD"))
        let p2 = c.folder.file("u.csv")
        try unknown.write(toFile: p2, atomically: true, encoding: .utf8)
        #expect(try c.ledger.importPurchases(path: p2, options: ImportOptions()).trips == ["Other"])
    }

    /// Texts bound in place from packed values read back exactly: empty, non-ASCII, longer than a
    /// small string, NULLs and integers between them, a buffer that grows between runs, and a
    /// statement run again with new buffers (its old bindings are not cleared, only replaced).
    @Test func textsBoundInPlaceReadBackExactly() throws {
        let t = try TestLedger()
        let db = t.ledger.database.db
        try db.execute("CREATE TABLE t (a TEXT, b INTEGER, c TEXT)")
        let texts = ["", "ramen", "カレーライス and a long note past fifteen bytes", String(repeating: "x", count: 5000), "a\u{0}b"]
        var values: [SQLValue] = []
        for (i, text) in texts.enumerated() { values += [.text(text), .integer(Int64(i) - 2), i % 2 == 0 ? .null : .text(text)] }
        let statement = try db.prepare("INSERT INTO t (a, b, c) VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?)")
        for _ in 0..<2 {
            var packed = PackedValues()
            for v in values { packed.append(v) }
            #expect(packed.sqlValues(0..<packed.count) == values)
            try packed.withBuffers { try statement.run($0, text: $1) }
        }
        var empty = PackedValues()
        empty.appendText("")
        try empty.withBuffers { try db.prepare("INSERT INTO t (a) VALUES (?)").run($0, text: $1) }
        #expect(try db.scalarInt("SELECT count(*) FROM t WHERE a = '' AND b IS NULL") == 1)
        try db.execute("DELETE FROM t WHERE b IS NULL")
        var rows: [[SQLValue]] = []
        try db.prepare("SELECT a, b, c FROM t ORDER BY rowid").forEach { r in
            rows.append([.text(r.text(0)), .integer(r.int(1)), r.optionalText(2).map { .text($0) } ?? .null])
        }
        let expected = stride(from: 0, to: values.count, by: 3).map { Array(values[$0..<$0 + 3]) }
        #expect(rows == expected + expected)
        #expect(try db.scalarInt("SELECT count(*) FROM t WHERE a = ''") == 2)
    }
}

extension ImportResult {
    /// What the import did, without how its rows were read (`fastRows`, which path took them).
    fileprivate var counts: ImportResult {
        var r = self
        r.fastRows = 0
        return r
    }
}
