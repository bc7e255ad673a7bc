import ArgumentParser
import RateService
import RateSync
import Rendering
import TripCore
import TripLedger
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TripCommand {
    /// `trip rates sync [--trip NAME | --all]`
    struct RatesSync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Fetch real rates for provisional purchases (the only command that uses the network), then re-rate them.",
            usage: "trip rates sync [-t TRIP | --all] [global options]",
            discussion: "Exits 69 with the cause when nothing could be fetched; then nothing is changed.")

        @Option(name: [.long, .customShort("t")], help: "Only this trip (default: the current trip).", completion: Completions.tripNames) var trip:
            String?
        @Flag(help: "Every open trip.") var all = false
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if trip != nil && all { throw ValidationError("--trip and --all cannot be used together") }
        }

        func run() throws {
            let context = try global.context()
            let ledger = try context.openLedger()
            let onTerminal = isatty(2) == 1
            let sync = RateSync(
                ledger: ledger, client: HTTPClient.forRatesSync(settings: context.settings, version: TripCommand.version),
                environment: context.environment,
                progress: onTerminal ? { ProcessExit.printError($0) } : nil)
            let outcome = try sync.run(trip: trip, all: all, onlyIfNeeded: true)
            emit(global.format, json: RatesFormat.json(sync: outcome), text: RatesFormat.text(sync: outcome))
        }

    }
}
