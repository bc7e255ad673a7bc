import ArgumentParser
import Exchange
import Rendering
import TripCore
import TripLedger
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TripCommand {
    /// `trip import FILE.csv [--trip NAME] [card-statement mapping]`
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import purchases from a CSV file: the export format, or a card statement with a column mapping.",
            usage: "trip import FILE [-t TRIP] [--date-column C --amount-column C]\n[mapping options] [global options]",
            discussion: """
                A file whose header names home_total is in the export format (trip export --format csv). Any other
                is a card statement: its layout is recognised by its header (Revolut, Wise, Monzo, N26, Amex, DKB;
                --profile chooses one) or given by --date-column and --amount-column. A statement no profile
                recognises is read by inference: it prints the mapping it used (read as: …), and imports nothing
                (exit 65) when the file leaves a choice open, naming the option that makes it (--spending,
                --date-format, --decimal-mark, --date-column with --amount-column); --save-profile NAME keeps the
                mapping as a profile file. A spending row that is a
                purchase already logged (same currency and amount, dated within statement_match_days) gives it
                its charged amount instead of adding it again; one that fits two is listed, not guessed.
                Other spending becomes purchases,
                money in a refund of its purchase when exactly one fits (else a credit), fees purchases in
                category fees right after their row; top-ups, transfers, exchanges, card
                settlements and pending rows are skipped and counted. Every row is imported or none is. Row numbers in errors count data rows: 1 is the first row after
                the header. A row already imported (same import key) is skipped and counted as a duplicate.
                Group trips: paid_by, split and members are read back (missing members are added) and rows of
                kind transfer become transfers, so balances after export and import are identical.
                """)

        @Argument(help: "The CSV file; - reads standard input.") var file: String
        @Option(
            name: [.long, .customShort("t")],
            help: "The trip every row goes into (default: a row's trip column naming an existing trip, else the current trip).",
            completion: Completions.tripNames)
        var trip: String?
        @Option(help: "Card statement: the column with the purchase date.") var dateColumn: String?
        @Option(help: "Card statement: the column with the amount paid.") var amountColumn: String?
        @Option(help: "Card statement: the column with the currency code (default: the trip's local currency).")
        var currencyColumn: String?
        @Option(help: "Card statement: the column with the description, stored as the note.") var noteColumn: String?
        @Option(help: "Card statement: the column with the category.") var categoryColumn: String?
        @Option(help: "Card statement: the column with the amount charged in the home currency (wins over any rate).")
        var chargedColumn: String?
        @Option(
            help: "Card statement: how dates are written, e.g. DD.MM.YYYY, MM/DD/YYYY, YYYY-MM-DD HH:MM:SS, MMM D, YYYY (default: recognised).")
        var dateFormat: String?
        @Option(
            help:
                "Card statement: the layout (revolut, revolut-2018, wise, monzo, n26, n26-2024, amex, dkb, generic or your own); default: recognised by the header."
        )
        var profile: String?
        @Option(help: "Card statement: how spending is written: negative (as Revolut, Wise, Monzo, DKB) or positive.")
        var spending: String?
        @Flag(help: "Card statement: spending is written negative (the same as --spending negative).") var negate = false
        @Option(help: "Card statement: the decimal mark of every amount, . or , (default: decided by the amounts).")
        var decimalMark: String?
        @Option(help: "Card statement read by inference: keep its mapping as your profile NAME (recognised from then on).")
        var saveProfile: String?
        @Option(help: "Card statement: the currency of amounts whose row names none.") var currency: String?
        @Option(help: "Card statement: lines before the header row (default: found).") var skipLines: Int?
        @Option(help: "Card statement: the year of dates written without one (default: the latest not in the future).") var year: Int?
        @Flag(help: "Card statement: import pending rows too.") var includePending = false
        @Flag(help: "Card statement: import the other rows when some are refused, and list those.") var skipBadRows = false
        @Flag(help: "Card statement: add a row that fits two or more purchases already logged as its own purchase.")
        var addUnmatched = false
        @Flag(help: "Card statement: print what each row would do (match, add, ambiguous) and write nothing.") var dryRun = false
        @Flag(help: "A Splitwise group export: expenses with payers and shares, payments as transfers, members added as needed.")
        var splitwise = false
        @Flag(help: "With --splitwise: import expenses with several payers, each paying in proportion to their column.")
        var payersByNet = false
        @Option(help: "The field separator: , (default) or ; (common in European bank statements), | or tab.") var delimiter: String?
        @Option(
            help: "Card statement on a group trip: who paid the rows, as trip add --paid-by (default: this device's member, trip whoami).")
        var paidBy: String?
        @Option(help: "Card statement on a group trip: who shares each row, as trip add --split (default: every member equally).")
        var split: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            if splitwise && (paidBy != nil || split != nil) {
                throw ValidationError("--paid-by and --split are for a card statement; a Splitwise export names its payers and shares")
            }
            if splitwise {
                let ledger = try global.openLedger()
                let r = try ledger.importSplitwise(path: file, trip: trip, options: SplitwiseImport(payersByNet: payersByNet))
                emit(global.format, json: r.json, text: TextFormat.splitwiseImport(r))
                for w in r.warnings { ProcessExit.printError(w) }
                return
            }
            if payersByNet { throw ValidationError("--payers-by-net goes with --splitwise") }
            let statementOptions = [currencyColumn, noteColumn, categoryColumn, chargedColumn]
            var mapping: StatementMapping?
            if dateColumn != nil || amountColumn != nil || statementOptions.contains(where: { $0 != nil }) {
                guard let dateColumn, let amountColumn else {
                    throw ValidationError("a card statement needs both --date-column and --amount-column")
                }
                let format = try dateFormat.map { try Self.datePattern($0) }
                mapping = StatementMapping(
                    date: dateColumn, amount: amountColumn, currency: currencyColumn, note: noteColumn,
                    category: categoryColumn, charged: chargedColumn, dateFormat: format)
            }
            let delimiter = self.delimiter == "tab" ? "\t" : self.delimiter ?? ","
            guard delimiter.utf8.count == 1, let separator = delimiter.utf8.first,
                separator == 0x2C || separator == 0x3B
                    || separator == 0x09 || separator == 0x7C
            else {
                throw ValidationError("--delimiter \(delimiter) is not one of , ; | or a tab")
            }
            var options = ImportOptions(trip: trip, statement: mapping)
            options.delimiter = separator
            options.statementOptions.dateFormat = try dateFormat.map { try Self.datePattern($0) }
            options.statementOptions.delimiterGiven = self.delimiter != nil
            options.statementOptions.profile = profile
            if let spending {
                guard spending == "negative" || spending == "positive" else {
                    throw ValidationError("--spending \(spending) is not one of negative, positive")
                }
                if negate && spending == "positive" { throw ValidationError("--negate and --spending positive contradict each other") }
                options.statementOptions.spendingNegative = spending == "negative"
            } else if negate {
                options.statementOptions.spendingNegative = true
            }
            if let decimalMark {
                guard decimalMark == "." || decimalMark == "," else {
                    throw ValidationError("--decimal-mark \(decimalMark) is not one of . ,")
                }
                options.statementOptions.decimalMark = decimalMark.first
            }
            options.statementOptions.saveProfile = saveProfile
            let environment = TextFile.environment()
            // Tests read a profile's own file by inference with the profile left out.
            options.statementOptions.withoutProfiles = Set(
                (environment["TRIP_TEST_WITHOUT_PROFILES"] ?? "").split(separator: ",").map(String.init))
            options.statementOptions.currency = currency
            options.statementOptions.skipLines = skipLines
            options.statementOptions.year = year
            options.statementOptions.includePending = includePending
            options.statementOptions.skipBadRows = skipBadRows
            options.statementOptions.addUnmatched = addUnmatched
            options.statementOptions.dryRun = dryRun
            options.statementOptions.userProfiles = StatementProfile.userFolder(environment: environment)
            options.statementOptions.split = SplitDraft(paidBy: paidBy, split: split)
            let ledger = try global.openLedger(create: true)
            let showProgress = isatty(2) == 1
            let result = try ledger.importPurchases(path: file, options: options) { rows in
                if showProgress { ProcessExit.printError("import: \(rows) rows read…") }
            }
            emit(global.format, json: result.json, text: result.text)
            for w in result.warnings { ProcessExit.printError(w) }
            // For tests that a file took the fast path (a new purchase field must keep it on).
            if environment["TRIP_IMPORT_REPORT_PATH"] == "1" {
                ProcessExit.printError("import path: fast \(result.fastRows), general \(result.imported - result.fastRows)")
            }
        }

        /// `--date-format`: a pattern of `DatePattern`'s letters.
        static func datePattern(_ text: String) throws -> DatePattern {
            guard let p = DatePattern(text) else {
                throw ValidationError(
                    "--date-format \(text) is not a date pattern; write it with YYYY (or YY), MM or MMM (a month name), DD and the separators, e.g. DD.MM.YYYY, MM/DD/YYYY, MMM D, YYYY"
                )
            }
            return p
        }
    }
}
