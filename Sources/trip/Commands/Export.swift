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
    /// `trip export --format csv|json|ledger|beancount [NAME | --trip NAME | --all]`
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a trip's purchases as CSV, JSON, a ledger/hledger journal or a Beancount file.",
            usage: "trip export --format csv|json|ledger|beancount [NAME | -t TRIP | --all]\n[global options]",
            discussion: """
                Streams to stdout, one purchase at a time, ordered by trip, date and id. Journals post each
                purchase's total in the currency paid, priced with @@ at the home amount `trip report` uses.
                Group trips: the CSV adds paid_by, split and members, and the transfers as rows of kind
                transfer; the journals add Equity:Members:<Name> postings, so
                `hledger -f FILE bal ^Equity:Members: --invert` prints each member's `trip balances` balance.
                """)

        @Argument(help: "The trip (default: the current trip).", completion: Completions.tripNames) var name: String?
        @Option(name: [.long, .customShort("t")], help: "The trip (same as NAME).", completion: Completions.tripNames) var trip: String?
        @Flag(help: "Every trip; each transaction is priced in its own trip's home currency.") var all = false
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if all && (name != nil || trip != nil) {
                throw ValidationError("--all: give either a trip or --all, not both")
            }
        }

        func run() throws {
            guard let format = ExportFormat(rawValue: global.format.rawValue) else {
                throw TripError.badChoice(
                    field: "format", value: global.format.rawValue,
                    allowed: ExportFormat.allCases.map(\.rawValue))
            }
            let ledger = try global.openLedger()
            let out = BufferedOutput(fileDescriptor: 1)
            // An export is a file and keeps notes exactly; only on a terminal are control characters
            // (which a ledger from before the text rules may hold) shown escaped instead.
            if isatty(1) == 1 {
                try ledger.export(format, trip: trip ?? name, all: all) { chunk in try out.write(TextFormat.safeForTerminal(chunk)) }
            } else {
                try ledger.export(format, trip: trip ?? name, all: all, to: out)
            }
            try out.flush()
        }
    }
}
