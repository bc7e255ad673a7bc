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

extension ReportGrouping: ExpressibleByArgument {}

extension TripCommand {
    /// `trip report [NAME | --all] [--by …] [--since D] [--until D] [--home CUR] [--format …] [--lines]`
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Totals in the home currency: gross, discounts, service, tax, tip, breakdowns, days, budget, and where each rate came from.",
            usage:
                "trip report [NAME | -t TRIP | --all] [--by GROUP] [--member NAME]\n[--since D] [--until D] [--home CUR] [--lines] [--format FORMAT]\n[global options]",
            discussion:
                "Formats: text (bars on a terminal), json (documented contract), csv (one row per purchase; with --member, one row per share), markdown, html (self-contained)."
        )

        @Argument(help: "The trip (default: the current trip).", completion: Completions.tripNames) var name: String?
        @Option(name: [.long, .customShort("t")], help: "The trip (same as NAME).", completion: Completions.tripNames) var trip: String?
        @Flag(help: "Every trip, each in its own home currency.") var all = false
        @Option(help: "Break totals down by: category, day, currency, payment, member (group trips) or none.")
        var by: ReportGrouping = .category
        @Option(
            help:
                "Group trips: this member's own report, from their shares (what an employer reimburses); its lines are their parts. With --all: every trip they belong to."
        )
        var member: String?
        @Option(parsing: .unconditional, help: "Only purchases on or after this date.") var since: String?
        @Option(parsing: .unconditional, help: "Only purchases on or before this date.") var until: String?
        @Option(help: "Re-express in this currency at each purchase date's rate (stored data is unchanged).", completion: Completions.currencies)
        var home: String?
        @Flag(help: "Include every purchase.") var lines = false
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if all && (trip != nil || name != nil) { throw ValidationError("--all and a trip name cannot be used together") }
            // A member's report has one member: a breakdown by member would show the others' shares
            // as parts of this member's net (README, "Reports" under "Group trips").
            if member != nil && by == .member {
                throw ValidationError("--member and --by member cannot be used together; --by member alone shows every member's share")
            }
        }

        func run() throws {
            let ledger = try global.openLedger()
            if !all, let warning = try ledger.partialJoinWarning(trip ?? name) { ProcessExit.printError(warning) }
            let query = ReportQuery(
                trip: trip ?? name, by: by, since: since, until: until, home: home,
                lines: lines || global.format == .csv, member: member)
            let reports = all ? try ledger.reportAll(query) : [try ledger.report(query)]
            StartupTrace.lap("report")
            switch global.format {
            case .json:
                print(LedgerFormat.json(reports: reports, all: all).serialized)
            case .csv:
                print(PurchaseCSV.report(reports, member: member != nil), terminator: "")
            case .markdown:
                print(ReportMarkdown.render(reports))
            case .html:
                print(ReportHTML.render(reports, generatedOn: ledger.clock.today.description, version: TripCommand.version), terminator: "")
            default:
                let terminal = isatty(1) == 1
                let color = terminal && getenv("NO_COLOR") == nil
                let width = TerminalWidth.columns(environment: TextFile.environment())
                print(
                    all
                        ? TextFormat.reports(reports, bars: terminal, color: color, width: width)
                        : TextFormat.report(reports[0], bars: terminal, color: color, width: width))
            }
        }
    }
}
