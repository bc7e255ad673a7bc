import ArgumentParser
import RemoteSync
import Rendering
import SyncRules
import TripLedger
import TripModel

extension TripCommand {
    /// `trip conflicts`
    struct Conflicts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Where two devices' changes to a shared trip clashed, with both versions.",
            discussion: """
                Every device applies the same rule (README, "Conflicts"): of two edits, the later one; a removal over an \
                edit (the edit waits in the trash); a row someone's money still names over its removal; a change to a \
                trip closed on another device waits here. The other version is kept here until `trip resolve`; each \
                conflict ends with the commands that settle it, one per version that may be kept.
                """)

        @Flag(help: "Resolved conflicts too.") var all = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let list = try ledger.conflicts(includeResolved: all), aside = try ledger.setAsideChanges()
            emit(global.format, json: SharingFormat.json(list, setAside: aside), text: SharingFormat.text(list, setAside: aside))
        }
    }
}
