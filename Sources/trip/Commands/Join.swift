import ArgumentParser
import RemoteSync
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip join NAME`
    struct Join: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy a trip shared with your role onto this ledger.",
            discussion: """
                When two shared trips have that name, name one as OWNER/NAME. Joining a trip joined before (even by a join \
                that was killed halfway) brings it up to date.
                """)

        @Argument(help: "The shared trip's name, or OWNER/NAME.") var name: String
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let context = try global.context()
            // A new device starts here: like `trip new`, join may create the ledger, but only once
            // the server shows the trip to this role.
            if !context.ledgerExists { try SyncSession.requireVisible(name, settings: context.settings, environment: context.environment) }
            let result = try SyncSession(ledger: try context.openLedger(create: true), environment: context.environment).join(name)
            emit(global.format, json: SharingFormat.json(result), text: SharingFormat.text(result))
        }
    }
}
