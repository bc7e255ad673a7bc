import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip convert AMOUNT FROM [TO] [--date D]`
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert an amount with the same rates as purchases (manual, cached, fallback).",
            usage: "trip convert AMOUNT FROM [TO] [-d DATE] [global options]")

        @Argument(help: "The amount or expression.") var amount: String
        @Argument(help: "Its currency.", completion: Completions.currencies) var from: String
        @Argument(help: "Target currency (default: the current trip's home currency).", completion: Completions.currencies) var to: String?
        @Option(name: [.long, .customShort("d")], parsing: .unconditional, help: "Use the rate of this date (default: today).") var date: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let r = try ledger.convertAmount(amount, from: from, to: to, date: date)
            emit(
                global.format, json: RatesFormat.json(converted: r.from, to: r.to, route: r.route),
                text: RatesFormat.text(converted: r.from, to: r.to, route: r.route))
        }
    }
}
