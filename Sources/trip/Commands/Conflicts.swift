import ArgumentParser
import Rendering
import TripLedger
import TripModel
import TripSharing

extension TripCommand {
    /// `trip conflicts`
    struct Conflicts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rows of shared trips edited on two devices between syncs, with both versions.",
            discussion: "The later edit is applied on every device; the other version is kept here until `trip resolve`.")

        @Flag(help: "Resolved conflicts too.") var all = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let list = try global.openLedger().conflicts(includeResolved: all)
            emit(global.format, json: SharingFormat.json(list), text: SharingFormat.text(list))
        }
    }
}
