import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip presets P… [--trip NAME]`
    struct Presets: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a trip's default presets, one per currency (`none` clears them).",
            discussion: "Purchases already logged keep their preset; the defaults apply to later ones.")

        @Argument(help: "Preset names, e.g. JP SG; or none.") var presets: [String]
        @Option(help: "The trip (default: the current trip).") var trip: String?
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let t = try global.openLedger().setTripPresets(presets, trip: trip)
            emit(global.format, json: t.json, text: LedgerFormat.text(presetsOf: t))
        }
    }
}
