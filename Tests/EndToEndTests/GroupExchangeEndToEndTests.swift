import Foundation
import TestSupport
import Testing

/// Group trips through the exports: the CSV carries payers, splits, members and transfers so that
/// export then import gives identical balances and settle-up, and the ledger and Beancount
/// journals let hledger, ledger and Beancount reproduce every member's balance.
@Suite("End to end: group trips in CSV and the journals")
struct GroupExchangeEndToEndTests {
    /// A group trip in Japan with a home currency of USD: one purchase from before there were
    /// members, every kind of split, several payers, purchases in JPY, EUR, USD and (no rate) MNT,
    /// a refund, a member who joins late, one who takes part in nothing, and transfers in three
    /// currencies (one with no rate).
    static func seeded() throws -> (TemporaryFolder, TripProcess) {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        let steps: [[String]] = [
            ["init", "--home", "USD"], ["new", "Japan", "--currency", "JPY"],
            ["rates", "set", "JPY", "0.0067", "--date", "2026-02-20"], ["rates", "set", "EUR", "1.0837", "--date", "2026-02-20"],
            ["add", "800", "airport coffee", "--date", "2026-02-27"],
            ["member", "add", "Ana", "Ben", "Carla"], ["whoami", "Ana"],
            ["add", "88+42", "dinner", "--date", "2026-02-28", "--tip", "10%"],
            ["add", "10000", "taxi", "--paid-by", "ana=3000,ben=rest", "--split", "ana=2,ben=1", "--date", "2026-02-28"],
            ["add", "50", "EUR", "museum", "--paid-by", "carla", "--split", "ana=60%,ben=40%", "--date", "2026-03-01"],
            [
                "add", "3000", "izakaya", "--items", "ana=1250,ben=800,ana=300,carla=rest", "--tip", "10%", "--tax", "10%",
                "--paid-by", "ben=1000,carla=rest", "--date", "2026-03-01",
            ],
            ["add", "1001", "snacks", "--split", "ana=1.5,carla=1", "--date", "2026-03-01"],
            ["add", "33.33", "USD", "sim cards", "--paid-by", "carla", "--split", "ana,ben,carla", "--date", "2026-03-01"],
            ["refund", "3", "3001", "--date", "2026-03-02"],
            ["member", "add", "Dan", "Eve"],
            ["add", "7777", "onsen", "--paid-by", "dan=7000,ana=rest", "--split", "dan=1,ana=1,ben=1", "--date", "2026-03-02"],
            ["add", "12000", "MNT", "ger camp", "--paid-by", "dan", "--split", "all", "--date", "2026-03-02"],
            ["transfer", "Carla", "Ana", "10", "--date", "2026-03-02"],
            ["transfer", "Ben", "Dan", "2000", "JPY", "--date", "2026-03-02"],
            ["transfer", "Dan", "Carla", "12.5", "EUR", "--date", "2026-03-02", "--note", "half the museum"],
            ["transfer", "Ana", "Ben", "5000", "MNT", "--date", "2026-03-02"],
        ]
        for args in steps {
            let r = try trip.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        }
        return (folder, trip)
    }

    static func json(_ trip: TripProcess, _ args: String...) throws -> String {
        let r = try trip.run(args + ["--format", "json"])
        try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        return r.stdout
    }

    /// Each member's `trip balances` balance, by name (e.g. "Ana" → "-52.53").
    static func balances(_ trip: TripProcess) throws -> [String: String] {
        let rows = try #require(try trip.run("balances", "--format", "json").json["members"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: rows.map { ("\($0["name"]!)", "\($0["balance"]!)") })
    }

    @Test func csvExportThenImportGivesIdenticalBalancesAndSettleUp() throws {
        let (folder, trip) = try Self.seeded()
        let export = try trip.run("export", "--format", "csv")
        #expect(export.exitCode == 0, "\(export.stderr)")
        // The trip's facts (`trip_*`, last) are on its first row only: the other rows end in six empty cells.
        let raw = TextFieldColumns.removed(from: export.stdout).split(separator: "\r\n").map(String.init)
        let lines = raw.map { $0.hasSuffix(",,,,,,") ? String($0.dropLast(6)) : $0 }
        #expect(
            lines[0].hasSuffix(",kind,refund_of,paid_by,split,members,trip_currency,trip_home_currency,trip_start,trip_end,trip_budget,trip_presets"))
        // The unsplit purchase first, then the trip's members and facts on its first row; weights as stored.
        #expect(lines[1].hasSuffix(",purchase,,,,\"Ana,Ben,Carla,Dan,Eve\",JPY,USD,,,,"), "\(lines[1])")
        #expect(lines.contains { $0.contains(",taxi,") && $0.hasSuffix(",purchase,,\"Ana=3000,Ben=7000\",\"Ana=2,Ben=1\",") })
        #expect(lines.contains { $0.contains(",snacks,") && $0.hasSuffix(",\"Ana=3/2,Carla=1\",") })
        #expect(lines.contains { $0.contains(",museum,") && $0.hasSuffix(",Carla=5000,\"Ana=60,Ben=40\",") })
        #expect(lines.contains { $0.hasSuffix(",refund,3,\"Ana=3000,Ben=7000\",\"Ana=2,Ben=1\",") })
        #expect(lines.filter { $0.contains(",transfer,") }.count == 4)
        #expect(
            lines.contains { $0.contains(",half the museum,") && $0.hasSuffix(",1.0837,2026-02-20,manual,,,false,USD,13.55,,transfer,,Dan,Carla,") })
        let file = folder.file("japan.csv")
        try export.stdout.write(toFile: file, atomically: true, encoding: .utf8)

        let other = TripProcess(ledgerPath: folder.file("other.sqlite"))
        for args in [["init", "--home", "USD"], ["new", "Japan", "--currency", "JPY"]] {
            try #require(try other.run(args).exitCode == 0)
        }
        let imported = try other.run("import", file, "--format", "json")
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.json["imported"] as? Int == 10)
        #expect(imported.json["transfers"] as? Int == 4)
        // No rate cache in the new ledger: every amount comes from the file.
        for args in [["balances"], ["balances", "--by-currency"], ["settle"], ["report", "--by", "member"]] {
            let a = try trip.run(args + ["--format", "json"]), b = try other.run(args + ["--format", "json"])
            #expect(a.exitCode == 0 && b.exitCode == 0, "\(args): \(a.stderr) \(b.stderr)")
            #expect(a.stdout == b.stdout, "\(args)")
        }
        #expect(try trip.run("balances").stdout == other.run("balances").stdout)
        let members = try #require(try other.run("members", "--format", "json").json["members"] as? [[String: Any]])
        #expect(members.map { "\($0["name"]!)" } == ["Ana", "Ben", "Carla", "Dan", "Eve"])
        // Exported again, the same rows (ids aside, and the refund's link, which an import does not
        // keep); imported again, nothing is added.
        func body(_ csv: String) -> [String] {
            csv.split(separator: "\r\n").map { String($0.drop { $0 != "," }).replacingOccurrences(of: ",refund,3,", with: ",refund,,") }
        }
        #expect(body(try other.run("export", "--format", "csv").stdout) == body(export.stdout))
        let again = try other.run("import", file)
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(again.stdout == "imported 0 purchases into \"Japan\" (14 duplicates skipped)\n")
        #expect(try other.run("balances", "--format", "json").stdout == trip.run("balances", "--format", "json").stdout)

        // A file that holds one transfer twice adds it twice to a ledger that has it once, and
        // then nothing: each transfer counts as often as the ledger already has it.
        let museum = try #require(raw.first { $0.contains(",half the museum,") })
        let twice = folder.file("twice.csv")
        try (raw + [museum]).map { $0 + "\r\n" }.joined().write(toFile: twice, atomically: true, encoding: .utf8)
        let third = TripProcess(ledgerPath: folder.file("third.sqlite"))
        for args in [["init", "--home", "USD"], ["new", "Japan", "--currency", "JPY"]] {
            try #require(try third.run(args).exitCode == 0)
        }
        #expect(try third.run("import", file, "--format", "json").json["transfers"] as? Int == 4)
        let doubled = try third.run("import", twice, "--format", "json")
        #expect(doubled.exitCode == 0, "\(doubled.stderr)")
        #expect(doubled.json["transfers"] as? Int == 1, "\(doubled.stdout)")
        #expect(try third.run("import", twice, "--format", "json").json["transfers"] as? Int == 0)
    }

    /// A file written before group trips (no `paid_by`, `split`, `members`) imports as before:
    /// purchases with no split.
    @Test func aPreGroupExportStillImports() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        for args in [["init", "--home", "USD"], ["new", "Japan", "--currency", "JPY"], ["member", "add", "Ana", "Ben"]] {
            try #require(try trip.run(args).exitCode == 0)
        }
        // Exactly what `trip export --format csv` wrote before this change.
        let old = """
            id,trip,date,note,category,paid_with,currency,expression,price,discount,discount_spec,service,service_spec,tax,tax_spec,tax_included,tip,tip_spec,total,rounding,preset,rate,rate_date,rate_source,rate_provider,rate_fetched_at,provisional,home_currency,home_total,charged,kind,refund_of\r
            1,Japan,2026-03-01,ramen,,,JPY,3240,3240,0,,0,,0,,false,0,,3240,half-up,,0.0067,2026-03-01,manual,,,false,USD,21.71,,purchase,\r
            2,Japan,2026-03-02,ramen,,,JPY,1000,1000,0,,0,,0,,false,0,,1000,half-up,,0.0067,2026-03-01,manual,,,false,USD,6.70,,refund,1\r

            """
        let file = folder.file("old.csv")
        try old.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try trip.run("import", file)
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout == "imported 2 purchases into \"Japan\" (0 duplicates skipped)\n")
        let b = try trip.run("balances", "--format", "json").json
        #expect(b["unsplit_purchases"] as? Int == 2)
        #expect((try trip.run("report", "--format", "json").json["totals"] as? [String: Any])?["net"] as? String == "15.01")
    }

    /// Bad group cells are refused with one line naming row and column, and nothing is imported.
    @Test(arguments: [
        ("Ana=1,Ben=1", "", "row 1, column split"),
        ("", "Ana=1", "row 1, column paid_by"),
        ("Ana=1", "Ana=1,ana=2", "row 1, column split: \"ana\" is named twice"),
        ("Ana=1", "Ana=-1", "row 1, column split: \"Ana=-1\" needs a weight above zero"),
        ("Ana=1", "Ana", "row 1, column split: \"Ana\" is not NAME=WEIGHT"),
        ("all=1", "Ana=1", "row 1, column paid_by: \"all\" is a reserved word"),
    ])
    func badSplitCellsAreRefused(_ paidBy: String, _ split: String, _ message: String) throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        for args in [["init", "--home", "USD"], ["new", "Japan", "--currency", "JPY"]] {
            try #require(try trip.run(args).exitCode == 0)
        }
        let csv = """
            date,currency,price,total,rate,rate_source,home_currency,home_total,paid_by,split\r
            2026-03-01,JPY,1000,1000,0.0067,manual,USD,6.70,"\(paidBy)","\(split)"\r

            """
        let file = folder.file("bad.csv")
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try trip.run("import", file)
        #expect(r.exitCode == 65)
        #expect(r.stderr.hasPrefix("trip: import: \(message)"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect((try trip.run("list", "--format", "json").json["purchases"] as? [Any])?.count == 0)
        #expect((try trip.run("members", "--format", "json").json["members"] as? [Any])?.count == 0)
    }

    /// Transfer rows are checked like purchases: a bad one is named by row and column, and nothing
    /// (no purchase, member or transfer) is imported.
    @Test(arguments: [
        ("Carla", "Carla", "", "6.70", "row 2, column split: \"Carla\" is the member who pays"),
        ("Carla", "Ana", "food", "6.70", "row 2, column category: \"food\" is given on a transfer row"),
        ("Carla", "Ana", "", "6.71", "row 2, column home_total: \"6.71\" does not match total × rate = 6.70"),
        ("", "Ana", "", "6.70", "row 2, column paid_by: \"\" is empty"),
    ])
    func badTransferRowsAreRefused(_ from: String, _ to: String, _ category: String, _ home: String, _ message: String) throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        for args in [["init", "--home", "USD"], ["new", "Japan", "--currency", "JPY"]] {
            try #require(try trip.run(args).exitCode == 0)
        }
        let csv = """
            date,category,currency,price,total,rate,rate_source,home_currency,home_total,kind,paid_by,split,members\r
            2026-03-01,,JPY,1000,1000,0.0067,manual,USD,6.70,purchase,Ana=1,"Ana=1,Carla=1","Ana,Carla"\r
            2026-03-01,\(category),JPY,1000,1000,0.0067,manual,USD,\(home),transfer,\(from),\(to),\r

            """
        let file = folder.file("bad.csv")
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try trip.run("import", file)
        #expect(r.exitCode == 65)
        #expect(r.stderr.hasPrefix("trip: import: \(message)"), "\(r.stderr)")
        #expect((try trip.run("list", "--format", "json").json["purchases"] as? [Any])?.count == 0)
        #expect((try trip.run("members", "--format", "json").json["members"] as? [Any])?.count == 0)
        // The same file with a good transfer row imports it, and the members in the cell's order.
        let good = csv.replacingOccurrences(of: ",\(category),JPY", with: ",,JPY").replacingOccurrences(
            of: "USD,\(home),transfer", with: "USD,6.70,transfer"
        )
        .replacingOccurrences(of: "transfer,\(from),\(to),", with: "transfer,Carla,Ana,")
        try good.write(toFile: file, atomically: true, encoding: .utf8)
        let ok = try trip.run("import", file)
        #expect(ok.stdout == "imported 1 purchase and 1 transfer into \"Japan\" (0 duplicates skipped)\n", "\(ok.stderr)")
        let b = try #require(try trip.run("balances", "--format", "json").json["members"] as? [[String: Any]])
        // Ana paid 6.70 and shares 3.35; Carla shares 3.35 and sent 6.70.
        #expect(b.map { "\($0["name"]!) \($0["balance"]!)" } == ["Ana -3.35", "Carla 3.35"])
    }

    /// `bal ^Equity:Members: --invert` in hledger and in ledger gives every member's balance to the
    /// cent, while the expense total still equals the report's net.
    @Test(arguments: AccountingTool.allCases)
    func ledgerJournalReproducesEveryMemberBalance(_ tool: AccountingTool) throws {
        let (folder, trip) = try Self.seeded()
        let export = try trip.run("export", "--format", "ledger")
        #expect(export.exitCode == 0, "\(export.stderr)")
        // Dinner: S$ 143.00 JPY… in JPY 130 + 10% = 143 → home 0.96 (143 × 0.0067), paid by Ana
        // (the first member; no whoami), shared by three: 0.32 each, so Ana's posting is −0.64.
        #expect(
            export.stdout.contains(
                "    Expenses:Uncategorized  143 JPY @@ 0.96 USD\n    Assets:Cash  -0.96 USD\n"
                    + "    Equity:Members:Ana  -0.64 USD\n    Equity:Members:Ben  0.32 USD\n    Equity:Members:Carla  0.32 USD\n"))
        #expect(export.stdout.contains("(T3) Dan pays Carla, half the museum\n"))
        #expect(export.stdout.contains("; transfer 4: 5000.00 MNT from Ana to Ben has no rate; it is in no member balance\n"))
        let file = folder.file("trip.journal")
        try export.stdout.write(toFile: file, atomically: true, encoding: .utf8)

        let path = "/usr/bin/\(tool)"
        let bal = try runTool(path, ["-f", file, "bal", "^Equity:Members:", "--invert", "--flat", "--no-total"])
        #expect(bal.status == 0, "\(tool): \(bal.stderr)")
        var figures: [String: String] = [:]
        for line in bal.stdout.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard words.count == 3, words[1] == "USD", words[2].hasPrefix("Equity:Members:") else { continue }
            figures[String(words[2].dropFirst("Equity:Members:".count))] = words[0]
        }
        let expected = try Self.balances(trip).filter { $0.value != "0.00" }
        #expect(expected.count == 4)  // Eve took part in nothing
        #expect(figures == expected, "\(tool) printed:\n\(bal.stdout)")

        let net = try #require((trip.run("report", "--format", "json").json["totals"] as? [String: Any])?["net"] as? String)
        let expenses = try tool.balanceAtCost(file)
        #expect(AccountingTool.totals(expenses.stdout)["USD"] == net, "\(tool) printed:\n\(expenses.stdout)")
    }

    /// Beancount loads the file with no error, and the weights under `Equity:Members:` are minus
    /// each member's balance.
    @Test func beancountJournalReproducesEveryMemberBalance() throws {
        let (folder, trip) = try Self.seeded()
        let export = try trip.run("export", "--format", "beancount")
        #expect(export.exitCode == 0, "\(export.stderr)")
        let file = folder.file("trip.beancount")
        try export.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let script = """
            import sys
            from decimal import Decimal
            from beancount import loader
            from beancount.core import convert, data
            entries, errors, options = loader.load_file(sys.argv[1])
            for e in errors:
                print(e.message, file=sys.stderr)
            totals = {}
            for entry in entries:
                if isinstance(entry, data.Transaction):
                    for p in entry.postings:
                        if p.account.startswith("Equity:Members:"):
                            w = convert.get_weight(p)
                            key = p.account[len("Equity:Members:"):] + " " + w.currency
                            totals[key] = totals.get(key, Decimal(0)) + w.number
            for key, number in sorted(totals.items()):
                if number != 0:
                    print(key, format(-number, "f"))
            sys.exit(1 if errors else 0)
            """
        let r = try runTool("/usr/bin/env", ["python3", "-c", script, file], environment: ProcessInfo.processInfo.environment)
        #expect(r.status == 0 && r.stderr.isEmpty, "beancount: \(r.stderr)")
        var figures: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if words.count == 3, words[1] == "USD" { figures[words[0]] = words[2] }
        }
        #expect(figures == (try Self.balances(trip).filter { $0.value != "0.00" }), "beancount: \(r.stdout)")
    }
}

extension GroupExchangeEndToEndTests {
    /// A trip without members gets exactly the journals it always did: no member posting, account
    /// or header line (the headers below are those written before group trips).
    @Test func aTripWithoutMembersGetsTheSameJournals() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        for args in [
            ["init", "--home", "USD"], ["new", "Japan", "--currency", "JPY"],
            ["rates", "set", "JPY", "0.0067", "--date", "2026-03-01"], ["add", "3240", "ramen", "--date", "2026-03-01"],
        ] {
            try #require(try trip.run(args).exitCode == 0)
        }
        let ledger = try trip.run("export", "--format", "ledger").stdout
        #expect(
            ledger.contains(
                """
                ; Amounts: "." decimal mark, no grouping, the currency's ISO 4217 minor digits.
                commodity 1,000. JPY
                commodity 1,000.00 USD

                2026-03-01 * (1) ramen
                    ; trip: Japan
                    ; purchase: 1
                    ; rate: 0.0067 USD per JPY
                    ; rate_source: manual
                    ; rate_date: 2026-03-01
                    Expenses:Uncategorized  3240 JPY @@ 21.71 USD
                    Assets:Cash  -21.71 USD

                ; 1 purchases; home totals: 21.71 USD; unconverted: 0

                """), "\(ledger)")
        let bean = try trip.run("export", "--format", "beancount").stdout
        #expect(
            bean.contains(
                """
                ; currency only, outside every home total.

                option "title" "trip export: \\"Japan\\""
                option "operating_currency" "USD"

                2026-03-01 open Assets:Cash
                2026-03-01 open Expenses:Uncategorized

                2026-03-01 * "ramen" "Japan #1"
                """), "\(bean)")
        #expect(!ledger.contains("Members") && !bean.contains("Members"))
        let csv = try trip.run("export", "--format", "csv").stdout
        #expect(csv.contains(",USD,21.71,,purchase,,,,,"))
    }
}

/// Runs a tool with a plain environment.
private func runTool(_ path: String, _ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try runTool(path, args, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/nonexistent-home"])
}
