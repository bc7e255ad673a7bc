import ArgumentParser

extension TripCommand {
    /// `trip remote init|status|move`
    struct RemoteGroup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remote",
            abstract: "The PostgreSQL server of shared trips ([sync] remote in config, or TRIP_REMOTE).",
            subcommands: [RemoteInit.self, RemoteStatus.self, RemoteMove.self])
    }
}
