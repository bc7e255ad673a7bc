import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip rm ID`
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Move a purchase to the trash; `trip restore ID` brings it back.")

        @Argument(help: "The purchase id.") var id: String
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let p = try global.openLedger().removePurchase(id)
            emit(
                global.format, json: LedgerFormat.json(removed: p),
                text: TextFormat.removed(p))
        }
    }
}
