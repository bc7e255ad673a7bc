import Rendering
import Storage
import TripCore
import TripLedger
import TripModel

/// What `trip import` was told about a card statement beyond its column mapping.
public struct StatementOptions: Sendable {
    /// `--profile NAME`: the layout, instead of recognising it by its header.
    public var profile: String?
    /// `--spending negative|positive` (`--negate` is `negative`): how the file writes spending.
    /// `nil`: the profile's convention; a file with neither, whose amounts are mostly negative, is
    /// refused rather than guessed.
    public var spendingNegative: Bool?
    /// `--currency CUR`: every amount whose row names no currency is in it.
    public var currency: String?
    /// `--skip-lines N`: the header is record N + 1 (preamble lines before it).
    public var skipLines: Int?
    /// `--date-format`: wins over the profile's.
    public var dateFormat: DatePattern?
    /// `--year`: the year of dates written without one (`September 15`).
    public var year: Int?
    /// `--include-pending`: import pending rows too (a later statement's completed row is the same purchase).
    public var includePending = false
    /// `--skip-bad-rows`: import the other rows and list the refused ones.
    public var skipBadRows = false
    /// Whether `--delimiter` was given; if not, `;` and tab are tried when `,` finds no header.
    public var delimiterGiven = false
    /// Where the user's own profiles are (`StatementProfile.userFolder`).
    public var userProfiles: String?
    /// `--paid-by` and `--split`: who paid the rows and who shares them on a group trip, as
    /// `trip add` reads them (default: this device's member pays, every member shares).
    public var split = SplitDraft()
    /// `--add-unmatched`: a row that fits two or more logged purchases is added as its own.
    public var addUnmatched = false
    /// `--dry-run`: the plan (`StatementPlan`), row by row, and nothing written.
    public var dryRun = false
    /// `--decimal-mark`: `.` or `,`, for every amount (wins over a profile's and inference's).
    public var decimalMark: Character?
    /// `--save-profile NAME`: keep the mapping inference decided as `userProfiles/NAME.toml`.
    public var saveProfile: String?
    /// Profiles left out as if not shipped (`TRIP_TEST_WITHOUT_PROFILES`, `*` for all): how the
    /// tests read a profile's own file by inference.
    public var withoutProfiles: Set<String> = []

    public init() {}
}

/// One row of a statement, ready to be built: what the bank wrote, read.
private struct StatementLine {
    let number: Int
    let date: CivilDate
    let amount: Int64
    let currency: Currency
    let isCredit: Bool
    let note: String?
    let category: String?
    let charged: Int64?
    /// The amount and charged cells as the bank wrote them: what an error about them quotes.
    let amountCell: String
    var chargedCell: String? = nil
    /// Money back: the text a purchase's note must equal for it to be linked as a refund.
    var merchant: String? = nil
    /// A fee column's amount beside its row: never matched to a logged purchase.
    var isFee = false
    /// Money in that no pattern names: skipped unless a spending row has its description
    /// (`StatementProfile.skipsOtherMoneyIn`).
    var isOtherMoneyIn = false
}

extension Ledger {
    /// `trip import` of a card statement: finds the header (after any preamble), the layout (a
    /// profile recognised by its header, `--profile`, or the mapping options, which override
    /// either), then reads every row as data (never as arithmetic) and imports the purchases,
    /// money back and fees in one transaction, skipping and counting what is not spending.
    ///
    /// Returns `nil` when no mapping or profile was given and no profile recognises the file: the
    /// caller then reads it as the export format (whose errors say what is missing).
    func importStatement(bytes raw: [UInt8], options: ImportOptions) throws -> ImportResult? {
        let so = options.statementOptions
        let bytes = StatementEncoding.decode(raw).text
        let profiles = try StatementProfile.all(userFolder: so.userProfiles).filter {
            !so.withoutProfiles.contains($0.name) && !so.withoutProfiles.contains("*")
        }
        if let name = so.saveProfile {
            guard StatementProfile.isValidName(name) else {
                throw TripError.usage("import: --save-profile \(name) is not a profile name: lower-case letters, digits and -")
            }
            guard !profiles.contains(where: { $0.name == name }) else {
                throw TripError.usage("import: --save-profile \(name): a profile of that name exists; choose another name")
            }
        }
        var chosen: StatementProfile?
        if let name = so.profile {
            guard let p = profiles.first(where: { $0.name == name.lowercased() }) else {
                throw TripError.badChoice(field: "profile", value: name, allowed: profiles.map(\.name))
            }
            chosen = p
        }
        let mapping = options.statement

        // The delimiter and the header row: the first that gives the layout its columns.
        let delimiters: [UInt8] = so.delimiterGiven ? [options.delimiter] : [options.delimiter, 0x3B, 0x09]
        var found: (records: [[String]], header: Int, profile: StatementProfile)?
        var firstRecords: [[String]] = []
        var unreadable: (any Error)?
        search: for d in delimiters {
            let records: [[String]]
            do {
                records = try Self.statementRecords(bytes, delimiter: d)
            } catch let e as TripError {
                // Quotes that make no sense with this delimiter may with the next (`"a";"b"` read with `,`).
                unreadable = unreadable ?? e
                continue
            }
            if d == delimiters[0] { firstRecords = records }
            let candidates = so.skipLines.map { [$0] } ?? Array(0..<min(records.count, 40))
            for i in candidates where i < records.count {
                let header = records[i].map(\.statementCell)
                if let p = chosen ?? (mapping == nil ? profiles.first(where: { $0.recognises(header) }) : nil) {
                    var p = p
                    p.apply(mapping)
                    if p.resolves(header) {
                        found = (records, i, p)
                        break search
                    }
                } else if let mapping {
                    var p = StatementProfile(generic: "generic")
                    p.apply(mapping)
                    if p.resolves(header) {
                        found = (records, i, p)
                        break search
                    }
                }
            }
        }
        var inferred: StatementLayout?
        if found == nil && mapping == nil && chosen == nil {
            // The export format's own columns only: its errors say what is missing.
            let head = firstRecords.first { !$0.allSatisfy(\.isEmpty) }
            if head?.allSatisfy(Self.exportColumns.contains) ?? (unreadable == nil) { return nil }
            let layout = try Self.infer(bytes, delimiters: delimiters, options: so)
            found = (try Self.statementRecords(bytes, delimiter: layout.delimiter), layout.headerIndex, StatementProfile(layout: layout))
            inferred = layout
        }
        if so.saveProfile != nil && inferred == nil {
            throw TripError.usage("import: --save-profile keeps a layout found by inference; this file was read by a profile or the mapping options")
        }
        guard let (records, headerIndex, profile) = found else {
            if let unreadable, firstRecords.isEmpty { throw unreadable }
            var p = chosen ?? StatementProfile(generic: "generic")
            p.apply(mapping)
            let header = (firstRecords.dropFirst(so.skipLines ?? 0).first ?? []).map(\.statementCell)
            throw p.missingColumn(in: header)
        }
        let header = records[headerIndex].map(\.statementCell)
        var seen: Set<String> = []
        // ING names `Währung` twice, the balance's and the amount's: the reader takes the one after the amount.
        for name in header
        where !name.isEmpty && !seen.insert(name).inserted
            && !(profile.currency.map { StatementProfile.columnMatches(name, $0) } ?? false)
        {
            throw TripError.badText(field: "import", reason: "the header names column \(quoted(name)) twice")
        }
        let trip = try resolveTrip(options.trip)
        let reader = try StatementRowReader(
            ledger: self, profile: profile, header: header, mapping: mapping, options: so, trip: trip,
            rows: records.dropFirst(headerIndex + 1), recognised: chosen == nil)
        var read = try reader.read()
        if !read.refused.isEmpty && !so.skipBadRows {
            let first = read.refused[0]
            guard read.refused.count > 1 else { throw first.error }
            let others = read.refused.dropFirst().map { String($0.number) }.joined(separator: ", ")
            throw TripError.badText(
                field: "import",
                reason: """
                    \(first.error.description.dropFirst("import: ".count)); \(read.refused.count == 2 ? "row \(others) is" : "rows \(others) are") refused too; nothing was \
                    imported (--skip-bad-rows imports the other rows)
                    """)
        }
        var built: [(PurchaseRow, UInt64)] = []
        var refunds: [(key: UInt64, amount: Int64, currency: Currency, merchant: String, date: CivilDate)] = []
        var keys = ImportKeys()
        // What reconciling needs of each built row (`StatementReconcile.swift`).
        var planRows: [StatementPlan.Row] = []
        var spending: [Reconcile.Row?] = []
        for line in read.lines {
            let draft = PurchaseDraft(
                amount: Money(minorUnits: line.amount, currency: line.currency).plainText, currency: line.currency.code,
                note: line.note, date: line.date.description, category: line.category,
                // Money back takes no preset, as `trip add --refund` (see `addPurchase`).
                preset: line.isCredit ? "none" : nil,
                charged: line.charged.map { Money(minorUnits: $0, currency: trip.homeCurrency).plainText })
            var entry = draft
            // The cell was read as data: the builder takes the number, never evaluates the text.
            entry.entry.price = line.amount
            var row: PurchaseRow
            do {
                row = try prepareRow(entry, amount: draft.entry.amount!, trip: trip, existing: nil)
            } catch let e as TripError {
                let field: String? =
                    switch e {
                    case .badAmount(let f, _, _), .badText(let f, _), .badTextValue(let f, _, _): f
                    default: nil
                    }
                let (column, cell): (String, String) =
                    switch field {
                    case "note": (profile.note ?? "note", line.note ?? "")
                    case "category": (profile.category ?? "category", line.category ?? "")
                    case "charged": (profile.charged ?? "charged", line.chargedCell ?? "")
                    default: (profile.amount ?? profile.paidOut ?? "amount", line.amountCell)
                    }
                // The value as the bank wrote it (`12,00 €`), never as the builder normalised it.
                var error = e.inRow(line.number, column: column, cell: cell)
                if case .badRow(let r, let c, _, let reason) = error { error = .badRow(row: r, column: c, value: cell, reason: reason) }
                if so.skipBadRows {
                    read.refused.append((line.number, error))
                    continue
                }
                throw error
            }
            if line.isCredit { row.kind = .credit }
            // The same key as statements imported before profiles existed, so re-importing one adds nothing.
            var h = FNV1a()
            h.add("statement")
            h.add(trip.id)
            h.add(line.date.description)
            h.add(row.currency.code)
            h.add(row.breakdown.price)
            h.add(row.note)
            h.add(row.category ?? "")
            h.add(row.charged.map { String($0) } ?? "")
            if line.isCredit { h.add(PurchaseKind.credit.rawValue) }
            let key = keys.key(for: h.value)
            built.append((row, key))
            let charged = row.charged.map { Money(minorUnits: $0, currency: trip.homeCurrency) }
            planRows.append(
                StatementPlan.Row(
                    number: line.number, date: line.date, paid: Money(minorUnits: line.amount, currency: line.currency),
                    charged: charged, note: row.note, kind: line.isFee ? "fee" : line.isCredit ? "money back" : nil, outcome: .added))
            spending.append(
                line.isFee || line.isCredit
                    ? nil : Reconcile.Row(key: key, currency: line.currency.code, amount: line.amount, date: line.date, charged: row.charged))
            if line.isCredit, let m = line.merchant, !m.isEmpty {
                refunds.append((key, row.breakdown.total, row.currency, m, line.date))
            }
        }
        if built.isEmpty && read.skipped.isEmpty && read.refused.isEmpty {
            throw TripError.badText(field: "import", reason: "the file has a header but no rows; nothing to import")
        }
        let planKeys = built.map { $0.1 }
        var plan = try statementPlan(planRows, keys: planKeys, spending: spending, trip: trip, addUnmatched: so.addUnmatched)
        plan.dryRun = so.dryRun
        // Only what the plan adds goes in; a matched row is already in the trip.
        built = zip(built, plan.rows).filter { _, r in
            switch r.outcome {
            case .added, .duplicate, .ambiguous(_, true): true
            case .matched, .ambiguous(_, false), .difference: false
            }
        }.map { $0.0 }
        let (added, linked, outside) = try statementTransaction(dryRun: so.dryRun) {
            let lastID = try purchaseStore.maxID()
            let removedAbove = try highWater(.purchases)
            let sink = try ImportSink(store: purchaseStore, databasePath: database.path, bulkThreshold: .max, progressEvery: .max)
            let now = clock.now
            var batch = ParsedBatch()
            for (row, key) in built {
                for v in row.values(now: now, createdAt: now) { batch.values.append(v) }
                batch.values.appendInteger(Int64(bitPattern: key))
                batch.keys.append(key)
            }
            try sink.take(batch) { _ in }
            try sink.finish()
            try shiftIDs(after: lastID, pastHighWater: removedAbove)
            // On a group trip every row is paid and shared as `trip add` would pay and share it,
            // before money back takes the split of the purchase it refunds.
            for id in try purchaseStore.importedIDs(after: lastID).values.sorted() {
                try storeSplit(so.split, purchase: try purchase(id: id), previousTrip: nil)
            }
            // Money back becomes a refund of its purchase once every row is in: the purchase may be
            // in this file or already in the ledger. A credit imported before is linked now too.
            var linked = 0
            for r in refunds {
                guard let id = try purchaseStore.creditID(importKey: r.key, trip: trip.id) else { continue }
                if try linkImportedRefund(id, amount: r.amount, currency: r.currency, merchant: r.merchant, date: r.date, trip: trip) {
                    linked += 1
                }
            }
            try purchaseStore.markAddedFromStatement(after: lastID)
            try applyMatches(plan, keys: planKeys, trip: trip)
            return (sink.added, linked, try outsideTripDatesWarning(after: lastID, trips: [trip]))
        }
        var result = ImportResult(imported: added, skipped: built.count - added, trips: [trip.name])
        result.refundsLinked = linked
        result.profile = profile.title == "generic" || inferred != nil ? nil : profile.title
        result.inferred = inferred?.summary
        if let name = so.saveProfile, let inferred, !so.dryRun, let folder = so.userProfiles {
            let saved = StatementProfile(layout: inferred, name: name)
            try saved.save(in: folder)
            result.savedProfile = folder + "/" + name + ".toml"
        }
        result.notImported = read.skipped
        result.isStatement = true
        result.plan = plan
        if let outside { result.warnings.append(outside) }
        for r in read.refused { result.warnings.append("warning: skipped \(r.error.description)") }
        return result
    }

    /// The export format's columns: a file with only these is not a statement to infer.
    static let exportColumns = Set(PurchaseCSV.exportColumns + PurchaseCSV.reportColumns)

    /// The layout `StatementInference` decides for `bytes`, or the error naming the choice left open.
    static func infer(_ bytes: [UInt8], delimiters: [UInt8], options so: StatementOptions) throws -> StatementLayout {
        let tables = delimiters.compactMap { d in
            (try? statementRecords(bytes, delimiter: d)).map { StatementInference.Table(delimiter: d, records: $0.map { $0.map(\.statementCell) }) }
        }
        let hints = StatementInference.Hints(
            spendingNegative: so.spendingNegative, dateFormat: so.dateFormat, decimalMark: so.decimalMark, headerIndex: so.skipLines)
        switch StatementInference.infer(tables, hints: hints) {
        case .success(let layout): return layout
        case .failure(let undecided): throw TripError.badText(field: "import", reason: undecided.description)
        }
    }

    /// Every record of `bytes`, each with its own number of fields (a preamble's lines differ from the table's).
    static func statementRecords(_ bytes: [UInt8], delimiter: UInt8) throws -> [[String]] {
        let reader = CSVReader(bytes: bytes, delimiter: delimiter)
        var out: [[String]] = []
        while true {
            reader.expectedFieldCount = nil
            do {
                guard let r = try reader.next() else { break }
                out.append(r)
            } catch {
                if error.encoding != nil { throw error }
                throw TripError.badText(field: "import", reason: "row \(error.record - 1): \(error.reason)")
            }
        }
        return out
    }
}

extension StatementProfile {
    /// The mapping options win over the profile's columns.
    mutating func apply(_ mapping: StatementMapping?) {
        guard let m = mapping else { return }
        date = m.date
        amount = m.amount
        paidOut = nil
        paidIn = nil
        if let c = m.currency { currency = c }
        if let n = m.note { note = n }
        if let c = m.category { category = c }
        if let c = m.charged { charged = c }
        if let f = m.dateFormat { dateFormat = f.description }
    }

    /// Whether every column this profile reads is in `header`.
    func resolves(_ header: [String]) -> Bool {
        let needed = [date, amount, paidOut, paidIn, currency, note, category, charged].compactMap { $0 }
        return needed.allSatisfy { n in header.contains { Self.columnMatches($0, n) } }
    }

    /// The error for a header that lacks a column this profile (or the options) name.
    func missingColumn(in header: [String]) -> TripError {
        let named: [(String?, String)] = [
            (date, "--date-column"), (amount, "--amount-column"), (currency, "--currency-column"), (note, "--note-column"),
            (category, "--category-column"), (charged, "--charged-column"), (paidOut, "paid_out"), (paidIn, "paid_in"),
        ]
        let (name, option) =
            named.first { n, _ in n.map { n in !header.contains { Self.columnMatches($0, n) } } ?? false }
            .map { ($0.0!, $0.1) } ?? ("", "a column")
        let hint =
            header.count == 1 && header[0].contains(";")
            ? "; the header is one column holding ';': add --delimiter ';'"
            : header.count == 1 && header[0].contains("\t") ? "; the header is one column holding tabs: add --delimiter tab" : ""
        return .badText(
            field: "import",
            reason: """
                \(option) \(quoted(name)) is not a column of the header; it has \(header.map { quoted($0) }.joined(separator: ", "))\(hint)
                """)
    }
}

extension String {
    /// A cell without the spaces around it, and without its quotes when spaces before them kept
    /// the CSV reader from taking them as quotes (`Date ; "27,60 EUR" ;`).
    var statementCell: String {
        let t = trimmingSpaces
        guard t.count >= 2, t.hasPrefix("\""), t.hasSuffix("\"") else { return t }
        let inner = t.dropFirst().dropLast()
        var out = ""
        var quote = false
        for c in inner {
            if c == "\"" && !quote {
                quote = true
                continue
            }
            quote = false
            out.append(c)
        }
        return out.trimmingSpaces
    }
}

/// An error about the whole file met while reading a row (no currency anywhere), so that it is not
/// taken for that row's.
private struct WholeFile: Error {
    let error: TripError
}

/// Reads a statement's data rows into `StatementLine`s: which rows are spending, money back or
/// fees, which are skipped (and why), and which are refused (and why).
private struct StatementRowReader {
    let ledger: Ledger
    let profile: StatementProfile
    let options: StatementOptions
    let trip: Trip
    let rows: ArraySlice<[String]>
    let at: [String: Int]
    let headerCurrency: Currency?
    let defaultCurrency: Currency?
    /// The date patterns the rows decided, tried in turn on each date (`DateChoice`).
    let patterns: [DatePattern]
    let spendingNegative: Bool
    /// The charges that currency conversion rows give the rows they paid for (PayPal's).
    let conversions: StatementConversions
    /// The header's number of cells, and whether its last is empty (a trailing separator).
    let width: Int
    let headerEndsEmpty: Bool

    struct Read {
        var lines: [StatementLine] = []
        var skipped: [String: Int] = [:]
        var refused: [(number: Int, error: TripError)] = []
    }

    init(
        ledger: Ledger, profile: StatementProfile, header: [String], mapping: StatementMapping?, options: StatementOptions,
        trip: Trip, rows: ArraySlice<[String]>, recognised: Bool
    ) throws {
        self.ledger = ledger
        self.profile = profile
        self.options = options
        self.trip = trip
        // A table that ends before the file does: comdirect's next account, its closing balance.
        let rows = rows.prefix { !profile.endsTable($0.first?.statementCell ?? "") }
        self.rows = rows
        width = header.count
        headerEndsEmpty = header.last?.isEmpty == true
        var at: [String: Int] = [:]
        for name in [
            profile.date, profile.amount, profile.paidOut, profile.paidIn, profile.fee, profile.net, profile.currency, profile.note,
            profile.category, profile.foreignAmount, profile.foreignCurrency, profile.type, profile.state,
            profile.completedWhenSet, profile.charged, profile.direction, profile.id, profile.conversionOf,
        ].compactMap({ $0 }) {
            if let i = header.firstIndex(where: { StatementProfile.columnMatches($0, name) }) { at[name] = i }
        }
        // A currency column named twice (ING's balance and amount) is the one after the amount.
        if let c = profile.currency, let a = (profile.amount ?? profile.paidOut).flatMap({ at[$0] }),
            let i = header.indices.first(where: { $0 > a && StatementProfile.columnMatches(header[$0], c) })
        {
            at[c] = i
        }
        self.at = at
        conversions = StatementConversions(rows: rows, profile: profile) { row, name in
            guard let name, let i = at[name], i < row.count else { return "" }
            return row[i].statementCell
        }
        // `Betrag (EUR)`, `Paid Out (GBP)`: the header names the account's currency.
        let amountHeader = (profile.amount ?? profile.paidOut).flatMap { at[$0] }.map { header[$0] }
        headerCurrency = amountHeader.flatMap { h -> Currency? in
            // `Umsatz in EUR` (comdirect) names it too.
            if h.dropLast(3).hasSuffix(" in "), let c = CurrencyTable.shared.lookup(String(h.suffix(3))) { return c }
            guard h.hasSuffix(")"), let open = h.lastIndex(of: "(") else { return nil }
            let named = String(h[h.index(after: open)..<h.index(before: h.endIndex)])
            return CurrencyTable.shared.lookup(StatementAmount.symbols[named] ?? named)
        }
        if let c = options.currency {
            defaultCurrency = try CurrencyTable.shared.currency(for: c)
        } else if let headerCurrency {
            defaultCurrency = headerCurrency
        } else {
            defaultCurrency = nil
        }
        // The dates: the profile's or the option's pattern, else the known ones the rows allow (`DateChoice`);
        // a UK card's `Pending` is no date.
        let dateCells = rows.compactMap { r -> String? in
            let c = at[profile.date!].flatMap { $0 < r.count ? r[$0].statementCell : nil } ?? ""
            return c.isEmpty || profile.isPendingDate(c) ? nil : c
        }
        if let f = options.dateFormat ?? profile.dateFormat.flatMap(DatePattern.init) {
            patterns = [f]
        } else {
            patterns = try Self.datePatterns(dateCells, column: profile.date!)
        }
        // The sign: the option, the profile, or the file must be unambiguous. A profile recognised
        // by a header any bank could write must agree with the file's signs too.
        let negatives = profile.amount.flatMap { at[$0] }.map { Self.negativeShare(rows, column: $0) }
        let weak = recognised && profile.headerExact && options.spendingNegative == nil
        // Such a profile's sign holds only when most amounts are spending by it (American Express
        // writes spending positive, Barclaycard US negative).
        let disagrees = weak && negatives.map { $0.mostly != (profile.spendingNegative ?? false) } == true
        if let s = options.spendingNegative ?? (disagrees ? nil : profile.spendingNegative) {
            spendingNegative = s
        } else if let a = profile.amount, let n = negatives {
            if disagrees && !n.mostly {
                throw TripError.badText(
                    field: "import",
                    reason: """
                        \(n.total - n.negative) of \(n.total) amounts in column \(a) are positive, though \(profile.title) \
                        writes spending as negative: if this bank writes spending as positive, give --spending positive; \
                        if positive amounts are refunds, give --spending negative
                        """)
            }
            if n.mostly {
                throw TripError.badText(
                    field: "import",
                    reason: """
                        \(n.negative) of \(n.total) amounts in column \(a) are negative: if this bank writes spending as \
                        negative (Revolut, Wise, Monzo and DKB do), give --spending negative (or --negate); if \
                        negative amounts are refunds, give --spending positive
                        """)
            }
            spendingNegative = false
        } else {
            spendingNegative = false
        }
    }

    /// How many of a column's amounts are written negative, and whether that is most of them.
    private static func negativeShare(_ rows: ArraySlice<[String]>, column i: Int) -> (negative: Int, total: Int, mostly: Bool) {
        var negative = 0, total = 0
        for r in rows where i < r.count {
            let t = r[i].statementCell
            guard !t.isEmpty else { continue }
            total += 1
            if t.hasPrefix("-") || t.hasPrefix("(") || t.hasSuffix("-") || t.uppercased().hasSuffix("CR") { negative += 1 }
        }
        return (negative, total, total > 0 && negative * 2 > total)
    }

    /// The known patterns the dates of `column` allow: a day/month or month/day reading is taken
    /// only when a row decides it (`12/31/2022`), never guessed.
    private static func datePatterns(_ cells: [String], column: String) throws -> [DatePattern] {
        switch DatePattern.choose(for: cells) {
        case .patterns(let p): return p
        case .undecided(let example):
            throw TripError.badText(
                field: "import",
                reason: """
                    the dates of column \(column) (\(quoted(example))) read as day/month and as month/day, and no date \
                    decides which; give --date-format DD/MM/YYYY or --date-format MM/DD/YYYY
                    """)
        case .conflicting(let d, let m):
            throw TripError.badText(
                field: "import",
                reason: """
                    the dates of column \(column) read only as day/month (\(quoted(d))) and only as month/day \
                    (\(quoted(m))); give --date-format DD/MM/YYYY or --date-format MM/DD/YYYY
                    """)
        }
    }

    /// The option's, else the profile's; `nil`: each cell's separators decide (`NumberLiteral`).
    private var decimalMark: Character? { options.decimalMark ?? profile.decimalMark }

    private func cell(_ row: [String], _ name: String?) -> String {
        guard let name, let i = at[name], i < row.count else { return "" }
        return row[i].statementCell
    }

    func read() throws -> Read {
        var out = Read()
        var number = 0
        for row in rows {
            if row.allSatisfy({ $0.trimmingSpaces.isEmpty }) { continue }
            number += 1
            // A trailing separator (as DKB writes) is not a column of its own.
            let cells = row.last?.isEmpty == true && row.count == width + 1 ? Array(row.dropLast()) : row
            guard cells.count == width || (cells.count == width - 1 && headerEndsEmpty) else {
                out.refused.append(
                    (number, .badText(field: "import", reason: "row \(number): has \(cells.count) fields; the header has \(width)")))
                continue
            }
            do {
                try read(row, number: number, into: &out)
            } catch let e as TripError {
                out.refused.append((number, e))
            } catch let w as WholeFile {
                throw w.error
            }
        }
        if profile.skipsOtherMoneyIn {
            // A refund names the merchant it came from, as its purchase does; a salary names no shop.
            let spent = Set(out.lines.filter { !$0.isCredit }.compactMap { $0.note?.lowercased() })
            let other = out.lines.filter { $0.isOtherMoneyIn && !spent.contains($0.note?.lowercased() ?? "") }
            if !other.isEmpty {
                out.lines.removeAll { $0.isOtherMoneyIn && !spent.contains($0.note?.lowercased() ?? "") }
                out.skipped["money in", default: 0] += other.count
            }
        }
        return out
    }

    private func read(_ row: [String], number: Int, into out: inout Read) throws {
        func count(_ label: String) { out.skipped[label, default: 0] += 1 }
        func bad(_ column: String?, _ reason: String) -> TripError {
            .badRow(row: number, column: column ?? "?", value: cell(row, column), reason: reason)
        }
        let state = cell(row, profile.state)
        if !state.isEmpty && profile.notCompleted.contains(where: { $0.lowercased() == state.lowercased() }) {
            return count(state.lowercased())
        }
        let pending =
            (!state.isEmpty && profile.pending.contains { $0.lowercased() == state.lowercased() })
            || (profile.completedWhenSet != nil && cell(row, profile.completedWhenSet).isEmpty)
        if pending && !options.includePending { return count("pending") }
        // UK cards (Barclaycard) write `Pending` in the date column until the row is posted: with no
        // date it cannot be a purchase yet, whatever --include-pending says.
        if profile.isPendingDate(cell(row, profile.date)) { return count("pending") }
        let typeCell = cell(row, profile.type ?? profile.note)
        let kind = profile.kind(of: typeCell)
        let note = cell(row, profile.note)
        if case .skip(let label) = kind {
            count(label)
            // The row is not spending, but the fee the bank took for it is (a weekend exchange's).
            return try appendFee(row, number: number, note: note, into: &out)
        }

        // The amount, signed as the bank wrote it, then turned into spending or money in.
        var amount: StatementAmount
        var spending: Bool
        var column: String
        func readAmount(_ name: String) throws -> StatementAmount {
            do {
                return try StatementAmount.read(
                    cell(row, name), field: name, decimalMark: decimalMark, currency: { try account(row, number: number) })
            } catch let e as TripError {
                throw e.inRow(number, column: name, cell: cell(row, name))
            }
        }
        if let a = profile.amount {
            column = a
            amount = try readAmount(a)
            spending = amount.isNegative == spendingNegative
            if profile.direction != nil {
                let way = cell(row, profile.direction).lowercased()
                guard profile.moneyOut.contains(where: { $0.lowercased() == way }) || profile.moneyIn.contains(where: { $0.lowercased() == way })
                else {
                    throw bad(profile.direction, "is neither \((profile.moneyOut + profile.moneyIn).map { quoted($0) }.joined(separator: " nor "))")
                }
                spending = profile.moneyOut.contains { $0.lowercased() == way }
            }
        } else {
            let out = cell(row, profile.paidOut), inn = cell(row, profile.paidIn)
            guard !(out.isEmpty && inn.isEmpty) else { throw bad(profile.paidOut, "is empty, and so is \(profile.paidIn ?? "")") }
            column = out.isEmpty ? profile.paidIn! : profile.paidOut!
            amount = try readAmount(column)
            spending = !out.isEmpty
        }
        if amount.minorUnits == 0 && kind != .fee {
            count("zero amount")
            return try appendFee(row, number: number, note: note, into: &out)
        }
        var currency = try amount.writtenCurrency.map { try CurrencyTable.shared.currency(for: $0) } ?? account(row, number: number)
        var value = amount.minorUnits
        // Money in on a purchase row is a refund of it; a fee is spending unless the bank paid it back.
        // A refund row is money back, so one whose money goes out (a refund the traveller sent, as
        // PayPal's "Payment Refund" of a payment they had received) means no purchase of theirs:
        // refused, naming the row, rather than counted as money back.
        if kind == .refund && spending {
            throw bad(
                column,
                "is money going out on a refund row (\(typeCell.isEmpty ? "a refund" : quoted(typeCell))): a refund you sent is not money back; log it with trip add if it is an expense, or leave the row out with --skip-bad-rows"
            )
        }
        let isCredit = kind == .fee ? !spending : kind == .refund || !spending
        var charged: Int64?
        var chargedCell: String?
        if let c = profile.charged {
            let text = cell(row, c)
            if !text.isEmpty {
                let ch: StatementAmount
                do { ch = try StatementAmount.read(text, field: c, decimalMark: decimalMark, currency: { trip.homeCurrency }) } catch let e
                    as TripError
                {
                    throw e.inRow(number, column: c, cell: text)
                }
                if ch.isNegative != amount.isNegative && ch.minorUnits != 0 {
                    throw bad(c, "has the opposite sign of the amount \(quoted(cell(row, column))); a charge and its amount have one sign")
                }
                charged = ch.minorUnits
                chargedCell = text
            }
        }
        var amountCell = cell(row, column)
        // A foreign-currency row: the merchant's amount and currency, the account's amount charged.
        let foreignText = cell(row, profile.foreignAmount)
        if !foreignText.isEmpty, charged == nil {
            let foreignCode = cell(row, profile.foreignCurrency)
            let foreign: StatementAmount
            do {
                foreign = try StatementAmount.read(
                    foreignText, field: profile.foreignAmount!, decimalMark: decimalMark,
                    currency: { foreignCode.isEmpty ? currency : try CurrencyTable.shared.currency(for: foreignCode) })
            } catch let e as TripError {
                throw e.inRow(number, column: profile.foreignAmount!, cell: foreignText)
            }
            let code = foreign.writtenCurrency ?? (foreignCode.isEmpty ? nil : foreignCode.uppercased())
            if let code, code != currency.code, foreign.minorUnits != 0, currency == trip.homeCurrency {
                charged = value
                chargedCell = amountCell
                currency = try CurrencyTable.shared.currency(for: code)
                value = foreign.minorUnits
                amountCell = foreignText
            }
        }
        // A payment in another currency that the file's own conversion paid for (PayPal's).
        if charged == nil,
            let paid = conversions.charged(
                id: cell(row, profile.id), amount: value, isNegative: amount.isNegative, currency: currency, home: trip.homeCurrency)
        {
            charged = paid
            chargedCell = Money(minorUnits: paid, currency: trip.homeCurrency).plainText
        }
        let date = try self.date(row, number: number)
        let categoryCell = cell(row, profile.category)
        let category = kind == .fee ? "fees" : categoryCell.isEmpty ? nil : categoryCell
        // Money back is matched with its purchase by merchant: the text a refund pattern's `*`
        // stands for (`Refund from *`), else the description.
        let merchant = !isCredit || kind == .fee ? nil : (kind == .refund ? profile.refundMerchant(typeCell) : nil) ?? note
        out.lines.append(
            StatementLine(
                number: number, date: date, amount: value, currency: currency, isCredit: isCredit,
                note: note.isEmpty ? nil : note, category: category, charged: charged, amountCell: amountCell,
                chargedCell: chargedCell, merchant: merchant, isOtherMoneyIn: isCredit && kind == nil))
        try appendFee(row, number: number, note: note, into: &out)
    }

    /// The account's currency for a row: the row's, the option's, the header's, else the trip's.
    private func account(_ row: [String], number: Int) throws -> Currency {
        let rowCurrency = cell(row, profile.currency)
        if !rowCurrency.isEmpty {
            do { return try CurrencyTable.shared.currency(for: rowCurrency) } catch {
                throw error.inRow(number, column: profile.currency!, cell: rowCurrency)
            }
        }
        if let d = defaultCurrency { return d }
        if let local = trip.localCurrency, local != trip.homeCurrency {
            // Taking the trip's local currency for a bank's amounts is how a EUR account's
            // statement was once booked as USD: a file that says nothing is not guessed.
            throw WholeFile(
                error: TripError.badText(
                    field: "import",
                    reason: """
                        the statement names no currency and trip \(quoted(trip.name)) has two (local \(local.code), home \
                        \(trip.homeCurrency.code)); give --currency \(trip.homeCurrency.code) or --currency \(local.code) \
                        (or --currency-column)
                        """))
        }
        return trip.homeCurrency
    }

    /// A row's date; a year-less one (`September 15`) is in --year, else the latest year that is not in the future.
    private func date(_ row: [String], number: Int) throws -> CivilDate {
        let dateText = cell(row, profile.date)
        guard let (d, m, y) = patterns.lazy.compactMap({ $0.validFields(dateText) }).first ?? patterns.lazy.compactMap({ $0.fields(dateText) }).first
        else {
            let form = patterns.count == 1 ? "the form \(patterns[0].description)" : "a form this import knows (give --date-format)"
            throw TripError.badRow(row: number, column: profile.date!, value: dateText, reason: "is not a date in \(form)")
        }
        let year = y ?? options.year ?? DatePattern.latestYear(month: m, day: d, notAfter: ledger.clock.today)
        guard let date = CivilDate(year: year, month: m, day: d) else {
            throw TripError.badRow(row: number, column: profile.date!, value: dateText, reason: "is not a valid date")
        }
        return date
    }

    /// A fee column's amount as a purchase of its own in category `fees`, beside the row it belongs
    /// to: the next line, the row's date, the note `fee: ` and the row's description. A row that is
    /// not spending (an exchange) or of zero amount still has its fee imported.
    ///
    /// Without a `net` column the fee is unsigned, always taken (Revolut's, Wise's). With one it is
    /// signed as the account's money: PayPal writes `Gross -20.00, Fee -0.50, Net -20.50` for a fee
    /// taken and a positive fee for one given back (money back in category `fees`); a row whose
    /// amount plus fee is not its net is refused, naming it, since its fee is not understood.
    private func appendFee(_ row: [String], number: Int, note: String, into out: inout Read) throws {
        let feeText = cell(row, profile.fee)
        guard !feeText.isEmpty else { return }
        let currency = try account(row, number: number)
        func amount(_ text: String, _ column: String) throws -> StatementAmount {
            do { return try StatementAmount.read(text, field: column, decimalMark: decimalMark, currency: { currency }) } catch let e as TripError {
                throw e.inRow(number, column: column, cell: text)
            }
        }
        let fee = try amount(feeText, profile.fee!)
        guard fee.minorUnits != 0 else { return }
        var givenBack = false
        if let netColumn = profile.net, let grossColumn = profile.amount {
            let grossText = cell(row, grossColumn), netText = cell(row, netColumn)
            func signed(_ a: StatementAmount) -> Int64 { a.isNegative ? -a.minorUnits : a.minorUnits }
            let gross = try amount(grossText, grossColumn)
            let net = netText.isEmpty ? nil : try amount(netText, netColumn)
            guard let net, signed(gross) + signed(fee) == signed(net) else {
                throw TripError.badRow(
                    row: number, column: profile.fee!, value: feeText,
                    reason: """
                        is not understood: \(grossColumn) \(quoted(grossText)) plus this fee is not \(netColumn) \
                        \(quoted(netText)), so what was paid and what was taken cannot be told apart
                        """)
            }
            givenBack = fee.isNegative != spendingNegative
        }
        out.lines.append(
            StatementLine(
                number: number, date: try date(row, number: number), amount: fee.minorUnits, currency: currency, isCredit: givenBack,
                note: "fee: " + (note.isEmpty ? "row \(number)" : note), category: "fees", charged: nil, amountCell: feeText,
                isFee: true))
    }
}
