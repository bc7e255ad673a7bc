import ArgumentParser
import RemoteSync
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip remote move [NAME]`
    struct RemoteMove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move",
            abstract: "Move a shared trip to the configured server, on purpose.",
            discussion: """
                A shared trip remembers the server it was shared on or joined from, and a sync to another one is refused \
                (exit 77): a typo in the port or the database name must not create the trip elsewhere. When the server \
                really moved, `trip remote move` makes the configured one the trip's server and syncs. A server that \
                has the trip's log is read from the start; one that has not gets the whole trip, this role its owner \
                there (grant it again with `trip share --with`).
                """)

        @Argument(help: "The shared trip (default: the current trip).", completion: Completions.tripNames) var name: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let context = try global.context()
            let result = try SyncSession(ledger: try context.openLedger(), environment: context.environment).move(trip: name)
            emit(global.format, json: SharingFormat.json(result), text: SharingFormat.text(result))
        }
    }
}
