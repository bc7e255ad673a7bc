import ArgumentParser

extension TripCommand {
    /// `trip transfer FROM TO AMOUNT` (`add`, the default), `trip transfer rm T3`, `trip transfer edit T3 …`
    struct TransferGroup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "transfer",
            abstract: "Record a payment between members (Ben pays Ana back); change or remove one by its T… id.",
            discussion: "`trip transfer FROM TO AMOUNT` records one (`add` may be left out). `trip transfers` lists them.",
            subcommands: [RecordTransfer.self, TransferRemove.self, TransferEditCommand.self],
            defaultSubcommand: RecordTransfer.self)
    }
}
