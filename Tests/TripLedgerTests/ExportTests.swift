import Foundation
import Rendering
import TestSupport
import Testing
import TripCore
import TripModel

@testable import Exchange
@testable import Storage
@testable import TripLedger

/// `trip export` on a real ledger: the journals are read by the real hledger and ledger, whose
/// totals at cost must be the report's net total to the cent; CSV and JSON parse and add up.
@Suite("Export: CSV, JSON, ledger and Beancount journals")
struct ExportTests {
    /// JPY with included tax, SGD with service and GST, USD with tip, KWD, a charged JPY purchase
    /// on a card, and MNT with no rate at all; notes with commas, quotes, `;` and line breaks.
    static func mixedTrip() throws -> TestLedger {
        let t = try TestLedger()
        try t.ledger.createTrip(NewTrip(name: "Asia, \"loop\" 2026", localCurrency: "JPY", homeCurrency: "USD"))
        _ = try t.ledger.setManualRate(currency: "JPY", rate: "0.0067", in: nil, date: "2026-03-01")
        _ = try t.ledger.setManualRate(currency: "SGD", rate: "0.7431", in: nil, date: "2026-03-01")
        _ = try t.ledger.setManualRate(currency: "KWD", rate: "3.2551", in: nil, date: "2026-03-01")
        let drafts = [
            PurchaseDraft(
                amount: "3*1200", note: "ramen; \"Ichiran\", Shibuya", date: "2026-03-01", category: "food",
                discount: "10%", tax: "10%", taxIncluded: true),
            PurchaseDraft(
                amount: "25", currency: "SGD", note: "chilli crab\nwith mantou", date: "2026-03-02",
                category: "food", preset: "SG"),
            PurchaseDraft(
                amount: "48.50", currency: "USD", note: "JFK dinner\r\nsecond line", date: "2026-03-02",
                category: "street food", paidWith: "card", tax: "8.875%", tip: "20%"),
            PurchaseDraft(amount: "12.345", currency: "KWD", note: "(souq) dates", date: "2026-03-03", category: "gifts"),
            PurchaseDraft(
                amount: "1200", note: "", date: "2026-03-03", category: "transport", paidWith: "card",
                charged: "8.12"),
            PurchaseDraft(amount: "35000", currency: "MNT", note: "ger camp", date: "2026-03-04", category: "lodging"),
            PurchaseDraft(amount: "123456789", note: "big one", date: "2026-03-04"),
        ]
        for d in drafts { _ = try t.ledger.addPurchase(d) }
        return t
    }

    static func export(_ t: TestLedger, _ format: ExportFormat, all: Bool = false) throws -> (String, ExportSummary) {
        var text = ""
        let summary = try t.ledger.export(format, trip: nil, all: all) { text += $0 }
        return (text, summary)
    }

    @Test func theFixtureCoversWhatItClaims() throws {
        let t = try Self.mixedTrip()
        let (_, purchases) = try t.ledger.purchases(PurchaseFilter())
        #expect(purchases.count == 7)
        #expect(purchases.filter { $0.conversion.home == nil }.map(\.currency.code) == ["MNT"])
        #expect(purchases.first { $0.currency.code == "SGD" }?.breakdown.service ?? 0 > 0)
        #expect(purchases.first { $0.currency.code == "USD" }?.breakdown.tip ?? 0 > 0)
        #expect(purchases.first { $0.currency.code == "JPY" }?.breakdown.taxIncluded == true)
        #expect(purchases.contains { $0.conversion.source == .charged })
    }

    @Test(arguments: [ExportFormat.ledger, .beancount, .csv, .json])
    func summaryMatchesTheReport(_ format: ExportFormat) throws {
        let t = try Self.mixedTrip()
        let (_, summary) = try Self.export(t, format)
        let report = try t.ledger.report(trip: nil)
        #expect(summary.purchases == 7)
        #expect(summary.unconverted == 1)
        #expect(summary.homeTotals == ["USD": report.totals.net])
    }

    // MARK: hledger and ledger

    @Test(arguments: [AccountingTool.hledger, .ledger])
    func journalBalanceAtCostIsTheReportNet(_ tool: AccountingTool) throws {
        let t = try Self.mixedTrip()
        let (text, _) = try Self.export(t, .ledger)
        let file = t.folder.file("trip.journal")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let net = Money(minorUnits: try t.ledger.report(trip: nil).totals.net, currency: .stored("USD")).plainText

        let result = try tool.balanceAtCost(file)
        #expect(result.status == 0, "\(tool) failed: \(result.stderr)")
        #expect(result.stderr.isEmpty, "\(tool): \(result.stderr)")
        let totals = AccountingTool.totals(result.stdout)
        #expect(totals["USD"] == net, "\(tool) printed:\n\(result.stdout)\nexpected \(net) USD")
        // The unconverted MNT stays in MNT, outside the home total.
        #expect(totals["MNT"] == "35000.00", "\(tool) printed:\n\(result.stdout)")
        #expect(Set(totals.keys) == ["USD", "MNT"], "\(tool) printed:\n\(result.stdout)")
    }

    @Test(arguments: [AccountingTool.hledger, .ledger])
    func allTripsTotalPerHomeCurrency(_ tool: AccountingTool) throws {
        let t = try Self.mixedTrip()
        try t.ledger.createTrip(NewTrip(name: "Alps", localCurrency: "CHF", homeCurrency: "EUR"))
        _ = try t.ledger.setManualRate(currency: "CHF", rate: "1.0642", in: "EUR", date: "2026-03-01")
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "19.90", note: "fondue", date: "2026-03-05"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "7.25", currency: "EUR", note: "coffee", date: "2026-03-05"))
        var text = ""
        try t.ledger.export(.ledger, trip: nil, all: true) { text += $0 }
        let file = t.folder.file("all.journal")
        try text.write(toFile: file, atomically: true, encoding: .utf8)

        let result = try tool.balanceAtCost(file)
        #expect(result.status == 0, "\(tool) failed: \(result.stderr)")
        let totals = AccountingTool.totals(result.stdout)
        let usd = try t.ledger.report(trip: "Asia, \"loop\" 2026").totals.net
        let eur = try t.ledger.report(trip: "Alps").totals.net
        #expect(totals["USD"] == Money(minorUnits: usd, currency: .stored("USD")).plainText, "\(result.stdout)")
        #expect(totals["EUR"] == Money(minorUnits: eur, currency: .stored("EUR")).plainText, "\(result.stdout)")
        #expect(eur > 0)
    }

    @Test func ledgerJournalShape() throws {
        let t = try Self.mixedTrip()
        let (text, _) = try Self.export(t, .ledger)
        #expect(text.contains("commodity 1,000. JPY\n"))
        #expect(text.contains("commodity 1,000.00 USD\n"))
        #expect(text.contains("commodity 1,000.000 KWD\n"))
        #expect(text.contains("2026-03-01 * (1) ramen, \"Ichiran\", Shibuya\n"))
        #expect(text.contains("    Expenses:Food  3240 JPY @@ 21.71 USD\n    Assets:Cash  -21.71 USD\n"))
        #expect(text.contains("Expenses:Street-Food  "))
        #expect(text.contains("Liabilities:Card  "))
        #expect(text.contains("Expenses:Unconverted:Lodging  35000.00 MNT\n    Assets:Cash  -35000.00 MNT\n"))
        #expect(text.contains("* (5) no note\n"))
        #expect(text.contains("    ; rate: 0.0067 USD per JPY\n"))
        // Every line of a transaction is one line: no note's line break leaked.
        #expect(!text.contains("\nwith mantou") && !text.contains("\nsecond line") && !text.contains("\r"))
    }

    // MARK: Beancount

    @Test func beancountShapeAndSums() throws {
        let t = try Self.mixedTrip()
        let (text, _) = try Self.export(t, .beancount)
        let net = try t.ledger.report(trip: nil).totals.net
        #expect(text.contains("option \"operating_currency\" \"USD\"\n"))

        let account = /^(Assets|Liabilities|Equity|Income|Expenses)(:[A-Z0-9][A-Za-z0-9-]*)+$/
        var opened: [String: String] = [:]
        var expensesAtCost: Int64 = 0, transactions = 0
        var txnDate = "", postings: [(String, String)] = []
        func closeTransaction() {
            guard !postings.isEmpty else { return }
            // Two postings; the balancing one is minus the priced one's cost, in the same currency.
            #expect(postings.count == 2, "\(postings)")
            if postings.count == 2 {
                let priced = postings[0].1.split(separator: " ").suffix(2).map(String.init)
                let balancing = postings[1].1.split(separator: " ").suffix(2).map(String.init)
                #expect(
                    priced[1] == balancing[1] && Self.minor(priced[0]).map { -$0 } == Self.minor(balancing[0]),
                    "unbalanced: \(postings)")
            }
            postings = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let words = line.split(separator: " ").map(String.init)
            if let m = line.wholeMatch(of: /(\d{4}-\d{2}-\d{2}) open (\S+)/) {
                #expect(line.wholeMatch(of: /\d{4}-\d{2}-\d{2} open .*/) != nil)
                #expect(String(m.2).wholeMatch(of: account) != nil, "account \(m.2)")
                opened[String(m.2)] = String(m.1)
            } else if let m = line.wholeMatch(of: /(\d{4}-\d{2}-\d{2}) \* "(?:[^"\\]|\\.)*" "(?:[^"\\]|\\.)*"/) {
                closeTransaction()
                transactions += 1
                txnDate = String(m.1)
            } else if line.hasPrefix("  "), words.count >= 3, words[0].contains(":"), !words[0].hasSuffix(":") {
                let name = words[0]
                #expect(name.wholeMatch(of: account) != nil, "account \(name)")
                #expect(opened[name].map { $0 <= txnDate } == true, "\(name) used \(txnDate) before it is opened")
                postings.append((name, line))
                if name.hasPrefix("Expenses:"), !name.hasPrefix("Expenses:Unconverted:") {
                    // `N CUR @@ H USD` or `H USD`.
                    #expect(words.last == "USD", "\(line)")
                    expensesAtCost += try #require(Self.minor(words[words.count - 2]))
                }
            } else if line.hasPrefix("  ") {
                #expect(line.wholeMatch(of: /\ \ [a-z][a-zA-Z0-9_-]*: "(?:[^"\\]|\\.)*"/) != nil, "metadata \(line)")
            } else {
                #expect(line.isEmpty || line.hasPrefix(";") || line.hasPrefix("option "), "unexpected line: \(line)")
            }
        }
        closeTransaction()
        #expect(transactions == 7)
        #expect(expensesAtCost == net)
        #expect(opened["Expenses:Unconverted:Lodging"] == "2026-03-04")
        #expect(opened["Assets:Cash"] == "2026-03-01")
    }

    // MARK: CSV and JSON

    @Test func csvRowsHaveEveryColumnAndAddUp() throws {
        let t = try Self.mixedTrip()
        let (text, _) = try Self.export(t, .csv)
        let rows = try RFC4180.parse(text)
        #expect(rows.first == PurchaseCSV.exportColumns)
        #expect(rows.count == 8)
        for row in rows { #expect(row.count == PurchaseCSV.exportColumns.count, "\(row)") }
        let column = { (name: String) in PurchaseCSV.columns.firstIndex(of: name)! }
        let body = rows.dropFirst()
        let sum = try body.reduce(Int64(0)) { s, row in
            let cell = row.count == PurchaseCSV.exportColumns.count ? row[column("home_total")] : ""
            return try cell.isEmpty ? s : s + #require(Self.minor(cell))
        }
        #expect(sum == (try t.ledger.report(trip: nil).totals.net))
        let notes = body.map { $0.count > column("note") ? $0[column("note")] : "" }
        #expect(notes.contains("JFK dinner\r\nsecond line"))
        #expect(notes.contains("ramen; \"Ichiran\", Shibuya"))
        #expect(notes.contains("chilli crab\nwith mantou"))
    }

    @Test func jsonIsOneDocumentWithEveryPurchase() throws {
        let t = try Self.mixedTrip()
        let (text, _) = try Self.export(t, .json)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let purchases = try #require(object?["purchases"] as? [[String: Any]])
        #expect(purchases.count == 7)
        let sum = try purchases.compactMap { $0["home_amount"] as? String }.reduce(Int64(0)) { try $0 + #require(Self.minor($1)) }
        #expect(sum == (try t.ledger.report(trip: nil).totals.net))
        #expect(purchases.map { $0["date"] as? String } == purchases.map { $0["date"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") })
    }

    @Test func emptyTripExportsValidEmptyDocuments() throws {
        let t = try TestLedger()
        try t.ledger.createTrip(NewTrip(name: "Empty", localCurrency: "JPY", homeCurrency: "USD"))
        let json = try Self.export(t, .json).0
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect((object?["purchases"] as? [Any])?.isEmpty == true)
        #expect(try Self.export(t, .csv).0 == PurchaseCSV.record(PurchaseCSV.exportColumns))
        #expect(try Self.export(t, .ledger).0.contains("commodity 1,000.00 USD\n"))
    }

    @Test func unknownTripIsAnError() throws {
        let t = try Self.mixedTrip()
        #expect(throws: TripError.tripNotFound("Nowhere")) {
            try t.ledger.export(.csv, trip: "Nowhere", all: false) { _ in }
        }
    }

    @Test(
        arguments: [
            ("food", "Food"), ("street food", "Street-Food"), ("café & bar", "Café-Bar"), ("a:b  c;d", "A-B-C-D"),
            ("7-eleven", "7-Eleven"), ("  ", nil), ("::", nil),
        ] as [(String, String?)])
    func accountSegments(_ text: String, _ expected: String?) {
        #expect(JournalText.segment(text) == expected)
    }

    @Test(arguments: [
        ("a;b", "a,b"), ("line\nbreak", "line break"), ("  tabs\t\tand  spaces ", "tabs and spaces"),
        ("bidi\u{202E}x", "bidi x"), ("nul-free\u{7}bell", "nul-free bell"),
    ])
    func oneLineText(_ text: String, _ expected: String) {
        #expect(JournalText.oneLine(text) == expected)
    }

    /// "21.71" → 2171; exact decimal text to minor units, no floating point.
    static func minor(_ text: String) -> Int64? {
        Int64(text.replacingOccurrences(of: ",", with: "").replacingOccurrences(of: ".", with: ""))
    }
}

/// A strict RFC 4180 reader for the tests: quoted fields may hold commas, doubled quotes, CR and LF.
enum RFC4180 {
    struct Malformed: Error { let at: Int }

    static func parse(_ text: String) throws -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = ""
        var inQuotes = false, wasQuoted = false
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            if inQuotes {
                if c == "\"" {
                    if i + 1 < scalars.count && scalars[i + 1] == "\"" { field.unicodeScalars.append("\""); i += 1 } else { inQuotes = false }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" {
                guard field.isEmpty, !wasQuoted else { throw Malformed(at: i) }
                inQuotes = true
                wasQuoted = true
            } else if c == "," {
                row.append(field); field = ""; wasQuoted = false
            } else if c == "\r" {
                guard i + 1 < scalars.count, scalars[i + 1] == "\n" else { throw Malformed(at: i) }
                row.append(field); rows.append(row)
                row = []; field = ""; wasQuoted = false
                i += 1
            } else if c == "\n" {
                throw Malformed(at: i)  // records end with CRLF; a bare LF belongs in quotes
            } else {
                guard !wasQuoted else { throw Malformed(at: i) }
                field.unicodeScalars.append(c)
            }
            i += 1
        }
        guard !inQuotes, field.isEmpty, row.isEmpty else { throw Malformed(at: i) }
        return rows
    }
}
