import Storage
import TripCore
import TripModel

/// The local side of shared trips: which trips are shared, sharing and joining one, and what a
/// push (`Push.swift`), a pull (`Pull.swift`) and a conflict (`Conflicts.swift`) do here. The
/// tables are `SyncStore`'s (`Stores/SyncTables`); what crosses to the server is the wire
/// format (`SyncWire`: `SyncChange` and the rest); the server side is the `RemoteSync` module.
extension Ledger {
    /// This ledger's device id.
    public func deviceID() throws -> String {
        try syncStore.deviceID()
    }

    /// Every shared trip of this ledger, by name.
    public func sharedTrips() throws -> [SharedTrip] {
        try syncStore.sharedTrips().compactMap { r in
            guard let trip = try trip(id: r.tripID) else { return nil }
            return SharedTrip(
                trip: trip, gid: r.gid, owner: r.owner, pulledSeq: r.pulledSeq, lastSync: r.lastSync, server: r.server,
                joinedPartly: !r.joinComplete)
        }.sorted { $0.trip.name.lowercased() < $1.trip.name.lowercased() }
    }

    /// Local changes of `shared` not yet acknowledged by the server (`trip remote status`).
    public func unsentCount(_ shared: SharedTrip) throws -> Int {
        try syncStore.unsentCount(trip: shared.trip.id)
    }

    /// The share of `trip`, or `nil` when it is not shared.
    public func sharedTrip(_ trip: Trip) throws -> SharedTrip? {
        try sharedTrips().first { $0.trip.id == trip.id }
    }

    /// `trip share`: marks `trip` shared under `gid` and queues its whole history (the trip, its
    /// members, its purchases as one snapshot, its transfers, and the cached rates) for the first
    /// push. One transaction.
    public func markShared(_ trip: Trip, gid: String, owner: String, server: ServerIdentity? = nil) throws -> SharedTrip {
        try syncStore.transaction {
            if try syncStore.isShared(trip: trip.id) {
                throw TripError.badTextValue(field: "trip", value: trip.name, reason: "is already shared")
            }
            try syncStore.installTriggers()
            try syncStore.insertSharedTrip(trip: trip.id, gid: gid, owner: owner, server: server)
            try syncStore.insertIdentity(kind: "trip", localID: trip.id, gid: gid, trip: trip.id)
            // The purchases travel together, as one snapshot (built when the push is prepared).
            try syncStore.queueWholeTrip(trip.id, hlc: try tick())
            return SharedTrip(trip: trip, gid: gid, owner: owner, pulledSeq: 0, lastSync: nil, server: server)
        }
    }

    /// `trip join`: creates the local trip from its shared `trip` change and marks it shared, so
    /// the first pull fills it. A local trip of the same name is refused.
    public func createJoinedTrip(_ change: SyncChange, owner: String, server: ServerIdentity? = nil) throws -> SharedTrip {
        try syncStore.transaction {
            try withApplying {
                let name = try syncStore.payloadText(change.payload, path: "$.name") ?? ""
                try requireNewTripName(name)
                try syncStore.installTriggers()
                let id = try nextID(.trips)
                try syncStore.codec.write(.trips, id: id, payload: change.payload ?? "{}", fixed: [])
                try syncStore.insertSharedTrip(trip: id, gid: change.gid, owner: owner, server: server, joining: true)
                try syncStore.insertIdentity(kind: "trip", localID: id, trip: id, from: change)
                // Like `trip new`, the trip joined is the one the next commands mean, set in the
                // transaction that creates it: a join killed after this still left it current.
                try setLedgerSetting("current_trip", String(id))
                return SharedTrip(
                    trip: try trip(id: id)!, gid: change.gid, owner: owner, pulledSeq: 0, lastSync: nil, server: server, joinedPartly: true)
            }
        }
    }

    /// A sync of `shared` completed on `server`: a trip shared before servers had identities
    /// adopts this one, and a join cut short is whole now.
    public func recordCompleteSync(_ shared: inout SharedTrip, server: ServerIdentity?) throws {
        guard shared.server == nil || shared.joinedPartly else { return }
        try transaction { try syncStore.recordCompleteSync(trip: shared.trip.id, server: server) }
        if shared.server == nil { shared.server = server }
        shared.joinedPartly = false
    }

    /// `trip remote move`: `shared` lives on `server` from now on. Its log there is read from the
    /// start (applying a change again changes nothing); `republish`: that server has no log of it,
    /// so the whole trip is sent again, as by a first share. One transaction.
    /// `owner`: the role moving it, its owner on that server when it is sent there whole.
    public func moveSharedTrip(_ shared: SharedTrip, to server: ServerIdentity?, republish: Bool, owner: String) throws -> SharedTrip {
        try syncStore.transaction {
            try syncStore.moveSharedTrip(
                trip: shared.trip.id, to: server, republish: republish, owner: republish ? owner : shared.owner, hlc: try tick())
        }
        return SharedTrip(
            trip: shared.trip, gid: shared.gid, owner: republish ? owner : shared.owner, pulledSeq: 0, lastSync: shared.lastSync, server: server,
            joinedPartly: shared.joinedPartly)
    }

    /// A line for commands that show `trip` (`list`, `report`, `trips`) when a join of it was cut
    /// short and no sync has completed since: what they show is only part of the trip.
    public func partialJoinWarning(_ tripName: String?) throws -> String? {
        guard let trip = try? resolveTrip(tripName), let shared = try sharedTrip(trip), shared.joinedPartly else { return nil }
        return "warning: \(quoted(trip.name)) is only partly here: its join was cut short; `trip join \(quoted(trip.name))` brings the rest"
    }

    /// The trip's net total in its home currency, as `trip report` sums it (refunds and credits
    /// negative, unconverted purchases left out), in one pass over a covering index: a sync
    /// reports how it moved the total without the cost of a whole report.
    public func netTotal(_ shared: SharedTrip) throws -> Int64 {
        try purchaseStore.netHomeTotal(trip: shared.trip.id)
    }

    /// Advances the hybrid logical clock and returns it.
    package func tick() throws -> Int64 { try syncStore.tick() }

    /// Runs `body` with the outbox triggers silent (a pull, a re-rate: not local changes).
    package func withApplying<T>(_ body: () throws -> T) throws -> T { try syncStore.withApplying(body) }

    /// The global id of a row, given one the first time it is asked for.
    package func globalID(kind: String, localID: Int64, shared: SharedTrip) throws -> String {
        if let gid = try syncStore.globalID(kind: kind, localID: localID) { return gid }
        let gid: String
        switch kind {
        case "trip": gid = shared.gid
        case "member":
            let name = try memberStore.name(of: localID) ?? "#\(localID)"
            let byName = GlobalID.member(trip: shared.gid, name: name)
            // Taken by another member here (one renamed from this name): a global id of its own.
            gid = try syncStore.localID(kind: "member", gid: byName) == nil ? byName : GlobalID.member(trip: shared.gid, name: name, unique: true)
        default: gid = GlobalID.make()
        }
        try syncStore.insertIdentity(kind: kind, localID: localID, gid: gid, trip: shared.trip.id)
        return gid
    }
}
