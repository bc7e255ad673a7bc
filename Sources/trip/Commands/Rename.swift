import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip rename OLD NEW`
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a trip.", usage: "trip rename OLD NEW [global options]")

        @Argument(help: "The current name.", completion: Completions.tripNames) var old: String
        @Argument(help: "The new name.") var new: String
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let trip = try global.openLedger().renameTrip(old, to: new)
            emit(global.format, json: trip.json, text: LedgerFormat.text(renamed: trip))
        }
    }
}
