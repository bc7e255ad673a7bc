import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip rm ID`
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Move a purchase to the trash (`trip restore ID` brings it back); a T… id removes that transfer.")

        @Argument(help: "The purchase id, or a transfer's (T1, T2, …), or a shared id (p-…, t-…).") var id: String
        @OptionGroup var global: GlobalOptions

        func run() throws {
            switch try global.openLedger().remove(id) {
            case .purchase(let p):
                emit(global.format, json: LedgerFormat.json(removed: p), text: TextFormat.removed(p))
            case .transfer(let t):
                emit(global.format, json: t.json, text: TextFormat.transfer(t, verb: "Removed"))
            }
        }
    }
}
