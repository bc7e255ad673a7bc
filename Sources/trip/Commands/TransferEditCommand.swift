import ArgumentParser
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip transfer edit T3 [--from M] [--to M] [--amount A] [--currency C] [--date D] [--note T]`
    struct TransferEditCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Change a transfer; a new amount, currency or date converts it again.")

        @Argument(help: "The transfer's id (T1, T2, …) or shared id (t-…).") var id: String
        @Option(help: "The member who pays.") var from: String?
        @Option(help: "The member who is paid.") var to: String?
        @Option(help: "The amount.") var amount: String?
        @Option(help: "Its currency.") var currency: String?
        @Option(help: "Date: YYYY-MM-DD, today or yesterday.") var date: String?
        @Option(help: "A note.") var note: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let edit = TransferEdit(from: from, to: to, amount: amount, currency: currency, date: date, note: note)
            let t = try global.openLedger().editTransfer(id, edit)
            emit(global.format, json: t.json, text: TextFormat.transfer(t, verb: "Changed"))
        }
    }
}
