import ArgumentParser
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip transfers [--trip T]`
    struct Transfers: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a group trip's transfers, with the T… ids that `trip transfer edit` and `rm` take.")

        @Option(help: "The trip (default: the current trip).") var trip: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let t = try ledger.resolveTrip(trip)
            let list = try ledger.transfers(trip: t.name)
            emit(global.format, json: Transfer.json(t, list), text: TextFormat.transfers(t, list))
        }
    }
}
