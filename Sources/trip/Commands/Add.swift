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
                AMOUNT is a number or an expression: 1200, 12.50, 3*1200+500, (12.50+8)*2.
                CUR is the second word when it is an ISO 4217 code in any case (jpy), or three capital
                letters; otherwise the words are the note: trip add 1200 ramen at Ichiran.
                """)

        @Argument(help: "The price, e.g. 1200 or 3*1200.") var amount: String
        @Argument(help: "Currency code, then the note.", completion: Completions.currencies) var words: [String] = []
        @OptionGroup var purchase: PurchaseOptions
        @Flag(help: "Money received, not spent: a credit with no purchase (for a purchase's refund: trip refund ID).")
        var refund = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let (currency, note) = try Add.split(words, amount: amount)
            let ledger = try global.openLedger()
            var draft = purchase.draft(amount: amount, currency: currency, noteWords: note)
            if refund { draft.kind = .credit }
            let p = try ledger.addPurchase(draft, split: purchase.splitDraft)
            StartupTrace.lap("add purchase")
            if let warning = try ledger.outsideTripWarning(p) { ProcessExit.printError(warning) }
            let split = try ledger.split(of: p)
            emit(global.format, json: p.json(split: split), text: TextFormat.purchase(p, verb: .added, split: split))
        }

        /// The currency is the first word when it is a known code in any case, or any three capital
        /// letters (then it must be known, and the error also shows how to make it a note: `KFC`).
        /// Everything else is the note.
        static func split(_ words: [String], amount: String) throws(TripError) -> (currency: String?, note: [String]) {
            guard let first = words.first else { return (nil, []) }
            if CurrencyTable.shared.lookup(first) != nil { return (first, Array(words.dropFirst())) }
            if first.count == 3, first.allSatisfy({ $0.isASCII && $0.isUppercase }) {
                do {
                    _ = try CurrencyTable.shared.currency(for: first)
                } catch .unknownCurrency(let code, let suggestions) {
                    let note = words.joined(separator: " ")
                    throw .unknownCurrencyOrNote(
                        code, suggestions: suggestions,
                        asNote: "trip add \(amount) --note \(shellWord(note))")
                }
            }
            return (nil, words)
        }

        /// `text` as one shell word, for a command line the user can paste back.
        static func shellWord(_ text: String) -> String {
            let plain = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.,:/@+-".contains($0)) }
            return plain ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
        }
    }
}
