import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip delete NAME --yes`
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a trip and all its purchases.", usage: "trip delete NAME --yes [global options]")

        @Argument(help: "The trip's name.", completion: Completions.tripNames) var name: String
        @Flag(help: "Confirm the deletion.") var yes = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            guard yes else { throw TripError.confirmationRequired("delete \(quoted(name)) removes the trip and its purchases") }
            let (trip, count) = try global.openLedger().deleteTrip(name)
            emit(
                global.format, json: LedgerFormat.json(deleted: trip, purchases: count),
                text: LedgerFormat.text(deleted: trip, purchases: count))
        }
    }
}
