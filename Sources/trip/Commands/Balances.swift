import ArgumentParser
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip balances [--trip T] [--by-currency]`
    struct Balances: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Per member: paid, share, transfers and balance, in the home currency; they add up to zero.")

        @Option(help: "The trip (default: the current trip).") var trip: String?
        @Flag(help: "One table per currency paid, with no conversion (groups that settle in local cash).")
        var byCurrency = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            if byCurrency {
                let all = try ledger.balancesByCurrency(trip: trip)
                emit(
                    global.format, json: LedgerFormat.json(balancesByCurrency: all),
                    text: LedgerFormat.text(balancesByCurrency: all))
            } else {
                let b = try ledger.balances(trip: trip)
                emit(global.format, json: b.json, text: TextFormat.balances(b))
            }
        }
    }
}
