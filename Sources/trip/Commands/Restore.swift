import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip restore ID`
    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bring back a purchase `trip rm` moved to the trash, with its id.")

        @Argument(help: "The removed purchase's id, or its shared id (p-…).") var id: String
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let p = try global.openLedger().restorePurchase(id)
            emit(global.format, json: LedgerFormat.json(restored: p), text: TextFormat.purchase(p, verb: .restored))
        }
    }
}
