import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip rates status`
    struct RatesStatus: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Per currency: newest cached rate, its age and provider, and purchases still provisional.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let lines = try global.openLedger().rateStatus()
            emit(global.format, json: RatesFormat.json(status: lines), text: RatesFormat.text(status: lines))
        }
    }
}
