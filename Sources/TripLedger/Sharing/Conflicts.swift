import TripCore
import TripModel

/// Conflicts: two versions of a row that a pull could not both keep. Every device applies the
/// same winner; the loser waits in `trip conflicts` until `trip resolve` keeps one.
extension Ledger {
    /// Every conflict of every shared trip (open ones first).
    public func conflicts(includeResolved: Bool = false) throws -> [SyncConflict] {
        try syncStore.conflicts(includeResolved: includeResolved)
    }

    /// `trip resolve ID --keep mine|theirs`: the kept version is written again as a new local
    /// change (so it wins on every device at the next sync), and the conflict is closed.
    public func resolveConflict(_ idText: String, keepMine: Bool) throws -> SyncConflict {
        let id = try Ledger.parseID(idText)
        MemberIDMemo.shared.clear()
        return try transaction {
            guard let c = try conflicts().first(where: { $0.id == id }) else {
                throw TripError.badText(field: "id", reason: "no open conflict \(idText); `trip conflicts` lists them")
            }
            let keep = keepMine ? c.mine : c.theirs
            let kept = keepMine ? "mine" : "theirs"
            if c.reason == SyncConflict.closedElsewhere {
                if keepMine { try sendPastClose(c) }
            } else if let keep, kept != c.winner, let table = RowCodec.Table(kind: c.kind),
                let shared = try sharedTrips().first(where: { $0.trip.name == c.trip })
            {
                let known = try syncStore.hasGlobalID(kind: c.kind, localID: c.localID)
                let alive = try syncStore.codec.read(table, id: c.localID) != nil
                // An edit the removal won over comes back from the trash, and travels as a restore.
                let inTrash =
                    try !alive && table == .purchases
                    && purchaseStore.trashedTrip(of: c.localID) != nil
                if known, alive || inTrash {
                    if inTrash { try requireOpen(shared.trip) }
                    try writeRow(table, id: c.localID, payload: keep, shared: shared, fromTrash: inTrash)
                }
            }
            try syncStore.closeConflict(id, winner: kept, at: clock.now)
            return try conflicts(includeResolved: true).first { $0.id == id }!
        }
    }

    /// `trip resolve ID --keep mine` of a change that waited because another device closed the
    /// trip: the change is written here again, as a local change marked to be sent all the same.
    private func sendPastClose(_ c: SyncConflict) throws {
        guard let table = RowCodec.Table(kind: c.kind), let shared = try sharedTrips().first(where: { $0.trip.name == c.trip }) else { return }
        if let mine = c.mine {
            try writeRow(table, id: c.localID, payload: mine, shared: shared, fromTrash: table == .purchases)
        } else if let row = try syncStore.codec.read(table, id: c.localID) {
            if table == .purchases {
                try purchaseStore.putInTrash(id: c.localID, trip: shared.trip.id, removedAt: clock.now, row: row)
                try splitStore.deleteAny(purchase: c.localID)
            }
            try syncStore.delete(table, id: c.localID)
        }
        try syncStore.markPastClose(trip: shared.trip.id, kind: c.kind, localID: c.localID)
    }

    /// Lists a conflict of `c` with the row `localID` here: each version with its clock (`nil`:
    /// removed), and which one every device applied.
    func recordConflict(
        _ c: SyncChange, localID: Int64, shared: SharedTrip, reason: String, winner: String, mine: (String, Int64)?, theirs: (String, Int64)?
    ) throws {
        try syncStore.insertConflict(
            trip: shared.trip.id, c, localID: localID, reason: reason, winner: winner, mine: (mine?.0, mine?.1 ?? 0),
            theirs: (theirs?.0, theirs?.1 ?? c.hlc), theirsBy: c.author, at: clock.now)
    }
}
