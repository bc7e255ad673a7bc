import ArgumentParser
import Rendering
import SyncRules
import TripLedger
import TripModel

extension TripCommand {
    /// `trip resolve ID --keep 1|2|mine|theirs|ROLE`
    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Settle a conflict by keeping one of its two versions, on every device.",
            discussion: """
                `trip conflicts` numbers each conflict's versions 1 and 2 (the older first, the same on every device) and \
                says who wrote each, and ends each with the commands that settle it. The kept version, when it was not the \
                one shown, is written again and wins everywhere at the next sync; the resolution travels too, so every \
                device lists the conflict as resolved. A removal of a purchase that a refund still names is kept only \
                with --remove-refunds, which removes the refunds too; a removal of a member that rows still name is not \
                offered.
                """)

        @Argument(help: "The conflict's id or shared id (c-…), from `trip conflicts`.") var id: String
        @Option(help: "Which version to keep: 1 or 2, mine, theirs, or the role that wrote it.") var keep: String
        @Flag(help: "Keeping a purchase's removal: remove the refunds that name it too.") var removeRefunds = false
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let ledger = try global.openLedger()
            let (c, kept, outcome) = try ledger.resolveConflict(id, keep: keep, removeRefunds: removeRefunds)
            emit(global.format, json: SharingFormat.json([c]), text: SharingFormat.text(resolved: c, kept: kept, outcome: outcome))
        }
    }
}
