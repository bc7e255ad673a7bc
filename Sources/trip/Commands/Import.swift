import ArgumentParser
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
                Without --date-column/--amount-column the file must be in the export format (trip export --format csv).
                Every row is imported or none is. Row numbers in errors count data rows: 1 is the first row after
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
        @Option(help: "Card statement: YYYY-MM-DD (default), DD/MM/YYYY or MM/DD/YYYY.") var dateFormat: String?
        @Flag(help: "A Splitwise group export: expenses with payers and shares, payments as transfers, members added as needed.")
        var splitwise = false
        @Flag(help: "With --splitwise: import expenses with several payers, each paying in proportion to their column.")
        var payersByNet = false
        @Option(help: "The field separator: , (default) or ; (common in European bank statements).") var delimiter: String = ","
        @OptionGroup var global: GlobalOptions

        func run() throws {
            if splitwise {
                let ledger = try global.openLedger()
                let r = try ledger.importSplitwise(path: file, trip: trip, options: SplitwiseImport(payersByNet: payersByNet))
                emit(global.format, json: r.json, text: TextFormat.splitwiseImport(r))
                return
            }
            if payersByNet { throw ValidationError("--payers-by-net goes with --splitwise") }
            let statementOptions = [currencyColumn, noteColumn, categoryColumn, chargedColumn, dateFormat]
            var mapping: StatementMapping?
            if dateColumn != nil || amountColumn != nil || statementOptions.contains(where: { $0 != nil }) {
                guard let dateColumn, let amountColumn else {
                    throw ValidationError("a card statement needs both --date-column and --amount-column")
                }
                let format =
                    try dateFormat.map { text in
                        guard let f = StatementDateFormat(userText: text) else {
                            throw ValidationError(
                                "--date-format \(text) is not one of \(StatementDateFormat.allCases.map(\.rawValue).joined(separator: ", "))")
                        }
                        return f
                    } ?? .iso
                mapping = StatementMapping(
                    date: dateColumn, amount: amountColumn, currency: currencyColumn, note: noteColumn,
                    category: categoryColumn, charged: chargedColumn, dateFormat: format)
            }
            guard delimiter.utf8.count == 1, let separator = delimiter.utf8.first,
                separator == 0x2C || separator == 0x3B
                    || separator == 0x09 || separator == 0x7C
            else {
                throw ValidationError("--delimiter \(delimiter) is not one of , ; | or a tab")
            }
            var options = ImportOptions(trip: trip, statement: mapping)
            options.delimiter = separator
            let ledger = try global.openLedger(create: true)
            let showProgress = isatty(2) == 1
            let result = try ledger.importPurchases(path: file, options: options) { rows in
                if showProgress { ProcessExit.printError("import: \(rows) rows read…") }
            }
            emit(global.format, json: result.json, text: result.text)
        }
    }
}
