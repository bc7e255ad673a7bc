import ArgumentParser
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip member add NAME… [--trip T]`
    struct MemberAdd: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add members to a trip, in the order given (that order breaks the ties of splits).")

        @Argument(help: "The members' names.") var names: [String]
        @Option(help: "The trip (default: the current trip).") var trip: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let (t, added) = try ledger.addMembers(names, trip: trip)
            emit(
                global.format, json: LedgerFormat.json(added: added, to: t), text: LedgerFormat.text(added: added, to: t))
        }
    }
}
