import ArgumentParser
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip member rename OLD NEW [--trip T]`
    struct MemberRename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Rename a member; their splits and transfers follow.")

        @Argument(help: "The member's name.") var old: String
        @Argument(help: "The new name.") var new: String
        @Option(help: "The trip (default: the current trip).") var trip: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let m = try ledger.renameMember(old, to: new, trip: trip)
            emit(global.format, json: m.json, text: LedgerFormat.text(renamedMember: m, from: old))
        }
    }
}
