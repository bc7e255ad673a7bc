import Storage
import TripCore
import TripModel

/// A local trip that is shared, and where its sync stands. A sync carries it from step to step:
/// each step that moves it (`markSent`, `applyIncoming`, `markSynced`) updates it as it writes
/// the ledger, so the sync never reads it back.
public struct SharedTrip: Sendable, Equatable {
    /// As this ledger has it; a pulled trip change (a rename, a close) replaces it.
    public package(set) var trip: Trip
    public let gid: String
    public let owner: String
    /// The server's change log is applied up to here.
    public package(set) var pulledSeq: Int64
    public package(set) var lastSync: String?
    /// The server it was shared on or joined from; `nil`: shared before servers had identities,
    /// until its next sync (m0019).
    public package(set) var server: ServerIdentity? = nil
    /// A join of it was cut short and no sync has completed since: only part of it is here.
    public package(set) var joinedPartly = false
}

/// What one pull applied.
public struct PullSummary: Sendable, Equatable {
    public var applied = 0
    /// Per author (PostgreSQL role), changes applied.
    public var byAuthor: [String: Int] = [:]
    public var conflicts = 0
    public var rates = 0
    /// Changes that could not be applied here, set aside (`SetAsideChange`).
    public var setAside = 0
    public init() {}

    /// Adds what another batch (or change) of the same pull applied.
    public mutating func add(_ other: PullSummary) {
        applied += other.applied
        conflicts += other.conflicts
        rates += other.rates
        setAside += other.setAside
        for (who, n) in other.byAuthor { byAuthor[who, default: 0] += n }
    }
}
