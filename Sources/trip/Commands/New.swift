import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip new NAME [--currency CUR] [--home CUR] [--start D] [--end D] [--preset P…] [--budget AMOUNT]`
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a trip and make it current.",
            usage: "trip new NAME [--currency CUR] [--home CUR] [--start D] [--end D]\n[--preset P]... [--budget AMOUNT] [global options]")

        @Argument(help: "The trip's name.") var name: String
        @Option(help: "Local currency: the default for `trip add`.", completion: Completions.currencies) var currency: String?
        @Option(help: "Home currency the report totals in.", completion: Completions.currencies) var home: String?
        @Option(parsing: .unconditional, help: "First day: YYYY-MM-DD, today, yesterday, tomorrow, -N (days ago), mon…sun or D/M.")
        var start: String?
        @Option(parsing: .unconditional, help: "Last day.") var end: String?
        @Option(
            help: "Default preset for purchases in its currency, e.g. JP; repeat for other currencies.",
            completion: Completions.presets)
        var preset: [String] = []
        @Option(help: "Budget in the home currency.") var budget: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger(create: true)
            let trip = try ledger.createTrip(
                NewTrip(
                    name: name, localCurrency: currency, homeCurrency: home,
                    start: start, end: end, budget: budget, presets: preset))
            emit(
                global.format, json: trip.json, text: LedgerFormat.text(created: trip))
        }
    }
}
