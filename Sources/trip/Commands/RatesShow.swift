import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip rates show`
    struct RatesShow: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "List manual rates.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let rates = try global.openLedger().manualRates()
            let text =
                rates.isEmpty
                ? "No manual rates. Set one with `trip rates set JPY 0.0067 --in USD`."
                : rates.map { "\($0.date)  1 \($0.base.code) = \($0.rate) \($0.quote.code) · 1 \($0.quote.code) = \($0.inverse) \($0.base.code)" }
                    .joined(separator: "\n")
            emit(global.format, json: .object(["manual": .array(rates.map(\.json))]), text: text)
        }
    }
}
