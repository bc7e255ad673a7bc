import ArgumentParser
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip members [--trip T]`
    struct Members: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a trip's members in the order they joined.")

        @Option(help: "The trip (default: the current trip).") var trip: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let (t, members) = try ledger.members(trip: trip)
            let me = try ledger.whoami(set: nil)
            emit(
                global.format,
                json: LedgerFormat.json(members: members, of: t, whoami: me),
                text: TextFormat.members(t, members, whoami: me))
        }
    }
}
