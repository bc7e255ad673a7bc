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
            let (rates, sharedTrip) = try global.openLedger().manualRates()
            emit(global.format, json: RatesFormat.json(manual: rates), text: RatesFormat.text(manual: rates, sharedTrip: sharedTrip))
        }
    }
}
