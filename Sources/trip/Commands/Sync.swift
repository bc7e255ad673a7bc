import ArgumentParser
import RemoteSync
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip sync [NAME | --all]`
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Push this ledger's changes to a shared trip, then pull everyone else's.",
            discussion: """
                Safe to interrupt at any moment: run it again and nothing is lost or doubled. With --all, a trip that fails \
                (its grant taken back, say) is named and the others still sync.
                """)

        @Argument(help: "The shared trip (default: the current trip).") var name: String?
        @Flag(help: "Every shared trip of this ledger.") var all = false
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if all && name != nil { throw ValidationError("give a trip name or --all, not both") }
        }

        func run() throws {
            let context = try global.context()
            let run = try SyncSession(ledger: try context.openLedger(), environment: context.environment).sync(trip: name, all: all)
            emit(global.format, json: SharingFormat.json(run), text: SharingFormat.text(run))
            if let first = run.failures.first {
                throw SharingError.tripsNotSynced(run.failures.map(\.trip), of: run.failures.count + run.results.count, exitCode: first.exitCode)
            }
        }
    }
}
