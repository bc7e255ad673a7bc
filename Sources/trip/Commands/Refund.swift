import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip refund ID [AMOUNT [CUR]] [--date D] [--charged X]`
    struct Refund: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Log money back for a purchase: all of it, or AMOUNT in its currency.",
            discussion: """
                The refund is converted at the rate of its own date (or at --charged, the home amount the card
                credited) and shown as its own line in reports. The refunds of a purchase never exceed its total;
                without AMOUNT it refunds what remains. Money back with no purchase: trip add AMOUNT … --refund.
                """)

        @Argument(help: "The purchase id, or its shared id (p-…).") var id: String
        @Argument(help: "How much, in the purchase's currency (default: what remains).") var amount: String?
        @Argument(help: "The purchase's currency, as a check: a code or a name (yen, euros).", completion: Completions.currencies)
        var currency: String?
        @Option(help: "Refund date: YYYY-MM-DD, today or yesterday. Default: today.") var date: String?
        @Option(help: "What the card credited, in the home currency. Wins over any rate.") var charged: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let p = try ledger.addRefund(id, amount: amount, currency: currency, date: date, charged: charged)
            emit(global.format, json: p.json, text: TextFormat.purchase(p, verb: .refunded))
        }
    }
}
