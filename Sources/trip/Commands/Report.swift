import ArgumentParser
import TripCore
import TripLedger

extension Trip {
    /// `trip report [--trip NAME]`
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Totals in the home currency: gross, discounts, service, tax, tip, by category, and where each rate came from.")

        @Argument(help: "The trip (default: the current trip).") var name: String?
        @Option(help: "The trip (same as NAME).") var trip: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let report = try global.openLedger().report(trip: trip ?? name)
            emit(global.format, json: report.json, text: TextFormat.report(report))
        }
    }
}
