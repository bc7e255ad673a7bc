import TestSupport
import Testing

@testable import TripCore

/// `StatementInference` on statements the test writes in many layouts (issue 37): whatever it
/// decides equals what the generator wrote, or it refuses; it never decides otherwise.
@Suite("Statement inference")
struct StatementInferenceTests {
    /// What a generated statement really is.
    struct Truth {
        var delimiter: UInt8
        var preamble: Int
        var date: String
        var order: DatePattern.Order?
        var amount: String?
        var pair: (out: String, in: String)?
        var mark: Character
        var spendingNegative: Bool
        /// Per data row: the amount in cents and whether it is spending.
        var rows: [(cents: Int64, spending: Bool)] = []
    }

    /// A seeded statement: its bytes as text and its truth.
    static func generate(_ seed: UInt64) -> (text: String, truth: Truth) {
        var g = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &g)] }
        func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &g) < p }
        let delimiter: UInt8 = pick([0x2C, 0x3B, 0x09])
        let mark: Character = delimiter == 0x2C && chance(0.7) ? "." : pick([".", ","])
        let form = pick(["YYYY-MM-DD", "DD.MM.YYYY", "DD/MM/YYYY", "MM/DD/YYYY", "D MMM YYYY"])
        let pattern = DatePattern(form)!
        let quoteAll = chance(0.4)
        let dateName = pick(["Date", "Transaction Date", "Buchungstag", "Datum", "Trans. Date"])
        let noteName = pick(["Description", "Beschreibung", "Payee", "Merchant", "Naam / Omschrijving"])
        let usePair = chance(0.3)
        let amountName = pick(["Amount", "Betrag", "Bedrag", "Amount (EUR)", "Montant"])
        let pair = pick([("Debit", "Credit"), ("Paid Out", "Paid In"), ("Money Out", "Money In"), ("Withdrawals", "Deposits")])
        let spendingNegative = chance(0.5)
        var header = [dateName, noteName]
        if chance(0.4) { header.insert("Post Date", at: 1) }
        header += usePair ? [pair.0, pair.1] : [amountName]
        if chance(0.4) { header.append("Balance") }
        let preamble = Int.random(in: 0...3, using: &g)
        var truth = Truth(
            delimiter: delimiter, preamble: preamble, date: dateName, order: pattern.order, amount: usePair ? nil : amountName,
            pair: usePair ? (pair.0, pair.1) : nil, mark: mark, spendingNegative: spendingNegative)

        func money(_ cents: Int64) -> String {
            let whole = cents / 100, frac = cents % 100
            var w = String(whole)
            if whole >= 1000 && chance(0.5) {
                let group: Character = mark == "." ? "," : "."
                w.insert(group, at: w.index(w.endIndex, offsetBy: -3))
            }
            return w + String(mark) + (frac < 10 ? "0" : "") + String(frac)
        }
        func dateText(day: Int, month: Int) -> String {
            let dd = day < 10 ? "0\(day)" : "\(day)", mm = month < 10 ? "0\(month)" : "\(month)"
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            switch form {
            case "YYYY-MM-DD": return "2026-\(mm)-\(dd)"
            case "DD.MM.YYYY": return "\(dd).\(mm).2026"
            case "DD/MM/YYYY": return "\(dd)/\(mm)/2026"
            case "MM/DD/YYYY": return "\(mm)/\(dd)/2026"
            default: return "\(day) \(months[month - 1]) 2026"
            }
        }
        let merchants = ["Cafe Central", "Museo Nacional", "Hotel Sol", "Taxi Rapido", "Libreria Norte", "Farmacia"]
        var lines: [[String]] = []
        let count = Int.random(in: 1...9, using: &g)
        for i in 0..<count {
            var spending = true
            var note = pick(merchants)
            if i == count - 1 && chance(0.4) {
                note = "PAYMENT - THANK YOU"
                spending = false
            } else if i > 0 && chance(0.15) {
                note = lines[0][1]
                spending = false
            }
            let cents = Int64.random(in: 1...250_000, using: &g)
            let date = dateText(day: Int.random(in: 1...28, using: &g), month: Int.random(in: 1...12, using: &g))
            var cells = [date, note]
            if header.contains("Post Date") { cells.append(date) }
            if usePair {
                cells += spending ? [money(cents), ""] : ["", money(cents)]
            } else {
                let negative = spending == spendingNegative
                cells.append((negative ? "-" : "") + money(cents))
            }
            if header.contains("Balance") { cells.append(money(Int64.random(in: 0...900_000, using: &g))) }
            lines.append(cells)
            truth.rows.append((cents, spending))
        }
        let d = String(UnicodeScalar(delimiter))
        func field(_ c: String) -> String {
            quoteAll || c.contains(d) || c.contains(",") && delimiter == 0x2C ? "\"\(c)\"" : c
        }
        var text = ""
        for i in 0..<preamble { text += ["Account", "Statement \(i)"].joined(separator: d) + "\n" }
        text += header.map(field).joined(separator: d) + "\n"
        for l in lines { text += l.map(field).joined(separator: d) + "\n" }
        return (text, truth)
    }

    /// A small CSV reader (quotes, doubled quotes) for the tables the rule is given.
    static func records(_ text: String, delimiter: UInt8) -> [[String]] {
        let d = Character(UnicodeScalar(delimiter))
        var out: [[String]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
            var cells: [String] = [], cell = "", quoted = false
            var chars = Array(line)[...]
            while let c = chars.popFirst() {
                if quoted {
                    if c == "\"" {
                        if chars.first == "\"" {
                            cell.append("\"")
                            chars = chars.dropFirst()
                        } else {
                            quoted = false
                        }
                    } else {
                        cell.append(c)
                    }
                } else if c == "\"" && cell.isEmpty {
                    quoted = true
                } else if c == d {
                    cells.append(cell.trimmingSpaces)
                    cell = ""
                } else {
                    cell.append(c)
                }
            }
            cells.append(cell.trimmingSpaces)
            out.append(cells)
        }
        return out
    }

    static func tables(_ text: String) -> [StatementInference.Table] {
        [0x2C, 0x3B, 0x09].map { StatementInference.Table(delimiter: $0, records: records(text, delimiter: $0)) }
    }

    @Test func aGeneratedStatementIsReadAsWrittenOrRefused() throws {
        var decided = 0
        let seeds: [UInt64] = Array(1...(HardeningScale.isLong ? 5000 : 600))
        for seed in seeds {
            let (text, truth) = Self.generate(seed)
            guard case .success(let layout) = StatementInference.infer(Self.tables(text)) else { continue }
            decided += 1
            let context = Comment(rawValue: "seed \(seed):\n\(text)")
            #expect(layout.delimiter == truth.delimiter, context)
            #expect(layout.headerIndex == truth.preamble, context)
            #expect(layout.date == truth.date, context)
            if let order = truth.order { #expect(layout.datePatterns.allSatisfy { $0.order == nil || $0.order == order }, context) }
            #expect(layout.amount == truth.amount, context)
            #expect(layout.paidOut == truth.pair?.out && layout.paidIn == truth.pair?.in, context)
            if truth.amount != nil { #expect(layout.spendingNegative == truth.spendingNegative, context) }
            let records = Self.records(text, delimiter: truth.delimiter)
            let header = records[truth.preamble]
            // Every amount reads as written with the decided mark, and spending is told from money in.
            for (row, want) in zip(records.dropFirst(truth.preamble + 1), truth.rows) {
                let column = layout.amount ?? (row[header.firstIndex(of: layout.paidOut!)!].isEmpty ? layout.paidIn! : layout.paidOut!)
                let cell = row[header.firstIndex(of: column)!]
                let read = try StatementAmount.read(cell, field: column, decimalMark: layout.decimalMark) { CurrencyTable.shared.lookup("EUR")! }
                #expect(read.minorUnits == want.cents, context)
                let spending = layout.amount == nil ? column == layout.paidOut : read.isNegative == layout.spendingNegative
                #expect(spending == want.spending, context)
            }
        }
        // Refusing everything would pass the checks above: most files must be decided.
        #expect(decided * 3 >= seeds.count, "decided \(decided) of \(seeds.count)")
    }

    @Test func aDayOverTwelveDecidesTheOrderAndNoneLeavesItOpen() {
        let open = "Date,Description,Amount\n03/04/2026,Cafe,-3.50\n04/05/2026,Bar,-4.00\n02/03/2026,Shop,-1.00\n01/02/2026,Taxi,-9.00\n"
        guard case .failure(let u) = StatementInference.infer(Self.tables(open)) else {
            Issue.record("decided a date order no row decides")
            return
        }
        #expect(u.choice == "date order" && u.option.contains("--date-format DD/MM/YYYY"), "\(u)")
        let decided = open + "12/31/2026,Hotel,-80.00\n"
        guard case .success(let layout) = StatementInference.infer(Self.tables(decided)) else {
            Issue.record("12/31 decides month/day")
            return
        }
        #expect(layout.datePatterns.allSatisfy { $0.order != .dayFirst })
    }

    @Test(arguments: [
        ("Date,Description,Amount\n2026-03-01,Cafe,3.50\n2026-03-02,Bar,-4.00\n", "sign of spending", "--spending negative"),
        ("Date,Description,Amount\n2026-03-01,Cafe,\"1,234\"\n2026-03-02,Bar,12\n", "decimal mark", "--decimal-mark"),
        ("Date,Description,Amount,Total\n2026-03-01,Cafe,3.50,3.50\n", "sign of spending", "--spending"),
        ("Date,Description,Price,Total\n2026-03-01,Cafe,3.50,3.50\n", "amount column", "--amount-column"),
        ("Date,Booked,Description,Amount\n2026-03-01,2026-03-02,Cafe,-3.50\n", "date column", "--date-column \"Date\""),
        ("Date,Description,Debit,Credit\n2026-03-01,Cafe,3.50,1.00\n", "amount column", "--amount-column"),
        ("Date,Description,Amount,Type\n2026-03-01,Cafe,-3.50,Mystery\n", "row types", "--profile"),
        ("Date,Description,Debit,Credit\n2026-03-01,REFUND CAFE,3.50,\n2026-03-02,Bar,4.00,\n", "rows that are not spending", "--profile"),
    ])
    func aChoiceTheFileLeavesOpenIsNamedWithItsOption(_ text: String, _ choice: String, _ option: String) {
        guard case .failure(let u) = StatementInference.infer(Self.tables(text)) else {
            Issue.record("decided: \(text)")
            return
        }
        #expect(u.choice == choice, "\(u)")
        #expect(u.option.contains(option), "\(u)")
    }

    @Test func paymentsToTheCardDecideTheSignAgainstAnEvenSplit() {
        let text = """
            Date,Description,Amount
            2026-03-01,Cafe,3.50
            2026-03-02,AUTOPAY PAYMENT - THANK YOU,-100.00
            2026-03-03,Cafe,-3.50

            """
        guard case .success(let layout) = StatementInference.infer(Self.tables(text)) else {
            Issue.record("a payment to the card decides")
            return
        }
        #expect(layout.spendingNegative == false)
        #expect(layout.rows.contains { $0.kind == .skip("card settlement") })
        #expect(layout.summary == "date \"Date\" (YYYY-MM-DD), amount \"Amount\" (spending positive, decimal point), description \"Description\"")
    }

    @Test func theDecidedMarkReadsGroupsAndRefusesMisplacedOnes() throws {
        let eur = CurrencyTable.shared.lookup("EUR")!, jpy = CurrencyTable.shared.lookup("JPY")!
        #expect(try StatementAmount.read("1.234,50", field: "a", decimalMark: ",") { eur }.minorUnits == 123_450)
        #expect(try StatementAmount.read("1,612", field: "a", decimalMark: ".") { jpy }.minorUnits == 1612)
        // With `.` decided, `1.234` is one and a bit yen, which JPY cannot hold: refused, not 1,234.
        #expect(throws: TripError.self) { try StatementAmount.read("1.234", field: "a", decimalMark: ".") { jpy } }
        #expect(throws: TripError.self) { try StatementAmount.read("12.34,5", field: "a", decimalMark: ",") { eur } }
    }
}
