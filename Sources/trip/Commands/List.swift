import ArgumentParser
import Rendering
import Storage
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip list [--trip NAME] [--since D] [--until D] [--category C] [--limit N] [--reverse]`
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a trip's purchases.",
            usage: "trip list [-t TRIP] [--since D] [--until D] [-c CATEGORY] [--limit N]\n[--reverse] [global options]",
            discussion: """
                Oldest first: by date, then id. --limit N keeps the N most recent purchases (the last N
                lines of the full list); --reverse puts the newest first. Streams: memory does not grow
                with the trip.
                """)

        @Option(name: [.long, .customShort("t")], help: "The trip (default: the current trip).", completion: Completions.tripNames)
        var trip: String?
        @Option(parsing: .unconditional, help: "From this date on.") var since: String?
        @Option(parsing: .unconditional, help: "Up to this date.") var until: String?
        @Option(name: [.long, .customShort("c")], help: "Only this category.") var category: String?
        @Option(help: "Only the N most recent purchases.") var limit: Int?
        @Flag(help: "Newest first.") var reverse = false
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let limit, limit < 0 { throw ValidationError("--limit: \(limit) is negative; give a number of purchases") }
        }

        func run() throws {
            let ledger = try global.openLedger()
            if let warning = try ledger.partialJoinWarning(trip) { ProcessExit.printError(warning) }
            let filter = PurchaseFilter(trip: trip, since: since, until: until, category: category, limit: limit, reverse: reverse)
            let out = BufferedOutput(fileDescriptor: 1)
            try ledger.writeList(filter, json: global.format == .json, to: out)
            try out.flush()
        }
    }
}
