import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip edit ID [--amount X] [--currency C] [options]`
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a purchase. Omitted options keep their value; an empty value (\"\") clears one.")

        @Argument(help: "The purchase id (from `trip list`), or its shared id (p-…).") var id: String
        @Option(help: "A new price or expression.") var amount: String?
        @Option(help: "A new currency.", completion: Completions.currencies) var currency: String?
        @OptionGroup var purchase: PurchaseOptions
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let draft = purchase.draft(amount: amount, currency: currency)
            let p = try ledger.editPurchase(id, draft, split: purchase.splitDraft)
            if let warning = try ledger.outsideTripWarning(p) { ProcessExit.printError(warning) }
            for hint in draft.amountHints(p) { ProcessExit.printError(hint) }
            let split = try ledger.split(of: p)
            emit(global.format, json: p.json(split: split), text: TextFormat.purchase(p, verb: .updated, split: split))
        }
    }
}
