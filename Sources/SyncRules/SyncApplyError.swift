import Storage

/// A pulled change that could not be applied: a bug in the sync rules, which are meant to make
/// every change applicable in every order. Names the change and the reason; the batch it came in
/// is not applied (one transaction), and `trip sync --all` goes on with the other trips.
public struct SyncApplyError: Error, CustomStringConvertible {
    public let trip: String
    public let change: SyncChange
    public let reason: String

    public var description: String {
        "sync: \(trip): the \(change.kind) change \(change.gid) by \(change.author.isEmpty ? "another device" : change.author) "
            + "(server seq \(change.seq), \(change.op)) could not be applied: \(reason); this trip is as it was before this batch. "
            + "This is a bug in trip's sync rules: please report it"
    }
}
