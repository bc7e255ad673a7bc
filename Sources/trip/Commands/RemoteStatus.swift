import ArgumentParser
import Rendering
import TripLedger
import TripModel
import TripSharing

extension TripCommand {
    /// `trip remote status`
    struct RemoteStatus: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Whether the server is reachable, its schema version, and each shared trip's unsent changes and last sync.",
            discussion: "Exits 69 when the server cannot be reached (after printing what this ledger knows).")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let context = try global.context()
            let status = try Sharing(ledger: try context.openLedger(), environment: context.environment).status()
            emit(global.format, json: SharingFormat.json(status), text: SharingFormat.text(status))
            if !status.reachable { throw ExitCode(69) }
        }
    }
}
