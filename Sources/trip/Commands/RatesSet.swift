import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip rates set CUR RATE [--in CUR] [--date D]`
    struct RatesSet: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a manual rate: 1 CUR = RATE of the --in currency (default: the current trip's home).",
            usage: "trip rates set CUR RATE [--in CUR] [--date D] [global options]")

        @Argument(help: "The currency, e.g. JPY.", completion: Completions.currencies) var currency: String
        @Argument(help: "How many --in units 1 CUR is worth, e.g. 0.0067.") var rate: String
        @Option(name: .customLong("in"), help: "The currency RATE is in.", completion: Completions.currencies) var quote: String?
        @Option(parsing: .unconditional, help: "From this date on (default: today).") var date: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let (m, summary) = try global.openLedger().setManualRate(currency: currency, rate: rate, in: quote, date: date)
            emit(global.format, json: RatesFormat.json(set: m, summary), text: RatesFormat.text(set: m, summary))
        }
    }
}
