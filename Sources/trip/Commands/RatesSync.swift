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
                ledger: ledger, client: HTTPClient.forSync(settings: context.settings, version: TripCommand.version),
                environment: context.environment,
                progress: onTerminal ? { ProcessExit.printError($0) } : nil)
            let outcome = try sync.run(trip: trip, all: all, onlyIfNeeded: true)
            emit(global.format, json: RatesSync.json(outcome), text: RatesSync.text(outcome))
        }

        static func reasons(_ summary: RerateSummary, _ outcome: SyncOutcome) -> String {
            summary.reasons.keys.sorted().map { code in
                let parts = [outcome.missing[code], summary.reasons[code]].compactMap { $0 }
                return "\(code): \(parts.joined(separator: "; "))"
            }.joined(separator: ", ")
        }

        static func text(_ outcome: SyncOutcome) -> String {
            var lines: [String] = []
            for (trip, s) in outcome.trips {
                var line = "re-rated \(s.changed) purchase\(s.changed == 1 ? "" : "s") in \(TextFormat.safe(trip.name))"
                for (code, delta) in s.delta.sorted(by: { $0.key < $1.key }) where s.changed > 0 {
                    let c = CurrencyTable.shared.lookup(code) ?? trip.homeCurrency
                    line += "; total \(delta >= 0 ? "+" : "")\(Money(minorUnits: delta, currency: c).plainText) \(code)"
                }
                if s.remainingProvisional > 0 {
                    line += "; \(s.remainingProvisional) remain\(s.remainingProvisional == 1 ? "s" : "") provisional (\(reasons(s, outcome)))"
                } else {
                    line += "; all final"
                }
                lines.append(line)
            }
            if outcome.nothingToSync {
                lines.append("nothing to sync: no open trip in scope has provisional or unconverted purchases; no rates were fetched")
            } else if outcome.trips.isEmpty {
                lines.append("rates refreshed; no trip has provisional purchases")
            }
            for f in outcome.failures { lines.append("warning: \(f.provider): \(f.error.description)") }
            return lines.joined(separator: "\n")
        }

        static func json(_ outcome: SyncOutcome) -> JSONValue {
            .object([
                "trips": .array(
                    outcome.trips.map { trip, s in
                        var o: [String: JSONValue] = ["trip": .string(trip.name)]
                        if case .object(let fields) = s.json() { o.merge(fields) { $1 } }
                        return .object(o)
                    }),
                "responses": .int(Int64(outcome.responses)),
                "nothing_to_sync": .bool(outcome.nothingToSync),
                "observations": .int(Int64(outcome.observations)),
                "missing": .object(outcome.missing.mapValues { .string($0) }),
                "failures": .array(outcome.failures.map { .object(["provider": .string($0.provider), "error": .string($0.error.description)]) }),
            ])
        }
    }
}
