import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip init [--home CUR]`
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create the ledger and set the default home currency.", usage: "trip init [--home CUR] [global options]")

        @Option(help: "Home currency for new trips, e.g. USD.", completion: Completions.currencies) var home: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let context = try global.context()
            let ledger = try context.openLedger(create: true)
            let home = try ledger.initialize(home: self.home)
            emit(
                global.format,
                json: LedgerFormat.json(initialized: ledger.path, home: home),
                text: LedgerFormat.text(initialized: ledger.path, home: home))
        }
    }
}
