import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip show [NAME]`
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a trip's settings and total.")

        @Argument(help: "The trip (default: the current trip).", completion: Completions.tripNames) var name: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let report = try ledger.report(trip: name)
            emit(global.format, json: report.trip.json, text: TextFormat.trip(report.trip, report: report))
        }
    }
}
