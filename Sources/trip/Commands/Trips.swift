import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip trips`
    struct Trips: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List trips; * marks the current one.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let trips = try ledger.trips()
            let current = try ledger.currentTrip()
            for t in trips { if let warning = try ledger.partialJoinWarning(t.name) { ProcessExit.printError(warning) } }
            emit(
                global.format,
                json: LedgerFormat.json(trips: trips, current: current),
                text: TextFormat.trips(trips, current: current))
        }
    }
}
