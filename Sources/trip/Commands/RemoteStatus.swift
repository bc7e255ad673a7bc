import ArgumentParser
import RemoteSync
import Rendering
import TripLedger
import TripModel

extension TripCommand {
    /// `trip remote status`
    struct RemoteStatus: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Whether the server is reachable, its schema version, and each shared trip's unsent changes and last sync.",
            discussion: "Exits 69 when the server cannot be reached, 77 when it refuses the login (after printing what this ledger knows).")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let context = try global.context()
            let status = try SyncSession(ledger: try context.openLedger(), environment: context.environment).status()
            emit(global.format, json: SharingFormat.json(status), text: SharingFormat.text(status))
            // Refused logins and permissions are 77, as for every sharing command; the rest 69.
            if !status.reachable { throw ExitCode((status.problem as? SharingError)?.exitCode ?? 69) }
        }
    }
}
