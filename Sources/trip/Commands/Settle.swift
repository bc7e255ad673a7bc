import ArgumentParser
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip settle [--trip T] [--record]`
    struct Settle: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The fewest transfers, in the home currency, that bring every balance to zero.")

        @Option(help: "The trip (default: the current trip).") var trip: String?
        @Flag(help: "Record them as transfers dated today.") var record = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let b = record ? try ledger.recordSettlement(trip: trip).balances : try ledger.balances(trip: trip)
            emit(global.format, json: b.settlementJSON, text: TextFormat.settlement(b, recorded: record))
        }
    }
}
