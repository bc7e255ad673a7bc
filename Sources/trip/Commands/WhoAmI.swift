import ArgumentParser
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip whoami [NAME]`
    struct WhoAmI: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "whoami",
            abstract: "Show or set which member this ledger's user is: the default payer on group trips.",
            discussion: "A setting of this ledger, for every trip; \"\" clears it.")

        @Argument(help: "The member's name.") var name: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let me = try ledger.whoami(set: name)
            emit(
                global.format, json: LedgerFormat.json(whoami: me), text: LedgerFormat.text(whoami: me))
        }
    }
}
