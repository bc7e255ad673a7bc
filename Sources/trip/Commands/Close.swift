import ArgumentParser
import Rendering
import Storage
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip close NAME`
    struct Close: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Freeze a trip: conversions stop changing on sync, purchases cannot be changed, the report says when.")

        @Argument(help: "The trip (default: the current trip).", completion: Completions.tripNames) var name: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let trip = try ledger.closeTrip(name ?? ledger.resolveTrip(nil).name)
            if let warning = TextFormat.closeWarning(trip, try ledger.purchases(PurchaseFilter(trip: trip.name)).purchases) {
                ProcessExit.printError("trip: " + TextFormat.safe(warning))
            }
            emit(global.format, json: trip.json, text: LedgerFormat.text(closed: trip))
        }
    }
}
