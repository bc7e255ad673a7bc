import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip use NAME`
    struct Use: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a trip the current one.")

        @Argument(help: "The trip's name.", completion: Completions.tripNames) var name: String
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let trip = try global.openLedger().useTrip(name)
            emit(global.format, json: trip.json, text: LedgerFormat.text(current: trip))
        }
    }
}
