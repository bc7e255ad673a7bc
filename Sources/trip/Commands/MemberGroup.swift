import ArgumentParser

extension TripCommand {
    /// `trip member add|rename|rm`
    struct MemberGroup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "member",
            abstract: "Manage the members of a group trip: who travels, pays and shares.",
            subcommands: [MemberAdd.self, MemberRename.self, MemberRemove.self])
    }
}
