import ArgumentParser
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip member rm NAME [--trip T]`
    struct MemberRemove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove a member who pays, shares and transfers nothing (refused otherwise, naming what refers to them).")

        @Argument(help: "The member's name.") var name: String
        @Option(help: "The trip (default: the current trip).") var trip: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let m = try ledger.removeMember(name, trip: trip)
            emit(global.format, json: m.json, text: LedgerFormat.text(removedMember: m))
        }
    }
}
