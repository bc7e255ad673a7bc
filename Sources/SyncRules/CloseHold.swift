import Storage

/// What a push to a shared trip that another device closed does not send: the server's half of
/// "changes made while the trip was closed elsewhere wait" (`holdClosedElsewhere`,
/// `releaseHeld`), decided from the log alone so that `ChangeLog` (under the trip row's lock, on
/// PostgreSQL) and the tests' `InMemoryLog` decide alike. Pure: no server, no ledger.
///
/// Which version of a row wins is `Version.decide`'s, the one rule; nothing here compares clocks
/// another way.
package struct CloseHold: Equatable, Sendable {
    /// The role that pushed the winning, closed version of the trip row.
    package let closedBy: String
    /// The changes held, in the order they were pushed (`holdable` of the push).
    package let held: [SyncChange]

    /// One version of the trip's own row in the log, as the hold reads it: its clock and device,
    /// the role that pushed it, and whether it closed the trip (`closed_at` set, not JSON `null`).
    package struct TripVersion: Equatable, Sendable {
        package let hlc: Int64
        package let device: String
        package let author: String
        package let closed: Bool

        package init(hlc: Int64, device: String, author: String, closed: Bool) {
            self.hlc = hlc
            self.device = device
            self.author = author
            self.closed = closed
        }

        /// A `trip` change of the log (its payload as the log stores it); `nil` for another kind or
        /// a change without a payload, which the server's read skips too.
        package init?(_ change: SyncChange) {
            guard change.kind == "trip", let payload = change.payload else { return nil }
            // As `trip_ledger.json_field(payload, 'closed_at') IS NOT NULL` reads it: the field's
            // last occurrence, and JSON `null` is no close.
            let closedAt = FlatJSON.fields(payload)?.last { $0.0 == "closed_at" }?.1
            let closed = if let closedAt, closedAt != .null { true } else { false }
            self.init(hlc: change.hlc, device: change.device, author: change.author, closed: closed)
        }

        var write: RowWrite { RowWrite(.edit, hlc: hlc, device: device) }
    }

    /// The changes a close elsewhere can hold: rows inside the trip (not the trip itself, nor
    /// rates, nor notes), except those the traveller chose to send anyway (`pastClose`).
    package static func holdable(_ changes: [SyncChange]) -> [SyncChange] {
        changes.filter { SyncChange.rowKinds.contains($0.kind) && !$0.pastClose }
    }

    /// The hold of a push of `changes` by `device`, given every version of the trip row in the
    /// log's order (`tripVersions`); `nil` when nothing is held.
    ///
    /// Held when the trip row's winning version (`Version.decide`, whatever order the log has) is
    /// a close, written by another device, and no trip change of this push (its last) wins over
    /// it: a reopen or edit made here after the close is pushed with the rows and opens the trip.
    package init?(tripVersions: [TripVersion], pushing changes: [SyncChange], device: String) {
        let held = CloseHold.holdable(changes)
        guard !held.isEmpty, let closer = CloseHold.winner(of: tripVersions), closer.closed, closer.device != device else { return nil }
        if let mine = changes.last(where: { $0.kind == "trip" }),
            Version.decide(held: closer.write, incoming: RowWrite(.edit, hlc: mine.hlc, device: device)).valuesWin
        {
            return nil
        }
        self.closedBy = closer.author
        self.held = held
    }

    /// The trip row's winning version among `versions` (in the log's order), by `Version.decide`;
    /// `nil` when there are none.
    package static func winner(of versions: [TripVersion]) -> TripVersion? {
        guard let first = versions.first else { return nil }
        return versions.dropFirst().reduce(first) { Version.decide(held: $0.write, incoming: $1.write).valuesWin ? $1 : $0 }
    }

    /// The version of each of `gids` that `log` (a log's changes in order, as it stores them)
    /// holds: the winning `Version`, its payload, and a removal not undone by a later restore
    /// leaves none (its last version is kept as `removedPayload`), with the clocks of its latest
    /// removal and restore. A purchase's first version may
    /// be a row of a share's snapshot (kind `snapshot`): snapshots are read first, in order, then
    /// the rows' own changes. A gid the log never had has no version.
    package static func serverVersions(of gids: [String], in log: [SyncChange]) -> [ServerVersion] {
        let wanted = Set(gids)
        var latest: [String: ServerVersion] = [:]
        for c in log where c.kind == PurchaseSnapshot.kind {
            guard let snapshot = c.payload.flatMap(PurchaseSnapshot.init) else { continue }
            for (gid, row) in (try? snapshot.payloads(of: wanted)) ?? [:] {
                latest[gid] = ServerVersion(gid: gid, payload: row.payload, hlc: row.hlc, device: c.device)
            }
        }
        // The latest removal and restore of each row, by clock.
        var deleted: [String: Int64] = [:], restored: [String: Int64] = [:]
        for c in log where c.kind != PurchaseSnapshot.kind && wanted.contains(c.gid) {
            if c.op == "delete" {
                deleted[c.gid] = max(deleted[c.gid] ?? 0, c.hlc)
            } else if c.op == "restore" {
                restored[c.gid] = max(restored[c.gid] ?? 0, c.hlc)
            }
            // A purchase's removal carries its last version (an edit made before the removal,
            // sent with it): a version like the others.
            guard c.op != "delete" || c.payload != nil else { continue }
            let incoming = RowWrite(RowWrite.Op(wire: c.op), hlc: c.hlc, device: c.device)
            if let known = latest[c.gid], Version.decide(held: incoming, incoming: RowWrite(.edit, hlc: known.hlc, device: known.device)).valuesWin {
                continue
            }
            latest[c.gid] = ServerVersion(gid: c.gid, payload: c.payload, hlc: c.hlc, device: c.device)
        }
        return latest.values.map { v in
            let removedAt = deleted[v.gid] ?? 0, restoredAt = restored[v.gid] ?? 0
            return Version.isRemoved(removedAt: removedAt, restoredAt: restoredAt)
                ? ServerVersion(
                    gid: v.gid, payload: nil, hlc: v.hlc, device: v.device, removedPayload: v.payload, removedAt: removedAt, restoredAt: restoredAt)
                : ServerVersion(gid: v.gid, payload: v.payload, hlc: v.hlc, device: v.device, removedAt: removedAt, restoredAt: restoredAt)
        }
    }
}
