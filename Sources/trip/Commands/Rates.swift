import ArgumentParser

extension TripCommand {
    /// `trip rates set|show|status|sync`
    struct Rates: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Manage exchange rates: manual rates, the provider cache and syncing.",
            subcommands: [RatesSet.self, RatesShow.self, RatesStatus.self, RatesSync.self])
    }
}
