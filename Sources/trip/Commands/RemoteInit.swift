import ArgumentParser
import RemoteSync
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip remote init`
    struct RemoteInit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Create or upgrade the shared-trip tables on the server (run once, as the database's owner).",
            discussion: "Idempotent. A server schema newer than this trip is refused and left untouched.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let context = try global.context()
            let result = try SyncSession.initialize(settings: context.settings, environment: context.environment)
            emit(global.format, json: SharingFormat.json(result), text: SharingFormat.text(result))
        }
    }
}
