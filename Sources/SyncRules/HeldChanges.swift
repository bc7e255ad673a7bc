import Storage
import TripCore
import TripLedger
import TripModel

/// Changes this device made while another device had closed the trip (`holdClosedElsewhere`):
/// they wait here while the trip is closed, and go out by themselves once it is reopened.
extension Ledger {
    /// How many changes of `shared` wait here because the trip was closed on another device.
    public func heldCount(_ shared: SharedTrip) throws -> Int {
        try syncStore.openConflictIDs(trip: shared.trip.id, reason: SyncConflict.closedElsewhere).count
    }

    /// The role that closed the trip, as the changes held here say (empty: none held).
    public func heldFor(_ shared: SharedTrip) throws -> String {
        let ids = Set(try syncStore.openConflictIDs(trip: shared.trip.id, reason: SyncConflict.closedElsewhere))
        guard !ids.isEmpty else { return "" }
        return try conflicts().first { ids.contains($0.id) }?.theirsBy ?? ""
    }

    /// The next tick of this device's clock, for a note that travels outside the outbox.
    public func nextClock() throws -> Int64 {
        try transaction { try tick() }
    }

    /// Once the trip is open again (as the last pull left it), each change held for the close is
    /// written here again as a new local change, to be pushed with the others, and its conflict is
    /// closed: nobody resolves a change that only waited. One transaction. Returns how many.
    public func releaseHeld(_ shared: SharedTrip) throws -> Int {
        guard shared.trip.closedAt == nil else { return 0 }
        return try transaction {
            let ids = Set(try syncStore.openConflictIDs(trip: shared.trip.id, reason: SyncConflict.closedElsewhere))
            guard !ids.isEmpty else { return 0 }
            MemberIDMemo.shared.clear()
            // In the order they were made (held the other way round): a member before the
            // purchase that names them.
            for c in try conflicts().filter({ ids.contains($0.id) }).sorted(by: { $0.id > $1.id }) {
                // A removal of a row that a row kept since names (a refund of the purchase) is not
                // applied, as a removal from another device would not be: the others' version stays.
                do {
                    try transaction { try sendPastClose(c, markingPastClose: false) }
                    try syncStore.closeConflict(c.id, winner: "mine", at: clock.now)
                } catch let error as SQLiteError where error.isDiskFull || error.isBusy {
                    throw error
                } catch {
                    try syncStore.closeConflict(c.id, winner: "theirs", at: clock.now)
                }
            }
            // Written as they were made, with the rates of then: re-rated with the rates every
            // device has now, as a pull re-rates what it applies (not a local change).
            _ = try withApplying { try rerate(tripID: shared.trip.id, includingClosed: true) }
            return ids.count
        }
    }

    /// Every pulled change set aside because it could not be applied here (m0019), of every shared
    /// trip: `trip conflicts` lists them.
    public func setAsideChanges() throws -> [SetAsideChange] {
        try syncStore.setAsideChanges()
    }
}
