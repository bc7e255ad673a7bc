import ArgumentParser
import Rendering
import TripLedger
import TripModel
import TripSharing

extension TripCommand {
    /// `trip resolve ID --keep mine|theirs`
    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Settle a conflict: keep your version or theirs (the kept version, when it lost, is written again and wins \
                everywhere at the next sync).
                """)

        enum Side: String, ExpressibleByArgument, CaseIterable { case mine, theirs }

        @Argument(help: "The conflict's id (`trip conflicts`).") var id: String
        @Option(help: "Which version to keep.") var keep: Side
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let c = try global.openLedger().resolveConflict(id, keepMine: keep == .mine)
            emit(global.format, json: SharingFormat.json([c]), text: SharingFormat.text(resolved: c, kept: keep.rawValue))
        }
    }
}
