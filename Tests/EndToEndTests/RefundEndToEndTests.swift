import Foundation
import TestSupport
import Testing

/// Refunds and credits (issue 10, group 3), through the built `trip` binary, to the cent.
@Suite("End to end: refunds and credits")
struct RefundEndToEndTests {
    /// A Japan trip: a ¥12,000 jacket returned in two parts, a ¥3,240 ramen, and a ¥1,500 tax-free
    /// credit at the airport. JPY is 0.0067 USD from 03-01 and 0.0070 USD from 03-04.
    static func japan(_ folder: TemporaryFolder) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2026-03-05")
        try #require(trip.run("init", "--home", "USD").exitCode == 0)
        try #require(trip.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(trip.run("rates", "set", "JPY", "0.0067", "--date", "2026-03-01").exitCode == 0)
        try #require(trip.run("rates", "set", "JPY", "0.0070", "--date", "2026-03-04").exitCode == 0)
        try #require(trip.run("add", "12000", "jacket", "--date", "2026-03-02", "--category", "shopping").exitCode == 0)
        try #require(trip.run("add", "3240", "ramen", "--date", "2026-03-02", "--category", "food").exitCode == 0)
        return trip
    }

    /// A refund is held to the bound of every purchase (it is built like one): a charged amount
    /// past it is refused with the usual line and exit 65, and nothing is written.
    @Test func aRefundsChargedAmountPastTheBoundIsRefused() throws {
        let folder = TemporaryFolder()
        let trip = try Self.japan(folder)
        let past = try trip.run("refund", "1", "--charged", "10000000000.00")
        #expect(past.exitCode == 65)
        #expect(past.stderr == "trip: home amount: \"10000000000.00\" is too large; one purchase holds at most USD 9,999,999,999.99\n")
        #expect(try trip.run("list", "--format", "json").stdout.components(separatedBy: "\"refund\"").count == 1)
        let atTheBound = try trip.run("refund", "1", "--charged", "9999999999.99", "--format", "json")
        #expect(atTheBound.exitCode == 0, "\(atTheBound.stderr)")
        #expect(atTheBound.json["home_amount"] as? String == "9999999999.99")
    }

    /// A refund cannot come back from the trash before the purchase it refunds (found by the
    /// convergence test's seed 71: exit 70 with the SQL of a failed foreign key).
    @Test func aRefundWhosePurchaseIsRemovedTooIsRestoredOnlyAfterIt() throws {
        let folder = TemporaryFolder()
        let trip = try Self.japan(folder)
        #expect(try trip.run("refund", "1", "4000").exitCode == 0)
        #expect(try trip.run("rm", "3").exitCode == 0)
        #expect(try trip.run("rm", "1").exitCode == 0)
        let early = try trip.run("restore", "3")
        #expect(early.exitCode == 65)
        #expect(early.stderr == "trip: id: #3 refunds #1, which is removed too: restore #1 first (trip restore 1)\n")
        #expect(try trip.run("restore", "1").exitCode == 0)
        let after = try trip.run("restore", "3")
        #expect(after.exitCode == 0, "\(after.stderr)")
        #expect(after.stdout.hasPrefix("Restored #3 (refund of #1)"), "\(after.stdout)")
    }

    @Test func aPartialRefundIsConvertedAtItsOwnDateAndNettedEverywhere() throws {
        let folder = TemporaryFolder()
        let trip = try Self.japan(folder)
        // ¥4,000 back on 03-04: 4000 × 0.0070 = 28.00, not the purchase's 4000 × 0.0067 = 26.80.
        let part = try trip.run("refund", "1", "4000", "--date", "2026-03-04", "--format", "json")
        #expect(part.exitCode == 0, "\(part.stderr)")
        #expect(part.json["kind"] as? String == "refund")
        #expect(part.json["refund_of"] as? Int == 1)
        #expect(part.json["total"] as? String == "4000")
        #expect(part.json["home_amount"] as? String == "28.00")
        #expect(part.json["rate"] as? String == "0.0070")
        #expect(part.json["category"] as? String == "shopping")

        // Never more than what remains: ¥8,000.
        let tooMuch = try trip.run("refund", "1", "9000")
        #expect(tooMuch.exitCode == 65)
        #expect(tooMuch.stderr == "trip: amount: \"9000\" is more than what remains to refund of purchase #1: 8000 JPY of 12000 JPY\n")

        // No AMOUNT: the rest, ¥8,000 at the card's credited $55.10.
        let rest = try trip.run("refund", "#1", "--charged", "55.10", "--format", "json")
        #expect(rest.exitCode == 0, "\(rest.stderr)")
        #expect(rest.json["total"] as? String == "8000")
        #expect(rest.json["home_amount"] as? String == "55.10")
        #expect(rest.json["rate_source"] as? String == "charged")
        let again = try trip.run("refund", "1")
        #expect(again.exitCode == 65)
        #expect(again.stderr == "trip: id: \"1\" is already refunded in full\n")

        // Money back with no purchase: a credit.
        let credit = try trip.run("add", "1500", "tax-free", "refund", "--refund", "--category", "shopping", "--format", "json")
        #expect(credit.exitCode == 0, "\(credit.stderr)")
        #expect(credit.json["kind"] as? String == "credit")
        #expect(credit.json["home_amount"] as? String == "10.50")  // 1500 × 0.0070

        // 80.40 + 21.71 spent; 28.00 + 55.10 + 10.50 = 93.60 back; net 8.51.
        let report = try trip.run("report", "--format", "json")
        #expect(report.exitCode == 0, "\(report.stderr)")
        let totals = try #require(report.json["totals"] as? [String: Any])
        #expect(totals["gross"] as? String == "102.11")
        #expect(totals["refunds"] as? String == "93.60")
        #expect(totals["net"] as? String == "8.51")
        #expect(report.json["purchases"] as? Int == 2)
        #expect(report.json["refund_count"] as? Int == 3)
        let categories = try #require(report.json["by_category"] as? [[String: Any]])
        let byKey = Dictionary(uniqueKeysWithValues: categories.map { ($0["key"] as! String, $0["home_amount"] as! String) })
        #expect(byKey == ["food": "21.71", "shopping": "-13.20"])  // 80.40 − 28.00 − 55.10 − 10.50
        let days = try #require(report.json["by_day"] as? [[String: Any]])
        #expect(days.map { $0["home_amount"] as? String } == ["102.11", "0.00", "-28.00", "-65.60"])
        let currencies = try #require(report.json["by_currency"] as? [[String: Any]])
        #expect(currencies.first?["amount"] as? String == "1740")  // 12000 + 3240 − 4000 − 8000 − 1500

        let text = try trip.run("report")
        #expect(text.stdout.contains("  refunds            -93.60\n"))
        #expect(text.stdout.contains("  net total            8.51\n"))
        let byPayment = try trip.run("report", "--by", "payment", "--format", "json")
        let payment = try #require(byPayment.json["groups"] as? [[String: Any]] ?? byPayment.json["by_payment"] as? [[String: Any]])
        #expect(payment.map { $0["home_amount"] as? String } == ["8.51"])
        // Re-expressed in EUR at each row's own date, refunds still net.
        try #require(trip.run("rates", "set", "JPY", "0.006", "--in", "EUR", "--date", "2026-03-01").exitCode == 0)
        let eur = try trip.run("report", "--home", "EUR", "--format", "json")
        let eurTotals = try #require(eur.json["totals"] as? [String: Any])
        #expect(eurTotals["net"] as? String == "10.44")  // 1740 × 0.006
        #expect(eurTotals["refunds"] as? String == "81.00")  // 13500 × 0.006
    }

    @Test func aPurchaseWithRefundsIsNotRemovedAndEditsKeepTheCap() throws {
        let folder = TemporaryFolder()
        let trip = try Self.japan(folder)
        try #require(trip.run("refund", "1", "4000").exitCode == 0)
        let rm = try trip.run("rm", "1")
        #expect(rm.exitCode == 65)
        #expect(rm.stderr == "trip: id: \"1\" has refund #3; remove it first\n")
        let shrink = try trip.run("edit", "1", "--amount", "3000")
        #expect(shrink.exitCode == 65)
        #expect(shrink.stderr.contains("the refunds of purchase #1 would add up to 4000 JPY, more than its total 3000"))
        let grow = try trip.run("edit", "3", "--amount", "13000")
        #expect(grow.exitCode == 65)
        let list = try trip.run("list", "--format", "json")
        let rows = try #require(list.json["purchases"] as? [[String: Any]])
        #expect(rows.map { $0["total"] as? String } == ["12000", "3240", "4000"])
        #expect(rows.map { $0["kind"] as? String } == ["purchase", "purchase", "refund"])
        #expect(try trip.run("rm", "3").exitCode == 0)
        #expect(try trip.run("rm", "1").exitCode == 0)
    }

    @Test func aRefundIsReRatedLikeAPurchase() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2026-03-05")
        try #require(trip.run("init", "--home", "USD").exitCode == 0)
        try #require(trip.run("new", "Korea", "--currency", "KRW", "--home", "USD").exitCode == 0)
        try #require(trip.run("add", "50000", "shoes", "--date", "2026-03-02").exitCode == 0)
        let refund = try trip.run("refund", "1", "20000", "--date", "2026-03-03", "--format", "json")
        #expect(refund.exitCode == 0, "\(refund.stderr)")
        let netBefore = try #require((try trip.run("report", "--format", "json").json["totals"] as? [String: Any])?["net"] as? String)
        // A manual rate set afterwards re-rates both: 50000 × 0.00075 = 37.50, 20000 × 0.00075 = 15.00,
        // and the change it reports is net of the refund.
        let set = try trip.run("rates", "set", "KRW", "0.00075", "--date", "2026-03-01", "--format", "json")
        try #require(set.exitCode == 0)
        let rerate = try #require(set.json["rerate"] as? [String: Any])
        #expect(rerate["rerated"] as? Int == 2)
        let delta = try #require((rerate["delta"] as? [String: Any])?["USD"] as? String)
        #expect(Decimal(string: delta)! == Decimal(string: "22.50")! - Decimal(string: netBefore)!, "net before \(netBefore)")
        let totals = try #require(try trip.run("report", "--format", "json").json["totals"] as? [String: Any])
        #expect(totals["refunds"] as? String == "15.00")
        #expect(totals["net"] as? String == "22.50")
    }
}

/// Card statements with money back, European separators and other encodings.
@Suite("End to end: statements with refunds, semicolons and encodings")
struct RefundStatementEndToEndTests {
    static func berlin(_ folder: TemporaryFolder) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2026-03-05")
        try #require(trip.run("init", "--home", "USD").exitCode == 0)
        try #require(trip.run("new", "Berlin", "--currency", "EUR", "--home", "USD").exitCode == 0)
        try #require(trip.run("rates", "set", "EUR", "1.08", "--date", "2026-03-01").exitCode == 0)
        return trip
    }

    @Test func negativeLinesOfASemicolonStatementBecomeCredits() throws {
        let folder = TemporaryFolder()
        let trip = try Self.berlin(folder)
        let file = folder.file("konto.csv")
        try Data(
            """
            Datum;Betrag;Beschreibung;Belastet\r
            2026-03-02;120.00;Jacke;129.90\r
            2026-03-03;-120.00;Jacke zurück;-129.60\r
            2026-03-03;18.50;Currywurst;\r
            2026-03-04;-5.00;Pfand;\r

            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        let args = [
            "import", file, "--delimiter", ";", "--date-column", "Datum", "--amount-column", "Betrag",
            "--note-column", "Beschreibung", "--charged-column", "Belastet", "--currency", "EUR",
        ]
        // Read with ',' the header is one column, and the error says what to do.
        let comma = try trip.run(Array(args[0...1]) + ["--delimiter", ","] + Array(args[4...]))
        #expect(comma.exitCode == 65)
        #expect(comma.stderr.contains("add --delimiter ';'"))
        let imported = try trip.run(args)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let rows = try #require(try trip.run("list", "--format", "json").json["purchases"] as? [[String: Any]])
        #expect(rows.map { $0["kind"] as? String } == ["purchase", "credit", "purchase", "credit"])
        #expect(rows.map { $0["total"] as? String } == ["120.00", "120.00", "18.50", "5.00"])
        #expect(rows.map { $0["home_amount"] as? String } == ["129.90", "129.60", "19.98", "5.40"])  // 18.50 × 1.08 = 19.98
        let totals = try #require(try trip.run("report", "--format", "json").json["totals"] as? [String: Any])
        #expect(totals["gross"] as? String == "149.88")  // 129.90 + 19.98
        #expect(totals["refunds"] as? String == "135.00")  // 129.60 + 5.40
        #expect(totals["net"] as? String == "14.88")
        // Importing it again finds every row, credits included.
        let again = try trip.run(args)
        #expect(again.stdout.contains("imported 0 purchases"), "\(again.stdout)\(again.stderr)")
    }

    static let statement = "Datum;Betrag;Notiz\r\n2026-03-02;45.00;München\r\n"
    static let latin1: [UInt8] = Array(statement.data(using: .isoLatin1)!)
    static let utf16LE: [UInt8] = [0xFF, 0xFE] + Array(statement.data(using: .utf16LittleEndian)!)
    static let utf16BE: [UInt8] = [0xFE, 0xFF] + Array(statement.data(using: .utf16BigEndian)!)

    /// A statement in Latin-1 or UTF-16 is read as such (issue 37), not refused as before.
    @Test(arguments: [latin1, utf16LE, utf16BE])
    func aStatementInAnotherEncodingIsReadInIt(bytes: [UInt8]) throws {
        let folder = TemporaryFolder()
        let trip = try Self.berlin(folder)
        let file = folder.file("statement.csv")
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let r = try trip.run(
            "import", file, "--delimiter", ";", "--date-column", "Datum", "--amount-column", "Betrag", "--note-column", "Notiz",
            "--currency", "EUR")
        #expect(r.exitCode == 0, "\(r.stderr)")
        let rows = try #require(try trip.run("list", "--format", "json").json["purchases"] as? [[String: Any]])
        #expect(rows.map { $0["note"] as? String } == ["München"])
    }
}

/// Refunds and credits in every export format, and back in through `trip import`.
@Suite("End to end: exporting refunds and credits")
struct RefundExportEndToEndTests {
    /// Japan with a ¥12,000 jacket (80.40), ¥3,240 ramen (21.71), a ¥4,000 refund on 03-04 (28.00),
    /// a ¥1,500 credit (10.50) and a USD 20.00 home-currency credit: net 102.11 − 58.50 = 43.61.
    static func trip(_ folder: TemporaryFolder) throws -> TripProcess {
        let trip = try RefundEndToEndTests.japan(folder)
        try #require(trip.run("refund", "1", "4000", "--date", "2026-03-04").exitCode == 0)
        try #require(trip.run("add", "1500", "tax-free", "--refund", "--category", "shopping").exitCode == 0)
        try #require(trip.run("add", "20", "USD", "hotel", "deposit", "back", "--refund", "--paid-with", "card").exitCode == 0)
        let totals = try #require(try trip.run("report", "--format", "json").json["totals"] as? [String: Any])
        try #require(totals["net"] as? String == "43.61")
        return trip
    }

    @Test func journalsPostRefundsNegativeAndHledgerAndLedgerAgreeWithTheReport() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder)
        let result = try trip.run("export", "--format", "ledger")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("    Expenses:Shopping  -4000 JPY @@ 28.00 USD\n    Assets:Cash  28.00 USD\n"))
        #expect(result.stdout.contains("    Expenses:Uncategorized  -20.00 USD\n    Liabilities:Card  20.00 USD\n"))
        #expect(result.stdout.contains("; kind: refund\n    ; refund_of: 1\n"))
        #expect(result.stdout.contains("home totals: 43.61 USD"))
        let file = folder.file("trip.journal")
        try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        for tool in [AccountingTool.hledger, .ledger] {
            let bal = try tool.balanceAtCost(file)
            #expect(bal.status == 0, "\(tool): \(bal.stderr)")
            #expect(AccountingTool.totals(bal.stdout)["USD"] == "43.61", "\(tool) printed:\n\(bal.stdout)")
        }
    }

    @Test func beancountLoadsRefundsAndSumsToTheNet() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder)
        let result = try trip.run("export", "--format", "beancount")
        #expect(result.exitCode == 0, "\(result.stderr)")
        let file = folder.file("trip.beancount")
        try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let bean = try Beancount.expenseTotals(file)
        #expect(bean.status == 0, "beancount: \(bean.stderr)")
        #expect(bean.totals["USD"].flatMap { Decimal(string: $0) } == Decimal(string: "43.61"), "beancount summed \(bean.totals)")
    }

    @Test func csvAndJsonCarryTheKindAndImportGivesTheSameReport() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder)
        let csv = try trip.run("export", "--format", "csv")
        #expect(csv.exitCode == 0, "\(csv.stderr)")
        let lines = TextFieldColumns.removed(from: csv.stdout).split(separator: "\r\n")
        // The group columns (paid_by, split, members) follow, empty on a trip without members.
        #expect(
            lines[0].hasSuffix(
                ",home_currency,home_total,charged,kind,refund_of,paid_by,split,members,trip_currency,trip_home_currency,trip_start,trip_end,trip_budget,trip_presets"
            ))
        #expect(lines[3].hasSuffix(",USD,28.00,,refund,1,,,,,,,,,"))
        #expect(lines[4].hasSuffix(",USD,10.50,,credit,,,,,,,,,,"))
        let json = try trip.run("export", "--format", "json")
        #expect(json.stdout.contains("\"kind\":\"refund\""))
        #expect(json.stdout.contains("\"refund_of\":1"))

        let file = folder.file("export.csv")
        try csv.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let fresh = TripProcess(ledgerPath: folder.file("fresh.sqlite"), today: "2026-03-05")
        try #require(fresh.run("init", "--home", "USD").exitCode == 0)
        try #require(fresh.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        let imported = try fresh.run("import", file)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let before = try trip.run("report", "--format", "json").json
        let after = try fresh.run("report", "--format", "json").json
        for key in ["totals", "by_category", "by_currency", "by_day", "provenance", "purchases", "refund_count"] {
            func canonical(_ v: Any?) throws -> String {
                String(decoding: try JSONSerialization.data(withJSONObject: [v ?? NSNull()], options: .sortedKeys), as: UTF8.self)
            }
            #expect(try canonical(before[key]) == canonical(after[key]), "\(key)")
        }
        // A file written before refunds existed (no kind column) still imports, as purchases.
        let old = lines.map { $0.split(separator: ",", omittingEmptySubsequences: false).dropLast(2).joined(separator: ",") }
        let oldFile = folder.file("old.csv")
        try (old.prefix(3).joined(separator: "\r\n") + "\r\n").write(toFile: oldFile, atomically: true, encoding: .utf8)
        let older = TripProcess(ledgerPath: folder.file("older.sqlite"), today: "2026-03-05")
        try #require(older.run("init", "--home", "USD").exitCode == 0)
        try #require(older.run("new", "Japan", "--currency", "JPY", "--home", "USD").exitCode == 0)
        #expect(try older.run("import", oldFile).exitCode == 0)
        let oldTotals = try #require(try older.run("report", "--format", "json").json["totals"] as? [String: Any])
        #expect(oldTotals["net"] as? String == "102.11")
    }
}
