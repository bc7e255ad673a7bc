import Storage
import TripCore
import TripLedger
import TripModel

/// One shared trip's change log on the server, as a sync round uses it: push appends, pull reads
/// in order. `RemoteSync`'s `ChangeLog` is the log on PostgreSQL; the tests' `InMemoryLog` runs the
/// sync rules without a server.
package protocol SharedLog {
    /// How many changes one pull reads at most (and applies in one SQLite transaction).
    var batchSize: Int { get }

    /// Appends the changes the log does not hold yet, numbered after its last; see `ChangeLog.push`.
    func push(_ changes: [SyncChange], device: String, pulled: Int64) throws -> PushResult

    /// The changes after `seq`, in order, at most `batchSize`; empty when there are none.
    func pull(after seq: Int64) throws -> [SyncChange]

    /// Tells the other devices that `count` changes of `device` wait for the trip to be reopened.
    func pushHeldStatus(_ count: Int, device: String, hlc: Int64) throws

    /// The other devices whose latest note says changes of theirs wait for a reopen, by role.
    func heldElsewhere(than device: String) throws -> [(role: String, count: Int)]
}

/// A pull cut short after the round had pushed and pulled this much; `underlying` is the log's
/// own error, which the caller words for its server.
package struct SyncRoundCut: Error {
    package let underlying: any Error
    package let pushed: Int
    package let pulled: Int
    package let of: Int
}

extension Ledger {
    /// One sync round of `shared` against `log`, after the server has been reached and this
    /// device registered: push, pull a batch per transaction, hold what a close elsewhere
    /// refused, release what a reopen freed, tell the others what waits here, apply the removals
    /// that waited, record the sync. `onServer`: the log's last number before this round;
    /// `before`: the trip's net total before it; `here`: the server's identity.
    package func syncRound(
        _ shared: SharedTrip, log: some SharedLog, device: String, onServer: Int64, before: Int64, here: ServerIdentity?
    ) throws -> SyncResult {
        var state = shared
        // 1. Push.
        let heldBefore = try heldCount(state)
        var (push, sent) = try pushRound(&state, log, device: device)

        // 2. Pull, a batch per transaction. Changes of others waiting before this push; a pull
        // cut short says how far it got.
        var summary = PullSummary()
        let waiting = Int(max(0, onServer - shared.pulledSeq))
        var pulledChanges = 0
        while true {
            let batch: [SyncChange]
            do {
                batch = try log.pull(after: state.pulledSeq)
            } catch {
                // Each batch already applied is committed: say what this sync did before it was cut.
                throw SyncRoundCut(underlying: error, pushed: push.added, pulled: pulledChanges, of: max(waiting, pulledChanges))
            }
            guard let last = batch.last else { break }
            let applied = try applyIncoming(&state, batch, upTo: last.seq)
            pulledChanges += batch.count
            summary.add(applied)
            if batch.count < log.batchSize { break }
        }
        if summary.applied == 0 && summary.rates == 0 { try markSynced(&state) }

        // 3. Hold, after the pull: the server's versions of the held rows may name members only
        // now here.
        if !push.held.isEmpty {
            try holdClosedElsewhere(state, push.held, serverVersions: push.serverVersions, closedBy: push.closedBy ?? "")
            summary.conflicts += push.held.count
        }
        // 3b. Release: the trip is open again (as pulled), so what waited for the close goes now.
        if try releaseHeld(state) > 0 {
            let again = try pushRound(&state, log, device: device)
            push.added += again.push.added
            sent += again.sent
            if !again.push.held.isEmpty {
                // Closed again in between: they wait again.
                try holdClosedElsewhere(state, again.push.held, serverVersions: again.push.serverVersions, closedBy: again.push.closedBy ?? "")
            }
        }
        // 3c. The others are told how many changes wait here, when that changed.
        let held = try heldCount(state)
        if held != heldBefore || !push.held.isEmpty { try log.pushHeldStatus(held, device: device, hlc: try nextClock()) }
        // 4. Waiting removals: only a sync that sent, pulled or held something can have freed one.
        if summary.applied > 0 || !push.held.isEmpty || !sent.isEmpty {
            try applyWaitingRemovals(state)
        }
        try recordCompleteSync(&state, server: here)
        let total = try netTotal(state)
        var result = SyncResult(
            trip: state.trip.name, home: state.trip.homeCurrency, pushed: push.added,
            sent: sent.filter { !SyncChange.rateKinds.contains($0.kind) }.reduce(0) { $0 + $1.rows },
            pulled: summary.applied, pulledBy: summary.byAuthor, rates: summary.rates, conflicts: summary.conflicts,
            total: total, change: total - before)
        result.setAside = summary.setAside
        result.held = held
        result.closedBy = try held > 0 ? heldFor(state) : ""
        result.heldElsewhere = try log.heldElsewhere(than: device)
        return result
    }

    /// Pushes what this device changed and marks as sent what the server took; what it held
    /// because another device closed the trip comes back in `push.held`.
    private func pushRound(_ state: inout SharedTrip, _ log: some SharedLog, device: String) throws -> (push: PushResult, sent: [SyncChange]) {
        let outgoing = try prepareOutgoing(state)
        let push = try log.push(outgoing, device: device, pulled: state.pulledSeq)
        let held = Set(push.held.map(\.changeID))
        let sent = outgoing.filter { !held.contains($0.changeID) }
        if !sent.isEmpty { try markSent(&state, sent, pulledThrough: push.ownThrough) }
        return (push, sent)
    }
}
