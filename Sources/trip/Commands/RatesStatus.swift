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
            var text = ["currency  latest      age  provider      provisional"]
            for l in lines {
                let latest = l.latest?.description ?? "never"
                let age = l.ageDays.map { "\($0)d" } ?? "-"
                text.append(
                    "\(l.currency)       \(latest)\(String(repeating: " ", count: max(1, 12 - latest.count)))\(String(repeating: " ", count: max(0, 4 - age.count)))\(age)  \(l.provider ?? "-")\(String(repeating: " ", count: max(1, 14 - (l.provider ?? "-").count)))\(l.provisional)"
                )
            }
            if lines.isEmpty { text = ["No rates cached and no purchases yet."] }
            emit(
                global.format,
                json: .object([
                    "currencies": .array(
                        lines.map { l in
                            .object([
                                "currency": .string(l.currency), "latest": JSONValue(l.latest?.description),
                                "age_days": l.ageDays.map { .int(Int64($0)) } ?? .null, "provider": JSONValue(l.provider),
                                "provisional": .int(Int64(l.provisional)),
                            ])
                        })
                ]), text: text.joined(separator: "\n"))
        }
    }
}
