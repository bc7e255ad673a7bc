import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip add AMOUNT [CUR] [NOTE…] [options]`
    struct Add: ParsableCommand {
        // `_superCommandName`: `trip add` is parsed on its own (TripCommand.parseCommand), and a
        // command parsed as a root first re-parses its arguments twice looking for
        // `--generate-completion-script`, which costs `trip add` a measurable share of its start.
        // Completion scripts are asked of `trip` itself, never of `trip add`.
        static let configuration = CommandConfiguration(
            _superCommandName: "trip",
            abstract: "Log a purchase.",
            discussion: """
                AMOUNT is a number or an expression: 1200, 12.50, 700x3, 700 x 3, (12+8)*2.
                CUR, the word after it, is a currency code in any case (jpy) or a name:
                yen, won, euros; dollars when only one dollar is in use (README, "Currency
                words"). The other words are the note: trip add 1200 ramen at Ichiran.
                """)

        @Argument(help: "The price, e.g. 1200 or 3*1200.") var amount: String
        @Argument(help: "Currency code or name, then the note.", completion: Completions.currencies) var words: [String] = []
        @OptionGroup var purchase: PurchaseOptions
        @Flag(help: "Money received, not spent: a credit with no purchase (for a purchase's refund: trip refund ID).")
        var refund = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            var draft = purchase.draft(amount: amount, currency: nil)
            draft.words = words
            if refund { draft.kind = .credit }
            let p = try ledger.addPurchase(draft, split: purchase.splitDraft)
            StartupTrace.lap("add purchase")
            if let warning = try ledger.outsideTripWarning(p) { ProcessExit.printError(warning) }
            for hint in draft.amountHints(p) { ProcessExit.printError(hint) }
            let split = try ledger.split(of: p)
            emit(global.format, json: p.json(split: split), text: TextFormat.purchase(p, verb: .added, split: split))
        }
    }
}
