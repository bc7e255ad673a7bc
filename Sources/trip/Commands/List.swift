import ArgumentParser
import TripCore
import TripLedger

extension Trip {
    /// `trip list [--trip NAME] [--since D] [--until D] [--category C]`
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a trip's purchases.", usage: "trip list [-t TRIP] [--since D] [--until D] [-c CATEGORY]\n[global options]")

        @Option(name: [.long, .customShort("t")], help: "The trip (default: the current trip).", completion: Completions.tripNames) var trip: String?
        @Option(help: "From this date on.") var since: String?
        @Option(help: "Up to this date.") var until: String?
        @Option(name: [.long, .customShort("c")], help: "Only this category.") var category: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let (trip, purchases) = try ledger.purchases(PurchaseFilter(trip: trip, since: since, until: until, category: category))
            emit(global.format,
                 json: .object(["trip": .string(trip.name), "purchases": .array(purchases.map(\.json))]),
                 text: TextFormat.list(trip, purchases))
        }
    }
}
