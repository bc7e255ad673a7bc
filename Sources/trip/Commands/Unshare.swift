import ArgumentParser
import RemoteSync
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip unshare [NAME] --with ROLE…`
    struct Unshare: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take a shared trip back from roles it was granted to (the trip's owner only).",
            discussion: "Their devices keep their copies; their next `trip sync` of it is refused (exit 77).")

        @Argument(help: "The trip (default: the current trip).") var name: String?
        @Option(name: .customLong("with"), help: "A PostgreSQL role to take the trip back from (repeatable).") var roles: [String] = []
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if roles.isEmpty { throw ValidationError("name the role(s) to take the trip back from with --with ROLE") }
        }

        func run() throws {
            let context = try global.context()
            let sharing = try SyncSession(ledger: try context.openLedger(), environment: context.environment)
            let revoked = try sharing.unshare(trip: name, from: roles)
            emit(global.format, json: SharingFormat.json(revoked: revoked), text: SharingFormat.text(revoked: revoked))
        }
    }
}
