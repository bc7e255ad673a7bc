/// Reads a card statement no profile knows (issue 37): decides its layout from the file itself, or
/// says which choice the file leaves open and the option that settles it.
///
/// Nothing is a default that happened to fit. The day/month order comes from a date only one
/// order reads (`DateChoice`); the sign of spending from rows that are payments to the card or
/// refunds by their description or type, else from a clear majority; the decimal mark from an
/// amount only one mark reads. A choice the file does not decide is `Undecided`: refusing is
/// always acceptable, importing wrong never is.
public enum StatementInference {
    /// Options the user gave: each settles its choice instead of the file.
    public struct Hints: Sendable {
        public var spendingNegative: Bool?
        public var dateFormat: DatePattern?
        public var decimalMark: Character?
        /// `--skip-lines`: the header's record number.
        public var headerIndex: Int?

        public init(spendingNegative: Bool? = nil, dateFormat: DatePattern? = nil, decimalMark: Character? = nil, headerIndex: Int? = nil) {
            self.spendingNegative = spendingNegative
            self.dateFormat = dateFormat
            self.decimalMark = decimalMark
            self.headerIndex = headerIndex
        }
    }

    /// A choice the file leaves open: what it is, why, and the option that makes it.
    public struct Undecided: Error, Sendable, Equatable, CustomStringConvertible {
        /// `date column`, `date order`, `amount column`, `decimal mark`, `sign of spending`, …
        public let choice: String
        public let reason: String
        public let option: String

        public var description: String {
            "\(choice) not decided by the file: \(reason); give \(option) (nothing was imported)"
        }
    }

    /// The file read with one delimiter: its records, cells trimmed as the statement reader trims them.
    public struct Table: Sendable {
        public let delimiter: UInt8
        public let records: [[String]]

        public init(delimiter: UInt8, records: [[String]]) {
            self.delimiter = delimiter
            self.records = records
        }
    }

    /// The layout of the file (read with each delimiter in `tables`), or the first choice it leaves open.
    public static func infer(_ tables: [Table], hints: Hints = Hints()) -> Result<StatementLayout, Undecided> {
        do { return .success(try decide(tables, hints: hints)) } catch { return .failure(error) }
    }

    static func decide(_ tables: [Table], hints: Hints) throws(Undecided) -> StatementLayout {
        let found = tables.compactMap { t in headerIndex(t.records, fixed: hints.headerIndex).map { (t, $0) } }
        guard !found.isEmpty else {
            throw Undecided(
                choice: "header", reason: "no line is followed by rows of the same number of cells (tried , ; and tab)",
                option: "--skip-lines N and --delimiter D")
        }
        // The delimiter is the one whose table gives the columns their meaning: `;` read as `,` can
        // make a table of two columns of text, which decides nothing.
        var decided: [StatementLayout] = []
        var firstError: (width: Int, error: Undecided)?
        for (table, at) in found {
            let columns = Columns(header: table.records[at], rows: dataRows(table.records, header: at))
            do {
                var layout = try columns.decide(hints: hints)
                layout.delimiter = table.delimiter
                layout.headerIndex = at
                decided.append(layout)
            } catch {
                if firstError.map({ $0.width < columns.header.count }) ?? true { firstError = (columns.header.count, error) }
            }
        }
        if decided.count > 1 {
            let names = decided.map { delimiterName($0.delimiter) }.joined(separator: " and ")
            throw Undecided(
                choice: "delimiter", reason: "the file reads as a statement with \(names)",
                option: "--delimiter \(delimiterName(decided[0].delimiter))")
        }
        guard let layout = decided.first else { throw firstError!.error }
        return layout
    }

    static func delimiterName(_ d: UInt8) -> String { d == 0x09 ? "tab" : d == 0x3B ? "';'" : String(UnicodeScalar(d)) }

    /// The first record (of the first 40) that reads as a header: two or more cells of text, none a
    /// date or an amount, followed by rows of its number of cells only.
    static func headerIndex(_ records: [[String]], fixed: Int?) -> Int? {
        let candidates = fixed.map { [$0] } ?? Array(0..<min(records.count, 40))
        for i in candidates where i < records.count {
            let header = records[i]
            let named = header.filter { !$0.isEmpty }
            guard named.count >= 2, named.allSatisfy({ !isDate($0) && Shape(cell: $0) == nil }) else { continue }
            let rows = dataRows(records, header: i)
            let width = header.count
            let endsEmpty = header.last?.isEmpty == true
            guard !rows.isEmpty,
                rows.allSatisfy({ $0.count == width || ($0.count == width - 1 && endsEmpty) })
            else { continue }
            return i
        }
        return nil
    }

    /// The records after the header, blank ones left out, a trailing empty cell beyond the header's dropped.
    static func dataRows(_ records: [[String]], header: Int) -> [[String]] {
        let width = records[header].count
        return records.dropFirst(header + 1).filter { !$0.allSatisfy(\.isEmpty) }.map {
            $0.count == width + 1 && $0.last?.isEmpty == true ? Array($0.dropLast()) : $0
        }
    }

    static func isDate(_ cell: String) -> Bool { DatePattern.known.contains { $0.validFields(cell) != nil } }
}

extension StatementInference {
    /// What each column holds, and the decisions made from it.
    struct Columns {
        let header: [String]
        let rows: [[String]]
        /// Lower-cased header names without a trailing `(EUR)`.
        let names: [String]

        init(header: [String], rows: [[String]]) {
            self.header = header
            self.rows = rows
            names = header.map { h in
                var n = h.lowercased().trimmingSpaces
                if n.hasSuffix(")"), let open = n.lastIndex(of: "(") { n = String(n[..<open]).trimmingSpaces }
                return n
            }
        }

        func values(_ i: Int) -> [String] { rows.compactMap { i < $0.count && !$0[i].isEmpty ? $0[i] : nil } }

        func cell(_ row: [String], _ i: Int?) -> String { i.flatMap { $0 < row.count ? row[$0] : nil } ?? "" }

        func named(_ i: Int, _ words: [String]) -> Bool { words.contains { names[i].containsWord($0) } }

        func decide(hints: Hints) throws(Undecided) -> StatementLayout {
            let dates = header.indices.filter { i in
                let v = values(i).filter { $0.lowercased() != "pending" }
                return !v.isEmpty && v.allSatisfy(StatementInference.isDate)
            }
            let date = try dateColumn(dates)
            let dateCells = values(date).filter { $0.lowercased() != "pending" }
            let patterns = try datePatterns(dateCells, column: header[date], hint: hints.dateFormat)
            // Columns of numbers (or empty): amounts, balances, card numbers.
            let numbers = header.indices.filter { i in !dates.contains(i) && values(i).allSatisfy { Shape(cell: $0) != nil } }
            var layout = StatementLayout(delimiter: 0, headerIndex: 0, header: header, date: header[date], datePatterns: patterns)
            let (amount, pair) = try amountColumns(numbers, dateColumn: header[date])
            if let amount { layout.amount = header[amount] }
            if let pair {
                layout.paidOut = header[pair.out]
                layout.paidIn = header[pair.in]
            }
            let foreign = numbers.filter { named($0, Vocabulary.foreignAmount) && !named($0, ["in"]) && !values($0).isEmpty }
            if foreign.count == 1 { layout.foreignAmount = header[foreign[0]] }
            let amountColumns = [amount, pair?.out, pair?.in, foreign.count == 1 ? foreign[0] : nil].compactMap { $0 }
            layout.decimalMark = try decimalMark(amountColumns, hint: hints.decimalMark)

            let text = header.indices.filter { !dates.contains($0) && !numbers.contains($0) }
            let currencies = text.filter { i in
                let v = values(i)
                return named(i, Vocabulary.currency) && !v.isEmpty && v.allSatisfy { $0.count == 3 && CurrencyTable.shared.lookup($0) != nil }
            }
            let foreignCurrency = currencies.filter { named($0, Vocabulary.foreignAmount) }
            if foreignCurrency.count == 1, layout.foreignAmount != nil { layout.foreignCurrency = header[foreignCurrency[0]] }
            let own = currencies.filter { !foreignCurrency.contains($0) }
            let anchor = amount ?? pair?.out ?? 0
            // ING names `Währung` twice, the balance's and the amount's: the amount's is the one after it.
            let currency = own.count == 1 ? own[0] : own.first { $0 == anchor + 1 }
            if own.count > 1 && currency == nil {
                throw Undecided(
                    choice: "currency column", reason: "columns \(own.map { quoted(header[$0]) }.joined(separator: " and ")) both name currencies",
                    option: "--date-column \(quoted(header[date])) --amount-column \(quoted(header[anchor])) --currency-column C")
            }
            if let currency { layout.currency = header[currency] }

            let note = Vocabulary.description.lazy.compactMap { word in text.first { names[$0].containsWord(word) } }.first
            layout.note = note.map { header[$0] }
            let state = try stateColumn(text)
            if let state {
                layout.state = header[state.column]
                layout.pending = state.pending
                layout.notCompleted = state.notCompleted
            }
            let type = try typeColumn(text.filter { $0 != state?.column && $0 != note })
            if let amount, pair == nil {
                if let d = directionColumn(text, amount: amount) {
                    layout.direction = header[d.column]
                    layout.moneyOut = d.out
                    layout.moneyIn = d.in
                } else {
                    let (negative, reason) = try spendingSign(
                        amount: amount, note: note, type: type, hint: hints.spendingNegative, column: header[amount])
                    layout.spendingNegative = negative
                    layout.signReason = reason
                }
            }
            if let type {
                layout.type = header[type.column]
                layout.rows = type.rules
            } else if let note {
                layout.rows = descriptionRules(note)
            }
            try checkDirections(layout, note: note, type: type)
            return layout
        }

        /// With money out and money in told apart by columns, a row whose type or description says
        /// the other way (a `Refund` in the debit column) is refused, not taken as either.
        func checkDirections(
            _ layout: StatementLayout, note: Int?, type: (column: Int, rules: [StatementLayout.RowRule], kinds: [String: StatementLayout.RowKind])?
        ) throws(Undecided) {
            guard layout.spendingNegative == nil else { return }
            let out = layout.paidOut.flatMap { header.firstIndex(of: $0) }
            let way = layout.direction.flatMap { header.firstIndex(of: $0) }
            for (n, row) in rows.enumerated() {
                let spending: Bool
                if let out {
                    spending = nonZero(cell(row, out))
                } else if let way {
                    spending = layout.moneyOut.contains(cell(row, way))
                } else {
                    return
                }
                let kind = type.flatMap { $0.kinds[cell(row, $0.column).lowercased()] }
                let says: Bool? =
                    switch kind {
                    case .purchase?, .fee?: true
                    case .refund?, .skip("card settlement")?: false
                    case .skip?: nil
                    case nil: Vocabulary.isMoneyIn(cell(row, note)) ? false : nil
                    }
                guard let says, says != spending else { continue }
                throw Undecided(
                    choice: "rows that are not spending",
                    reason:
                        "row \(n + 1) (\(quoted(cell(row, note ?? type?.column)))) is money \(spending ? "out" : "in") but reads as \(says ? "spending" : "a payment or refund")",
                    option: "--profile NAME (a profile file's [rows] says what each row is)")
            }
        }

        // MARK: dates

        func dateColumn(_ dates: [Int]) throws(Undecided) -> Int {
            guard !dates.isEmpty else {
                throw Undecided(
                    choice: "date column", reason: "no column holds dates in a form this import knows",
                    option: "--date-column C --amount-column C --date-format F")
            }
            if dates.count == 1 { return dates[0] }
            // A posting or value date is the bank's; the purchase's is the other.
            let purchase = dates.filter { !named($0, Vocabulary.postingDate) }
            if purchase.count == 1 { return purchase[0] }
            let names = dates.map { quoted(header[$0]) }.joined(separator: ", ")
            throw Undecided(
                choice: "date column", reason: "columns \(names) all hold dates",
                option: "--date-column \(quoted(header[purchase.first ?? dates[0]])) --amount-column C")
        }

        func datePatterns(_ cells: [String], column: String, hint: DatePattern?) throws(Undecided) -> [DatePattern] {
            if let hint { return [hint] }
            switch DatePattern.choose(for: cells) {
            case .patterns(let p):
                // The patterns that read a date of this file, in `known`'s order; an order no date
                // needs (`06/06/2026` reads both ways alike) is left out when a date rules it out.
                let reading = p.filter { p in cells.contains { p.validFields($0) != nil } }
                func only(_ o: DatePattern.Order) -> Bool {
                    cells.contains { c in
                        reading.contains { $0.order == o && $0.validFields(c) != nil }
                            && !reading.contains { $0.order != nil && $0.order != o && $0.validFields(c) != nil }
                    }
                }
                let (day, month) = (only(.dayFirst), only(.monthFirst))
                guard day != month else { return reading }
                return reading.filter { $0.order != (day ? .monthFirst : .dayFirst) }
            case .undecided(let example):
                let forms = DatePattern.known.filter { $0.order != nil && $0.validFields(example) != nil }.map(\.description)
                throw Undecided(
                    choice: "date order",
                    reason: "the dates of column \(quoted(column)) (\(quoted(example))) read as day/month and as month/day",
                    option: forms.map { "--date-format \($0)" }.joined(separator: " or "))
            case .conflicting(let d, let m):
                throw Undecided(
                    choice: "date order", reason: "column \(quoted(column)) has \(quoted(d)) (only day/month) and \(quoted(m)) (only month/day)",
                    option: "--date-format")
            }
        }

        // MARK: amounts

        func amountColumns(_ numbers: [Int], dateColumn: String) throws(Undecided) -> (Int?, (out: Int, in: Int)?) {
            let candidates = numbers.filter { !named($0, Vocabulary.notTheAmount) }
            let amounts = candidates.filter { named($0, Vocabulary.amount) && !values($0).isEmpty }
            let outs = candidates.filter { named($0, Vocabulary.moneyOut) && !named($0, Vocabulary.amountInName) }
            let ins = candidates.filter { named($0, Vocabulary.moneyIn) && !named($0, Vocabulary.amountInName) }
            let pair = outs.count == 1 && ins.count == 1 && outs[0] != ins[0] ? (out: outs[0], in: ins[0]) : nil
            let option = "--date-column \(quoted(dateColumn)) --amount-column C"
            if amounts.count == 1 && pair == nil { return (amounts[0], nil) }
            if amounts.isEmpty, let pair {
                // Each row is money out or money in, never both.
                if let both = rows.firstIndex(where: { nonZero(cell($0, pair.out)) && nonZero(cell($0, pair.in)) }) {
                    throw Undecided(
                        choice: "amount column",
                        reason: "row \(both + 1) has an amount in both \(quoted(header[pair.out])) and \(quoted(header[pair.in]))",
                        option: option)
                }
                return (nil, pair)
            }
            let namedColumns = (amounts + outs + ins).map { quoted(header[$0]) }
            let all = numbers.map { quoted(header[$0]) }
            throw Undecided(
                choice: "amount column",
                reason: namedColumns.count > 1
                    ? "columns \(namedColumns.joined(separator: ", ")) could each be the amount"
                    : all.isEmpty
                        ? "no column holds amounts" : "no column of numbers (\(all.joined(separator: ", "))) is named as the amount",
                option: option)
        }

        func nonZero(_ cell: String) -> Bool { Shape(cell: cell)?.isZero == false }

        func decimalMark(_ columns: [Int], hint: Character?) throws(Undecided) -> Character? {
            if let hint { return hint }
            var point: String?, comma: String?, open: String?
            for i in columns {
                for v in values(i) {
                    switch Shape(cell: v)?.mark {
                    case .decided(".")?: point = point ?? v
                    case .decided(",")?: comma = comma ?? v
                    case .either?: open = open ?? v
                    default: break
                    }
                }
            }
            switch (point, comma) {
            case (let p?, let c?):
                throw Undecided(
                    choice: "decimal mark", reason: "amounts \(quoted(p)) and \(quoted(c)) use different decimal marks",
                    option: "--decimal-mark . or --decimal-mark ,")
            case (_?, nil): return "."
            case (nil, _?): return ","
            case (nil, nil):
                guard let open else { return nil }
                throw Undecided(
                    choice: "decimal mark", reason: "amount \(quoted(open)) reads as a whole number and as a decimal, and no amount decides which",
                    option: "--decimal-mark . or --decimal-mark ,")
            }
        }

        // MARK: what rows are

        /// A status column whose every value is known to be completed, pending or never completed.
        func stateColumn(_ text: [Int]) throws(Undecided) -> (column: Int, pending: [String], notCompleted: [String])? {
            guard let i = text.first(where: { names[$0] == "status" || names[$0] == "state" || names[$0] == "info" }) else { return nil }
            var pending: [String] = [], notCompleted: [String] = []
            for v in Set(values(i).map { $0.lowercased() }).sorted() {
                if Vocabulary.pending.contains(v) {
                    pending.append(v)
                } else if Vocabulary.notCompleted.contains(v) {
                    notCompleted.append(v)
                } else if !Vocabulary.completed.contains(v) {
                    throw Undecided(
                        choice: "status", reason: "column \(quoted(header[i])) has \(quoted(v)), not known as completed or pending",
                        option: "--profile NAME (a profile file's state and pending keys)")
                }
            }
            return (i, pending, notCompleted)
        }

        /// A column naming each row's type, every value known (`Sale`, `Payment`, `Überweisung`).
        func typeColumn(_ text: [Int]) throws(Undecided) -> (column: Int, rules: [StatementLayout.RowRule], kinds: [String: StatementLayout.RowKind])?
        {
            guard let i = text.first(where: { Vocabulary.typeColumn.contains(names[$0]) }) else { return nil }
            var byKind: [(StatementLayout.RowKind, [String])] = []
            var kinds: [String: StatementLayout.RowKind] = [:]
            var seen: Set<String> = []
            for v in values(i) where seen.insert(v.lowercased()).inserted {
                guard let kind = Vocabulary.typeKind(v), !v.contains(","), !v.contains("*") else {
                    throw Undecided(
                        choice: "row types", reason: "column \(quoted(header[i])) has \(quoted(v)), not known as spending or not",
                        option: "--profile NAME (a profile file's [rows] says which types are spending)")
                }
                kinds[v.lowercased()] = kind
                if let k = byKind.firstIndex(where: { $0.0 == kind }) { byKind[k].1.append(v) } else { byKind.append((kind, [v])) }
            }
            return (i, byKind.map { StatementLayout.RowRule(kind: $0.0, patterns: $0.1) }, kinds)
        }

        /// ING Netherlands' `Af Bij`: a column of two values that say which way money went.
        func directionColumn(_ text: [Int], amount: Int) -> (column: Int, out: [String], in: [String])? {
            guard !values(amount).contains(where: { Shape(cell: $0)?.negative == true }) else { return nil }
            for i in text {
                let v = Set(values(i))
                guard !v.isEmpty, v.count <= 2 else { continue }
                let out = v.filter { Vocabulary.directionOut.contains($0.lowercased()) }.sorted()
                let inn = v.filter { Vocabulary.directionIn.contains($0.lowercased()) }.sorted()
                if out.count + inn.count == v.count && !out.isEmpty { return (i, out, inn) }
            }
            return nil
        }

        /// The sign of spending: from the rows that are money in by their description or type (a
        /// payment to the card, a refund) or spending by their type, else from a clear majority.
        func spendingSign(
            amount: Int, note: Int?, type: (column: Int, rules: [StatementLayout.RowRule], kinds: [String: StatementLayout.RowKind])?,
            hint: Bool?, column: String
        ) throws(Undecided) -> (Bool, String) {
            if let hint { return (hint, "--spending") }
            var negativeIfSpending: Set<Bool> = []
            var example: [Bool: String] = [:]
            var negatives = 0, total = 0
            for row in rows {
                guard let shape = Shape(cell: cell(row, amount)), !shape.isZero else { continue }
                total += 1
                if shape.negative { negatives += 1 }
                let kind = type.flatMap { $0.kinds[cell(row, $0.column).lowercased()] }
                let description = cell(row, note)
                let spending: Bool? =
                    switch kind {
                    case .purchase?, .fee?: true
                    case .refund?, .skip("card settlement")?: false
                    case .skip?: nil
                    case nil: Vocabulary.isMoneyIn(description) ? false : nil
                    }
                guard let spending else { continue }
                let n = spending == shape.negative
                negativeIfSpending.insert(n)
                example[n] = example[n] ?? (description.isEmpty ? cell(row, amount) : description)
            }
            let option = "--spending negative or --spending positive"
            if negativeIfSpending.count == 2 {
                throw Undecided(
                    choice: "sign of spending",
                    reason: "rows \(quoted(example[true]!)) and \(quoted(example[false]!)) say spending is signed both ways", option: option)
            }
            let positives = total - negatives
            if let n = negativeIfSpending.first {
                // The rows that say which way is spending must not be drowned by rows signed the other way.
                let against = n ? positives : negatives
                guard against * 3 <= total * 2 else {
                    throw Undecided(
                        choice: "sign of spending",
                        reason: "\(quoted(example[n]!)) says spending is \(n ? "negative" : "positive"), but \(against) of \(total) amounts are not",
                        option: option)
                }
                return (n, "payments and refunds")
            }
            if total >= 4 && negatives * 4 >= total * 3 { return (true, "the majority") }
            if total >= 4 && positives * 4 >= total * 3 { return (false, "the majority") }
            throw Undecided(
                choice: "sign of spending",
                reason: """
                    \(negatives) of \(total) amounts in column \(quoted(column)) are negative, and no row is a payment to the card \
                    or a refund by its description
                    """, option: option)
        }

        /// Rows that are not spending by their description, as patterns a profile's `[rows]` keeps.
        func descriptionRules(_ note: Int) -> [StatementLayout.RowRule] {
            let notes = values(note)
            return Vocabulary.descriptionRules.compactMap { kind, patterns in
                let used = patterns.filter { p in notes.contains { glob(p.lowercased(), $0.lowercased()) } }
                return used.isEmpty ? nil : StatementLayout.RowRule(kind: kind, patterns: used)
            }
        }
    }

    /// `*` matches any text, everything else itself (as a profile's row patterns).
    public static func glob(_ pattern: String, _ text: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1 { return pattern == text }
        guard text.hasPrefix(parts[0]), text.count >= parts[0].count + parts[parts.count - 1].count else { return false }
        var rest = Substring(text.dropFirst(parts[0].count))
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let r = rest.firstRange(of: part) else { return false }
            rest = rest[r.upperBound...]
        }
        return rest.hasSuffix(parts[parts.count - 1])
    }
}

/// How one amount cell is written, without reading its value: its sign and what its separators say
/// about the decimal mark.
struct Shape: Equatable {
    enum Mark: Equatable {
        /// The cell has no separator, or only grouping that any mark allows.
        case none
        /// Only this mark reads the cell (`12,50`, `1,234.50`).
        case decided(Character)
        /// One separator before three digits (`1,234`): a decimal or thousands.
        case either
    }

    let negative: Bool
    let isZero: Bool
    let mark: Mark

    /// `nil` when the cell is not one number (with a sign, a currency code or symbol, `CR`/`DR`).
    init?(cell: String) {
        var t = Substring(cell.trimmingSpaces)
        guard !t.isEmpty else { return nil }
        var negative = false
        let lead = t.prefix { $0.isLetter || "€£$¥₹₩₺".contains($0) }
        if lead.count <= 3 { t = t.dropFirst(lead.count) } else { return nil }
        let trail = t.reversed().prefix { $0.isLetter || "€£$¥₹₩₺".contains($0) }
        if trail.count <= 3 { t = t.dropLast(trail.count) } else { return nil }
        if String(trail.reversed()).lowercased() == "cr" { negative = true }
        t = Substring(String(t).trimmingSpaces)
        if t.hasPrefix("(") && t.hasSuffix(")") {
            negative.toggle()
            t = t.dropFirst().dropLast()
        }
        if t.hasPrefix("-") || t.hasPrefix("−") || t.hasSuffix("-") {
            negative.toggle()
            t = t.hasSuffix("-") ? t.dropLast() : t.dropFirst()
        } else if t.hasPrefix("+") {
            t = t.dropFirst()
        }
        t = Substring(String(t).trimmingSpaces)
        guard let first = t.first, first.isNumber, t.last?.isNumber == true,
            t.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." || $0 == "," || $0 == "'" || $0 == " " || $0 == "\u{00A0}" })
        else { return nil }
        self.negative = negative
        isZero = t.allSatisfy { !$0.isNumber || $0 == "0" }
        let seps = t.filter { $0 == "." || $0 == "," }
        guard let last = seps.last, let at = t.lastIndex(of: last) else {
            mark = .none
            return
        }
        let after = t[t.index(after: at)...].count
        if Set(seps).count == 2 {
            mark = .decided(last)
        } else if seps.count > 1 {
            // `1,234,567`: grouping, so the decimal mark is the other.
            mark = .decided(last == "," ? "." : ",")
        } else if after == 3 {
            mark = t[..<at].count <= 3 && t.first != "0" ? .either : .decided(last)
        } else {
            mark = .decided(last)
        }
    }
}

extension String {
    /// Whether `word` (one or more words) appears in `self` between non-letters.
    func containsWord(_ word: String) -> Bool {
        var rest = Substring(self)
        while let r = rest.firstRange(of: word) {
            let before = r.lowerBound == startIndex ? nil : self[index(before: r.lowerBound)]
            let after = r.upperBound == endIndex ? nil : self[r.upperBound]
            if before?.isLetter != true && after?.isLetter != true { return true }
            rest = rest[r.upperBound...]
        }
        return false
    }
}
