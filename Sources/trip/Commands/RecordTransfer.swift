import ArgumentParser
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip transfer [add] FROM TO AMOUNT [CUR] [--date D] [--note T] [--trip T]`
    struct RecordTransfer: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Record a payment between members (Ben pays Ana back), converted like a purchase.")

        @Argument(help: "The member who pays.") var from: String
        @Argument(help: "The member who is paid.") var to: String
        @Argument(help: "The amount.") var amount: String
        @Argument(help: "Its currency (default: the trip's home currency).") var currency: String?
        @Option(help: "Date: YYYY-MM-DD, today or yesterday. Default: today.") var date: String?
        @Option(help: "A note.") var note: String?
        @Option(help: "The trip (default: the current trip).") var trip: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let t = try ledger.addTransfer(
                from: from, to: to, amount: amount, currency: currency, date: date,
                note: note, trip: trip)
            emit(global.format, json: t.json, text: TextFormat.transfer(t))
        }
    }
}
