import ArgumentParser
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip transfer rm T3`
    struct TransferRemove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove a transfer (`trip transfers` lists their T… ids).")

        @Argument(help: "The transfer's id (T1, T2, …) or shared id (t-…).") var id: String
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let t = try global.openLedger().removeTransfer(id)
            emit(global.format, json: t.json, text: TextFormat.transfer(t, verb: "Removed"))
        }
    }
}
