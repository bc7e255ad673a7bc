import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip reopen NAME`
    struct Reopen: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Undo `trip close`.")

        @Argument(help: "The trip (default: the current trip).", completion: Completions.tripNames) var name: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let trip = try ledger.reopenTrip(name ?? ledger.resolveTrip(nil).name)
            emit(global.format, json: trip.json, text: LedgerFormat.text(reopened: trip))
        }
    }
}
