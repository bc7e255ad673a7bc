import ArgumentParser
import Rendering
import TripCore
import TripLedger
import TripModel

extension TripCommand {
    /// `trip backup FILE`
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a consistent copy of the ledger to a new file, even while other trip commands write.")

        @Argument(help: "The new file; an existing file is not overwritten.") var file: String
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let target = try global.openLedger().backup(to: file)
            emit(global.format, json: LedgerFormat.json(backup: target), text: LedgerFormat.text(backup: target))
        }
    }
}
