import ArgumentParser
import Rendering
import TripLedger
import TripModel
import TripSharing

extension TripCommand {
    /// `trip sync [NAME | --all]`
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Push this ledger's changes to a shared trip, then pull everyone else's.",
            discussion: "Safe to interrupt at any moment: run it again and nothing is lost or doubled.")

        @Argument(help: "The shared trip (default: the current trip).") var name: String?
        @Flag(help: "Every shared trip of this ledger.") var all = false
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if all && name != nil { throw ValidationError("give a trip name or --all, not both") }
        }

        func run() throws {
            let context = try global.context()
            let results = try Sharing(ledger: try context.openLedger(), environment: context.environment).sync(trip: name, all: all)
            emit(global.format, json: SharingFormat.json(results), text: SharingFormat.text(results))
        }
    }
}
