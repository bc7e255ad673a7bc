import ArgumentParser
import RemoteSync
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip share [NAME] [--with ROLE…]`
    struct Share: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish a trip on the server with its whole history, or grant it to more roles.",
            discussion: "Each traveller logs in as their own PostgreSQL role; --with grants the trip to one (repeatable).")

        @Argument(help: "The trip (default: the current trip).") var name: String?
        @Option(name: .customLong("with"), help: "A PostgreSQL role to share the trip with (repeatable).") var roles: [String] = []
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let context = try global.context()
            let result = try SyncSession(ledger: try context.openLedger(), environment: context.environment).share(trip: name, with: roles)
            emit(global.format, json: SharingFormat.json(result), text: SharingFormat.text(result))
        }
    }
}
