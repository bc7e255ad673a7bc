import TripCore
import TripModel

/// The local sync tables' SQL: `shared_trips`, `sync_rows` (each travelling row's global id and
/// version), `sync_outbox`, `sync_conflicts`, `sync_state` (m0011) and `sync_log_versions` (m0018), the triggers of
/// `SyncTriggers`, and the JSON of travelling rows that SQLite reads and edits. The only code that
/// reads or writes them; the rules of a sync (what is sent, which version wins, what is a
/// conflict) are `SyncRules/`'s, which calls this.
package struct SyncStore {
    let db: Database

    /// Travelling rows as JSON, by column name.
    package var codec: RowCodec { RowCodec(db: db) }
}

// MARK: sync_state: the device, its clock, and whether writes are local changes

extension SyncStore {
    package func deviceID() throws -> String {
        try db.scalarText("SELECT device FROM sync_state WHERE id = 1") ?? ""
    }

    /// The transaction of a share, a push's preparation or a pull. Each row they write is a
    /// statement of its own on a table with triggers, for which SQLite keeps a statement journal
    /// of the pages the statement changes: in a temporary file by default, one write per page per
    /// statement (about 85,000 writes for a join of 20,000 purchases). Here it is kept in memory;
    /// each holds a few pages, and the largest statement, a pull's re-rating, one trip's.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try db.execute("PRAGMA temp_store = MEMORY")
        defer { try? db.execute("PRAGMA temp_store = DEFAULT") }
        return try db.transaction(body)
    }

    /// Advances the hybrid logical clock and returns it: the tick the outbox triggers make too,
    /// defined once by the view `sync_next_hlc` (m0024).
    package func tick() throws -> Int64 {
        try db.run("UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc)")
        return try db.scalarInt("SELECT hlc FROM sync_state") ?? 0
    }

    /// Moves the clock past `hlc`, a clock received.
    package func advanceClock(past hlc: Int64) throws {
        try db.run("UPDATE sync_state SET hlc = max(hlc, ?)", [.integer(hlc)])
    }

    /// Runs `body` with the outbox triggers silent (a pull, a re-rate: not local changes), and
    /// puts the previous state back, so it nests.
    package func withApplying<T>(_ body: () throws -> T) throws -> T {
        let previous = try db.scalarInt("SELECT applying FROM sync_state") ?? 0
        try db.run("UPDATE sync_state SET applying = 1")
        let result = try body()
        try db.run("UPDATE sync_state SET applying = ?", [.integer(previous)])
        return result
    }

    /// Creates the outbox triggers if this ledger has none yet. Inside the caller's transaction.
    package func installTriggers() throws {
        try db.execute(SyncTriggers.sql)
    }

    /// Creates the outbox triggers again when this ledger shares a trip: m0024 dropped the ones
    /// that spelled the clock's tick out. In the migration's transaction.
    func reinstallTriggers() throws {
        if try !sharedTrips().isEmpty { try installTriggers() }
    }

    /// Drops the outbox triggers of new purchases and splits, for a join's bulk insert, which
    /// `installTriggers` ends by creating them again.
    package func dropPurchaseInsertTriggers() throws {
        try db.execute("DROP TRIGGER IF EXISTS purchases_sync_insert; DROP TRIGGER IF EXISTS purchase_splits_sync_insert")
    }
}

// MARK: shared_trips

/// A shared trip as stored: its local trip id, global id, owner and where its sync stands.
package struct SharedTripRow {
    package let tripID: Int64
    package let gid: String
    package let owner: String
    package let pulledSeq: Int64
    package let lastSync: String?
    package let server: ServerIdentity?
    package let joinComplete: Bool
}

extension SyncStore {
    package func sharedTrips() throws -> [SharedTripRow] {
        var rows: [SharedTripRow] = []
        try db.prepare("SELECT \(SharedTripColumn.sqlList) FROM shared_trips ORDER BY trip_id").forEach {
            let r = $0.row(SharedTripColumn.self)
            rows.append(
                SharedTripRow(
                    tripID: r.int(.tripID), gid: r.text(.gid), owner: r.text(.owner), pulledSeq: r.int(.pulledSeq),
                    lastSync: r.optionalText(.lastSync),
                    server: r.optionalText(.serverID).map { ServerIdentity(id: $0, name: r.optionalText(.serverName) ?? $0) },
                    joinComplete: r.int(.joinComplete) != 0))
        }
        return rows
    }

    package func isShared(trip id: Int64) throws -> Bool {
        try db.scalarInt("SELECT 1 FROM shared_trips WHERE trip_id = ?", [.integer(id)]) != nil
    }

    /// The global id of trip `id` when it is shared.
    package func sharedGID(trip id: Int64) throws -> String? {
        try db.scalarText("SELECT gid FROM shared_trips WHERE trip_id = ?", [.integer(id)])
    }

    /// `joining`: the trip is created by a join, whole only once a sync of it completes (m0020).
    package func insertSharedTrip(trip id: Int64, gid: String, owner: String, server: ServerIdentity?, joining: Bool = false) throws {
        try db.run(
            "INSERT INTO shared_trips (trip_id, gid, owner, server_id, server_name, join_complete) VALUES (?, ?, ?, ?, ?, ?)",
            [.integer(id), .text(gid), .text(owner), SQLValue(server?.id), SQLValue(server?.name), .integer(joining ? 0 : 1)])
    }

    /// A sync of trip `id` completed on `server`: the trip remembers it when it knew none (shared
    /// before identities), and a join cut short is whole now (m0020).
    package func recordCompleteSync(trip id: Int64, server: ServerIdentity?) throws {
        try db.run(
            """
            UPDATE shared_trips SET join_complete = 1,
              server_name = CASE WHEN server_id IS NULL AND ?2 IS NOT NULL THEN ?3 ELSE server_name END,
              server_id = coalesce(server_id, ?2)
            WHERE trip_id = ?1
            """, [.integer(id), SQLValue(server?.id), SQLValue(server?.name)])
    }

    /// Trip `id` now lives on `server` (`trip remote move`): its log there is read from the start;
    /// `republish`: the server has no log of it yet, so its whole history is queued again, as at a
    /// first share, and every cached rate is sent again.
    package func moveSharedTrip(trip id: Int64, to server: ServerIdentity?, republish: Bool, owner: String, hlc: Int64) throws {
        try db.run(
            """
            UPDATE shared_trips SET server_id = ?2, server_name = ?3, pulled_seq = 0, owner = ?5,
              rates_sent = CASE WHEN ?4 THEN NULL ELSE rates_sent END
            WHERE trip_id = ?1
            """, [.integer(id), SQLValue(server?.id), SQLValue(server?.name), .integer(republish ? 1 : 0), .text(owner)])
        if republish {
            try db.run("DELETE FROM sync_outbox WHERE trip_id = ? AND change_id IS NOT NULL", [.integer(id)])
            try queueWholeTrip(id, hlc: hlc)
        }
    }

    /// The server's log is applied up to `seq` (never moving back).
    package func advancePulled(trip id: Int64, through seq: Int64) throws {
        try db.run("UPDATE shared_trips SET pulled_seq = max(pulled_seq, ?) WHERE trip_id = ?", [.integer(seq), .integer(id)])
    }

    /// Cached rates fetched up to `fetchedAt` have been sent.
    package func advanceRatesSent(trip id: Int64, through fetchedAt: String) throws {
        try db.run(
            "UPDATE shared_trips SET rates_sent = max(coalesce(rates_sent, ''), ?) WHERE trip_id = ?", [.text(fetchedAt), .integer(id)])
    }

    /// A pull applied the log up to `seq` at `now`.
    package func recordPull(trip id: Int64, through seq: Int64, at now: String) throws {
        try db.run(
            "UPDATE shared_trips SET pulled_seq = max(pulled_seq, ?), last_sync = ? WHERE trip_id = ?",
            [.integer(seq), .text(now), .integer(id)])
    }

    package func recordSync(trip id: Int64, at now: String) throws {
        try db.run("UPDATE shared_trips SET last_sync = ? WHERE trip_id = ?", [.text(now), .integer(id)])
    }
}

// MARK: sync_outbox

/// An outbox entry not yet prepared: a local change of a row, at clock `hlc`.
package struct PendingChange {
    package let outboxID: Int64
    package let kind: String
    package let localID: Int64
    package let hlc: Int64
    package let pastClose: Bool
}

/// A purchase change waiting in the outbox, with its row's version and references (`preparePurchases`).
package struct WaitingPurchase {
    package let outboxID: Int64
    package let localID: Int64
    package let hlc: Int64
    package let pastClose: Bool
    package let gid: String
    package let versionHLC: Int64
    package let deletedHLC: Int64
    package let restoredHLC: Int64
    package let refundGID: String?
    package let payers: String?
    package let shares: String?
}

extension SyncStore {
    /// The trip's changes waiting to be sent, as a traveller counts them: a snapshot counts the
    /// trip's purchases.
    package func unsentCount(trip id: Int64) throws -> Int {
        Int(
            try db.scalarInt(
                """
                SELECT count(*) FILTER (WHERE kind != ?2)
                  + CASE WHEN count(*) FILTER (WHERE kind = ?2) > 0 THEN (SELECT count(*) FROM purchases WHERE trip_id = ?1) ELSE 0 END
                FROM sync_outbox WHERE trip_id = ?1
                """, [.integer(id), .text(PurchaseSnapshot.kind)]) ?? 0)
    }

    /// Queues a newly shared trip's whole history at clock `hlc`: the trip, its members in join
    /// order, its purchases as one snapshot (when it has any), its transfers.
    package func queueWholeTrip(_ id: Int64, hlc: Int64) throws {
        let trip = SQLValue.integer(id)
        try db.run("INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (?, 'trip', ?, ?)", [trip, trip, .integer(hlc)])
        try db.run(
            """
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc)
            SELECT trip_id, 'member', id, ?2 FROM members WHERE trip_id = ?1 ORDER BY joined_at, id
            """, [trip, .integer(hlc)])
        try db.run(
            """
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc)
            SELECT ?1, ?3, ?1, ?2 WHERE EXISTS (SELECT 1 FROM purchases WHERE trip_id = ?1)
            """, [trip, .integer(hlc), .text(PurchaseSnapshot.kind)])
        try db.run(
            """
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc)
            SELECT trip_id, 'transfer', id, ?2 FROM transfers WHERE trip_id = ?1 ORDER BY id
            """, [trip, .integer(hlc)])
    }

    /// Keeps one unprepared entry per row (the last): several writes to one row before a sync
    /// travel as one change, the row as it is now.
    package func coalesceOutbox(trip id: Int64) throws {
        try db.run(
            """
            DELETE FROM sync_outbox WHERE trip_id = ?1 AND change_id IS NULL AND id < (
              SELECT max(o.id) FROM sync_outbox o
              WHERE o.trip_id = ?1 AND o.change_id IS NULL AND o.kind = sync_outbox.kind AND o.local_id = sync_outbox.local_id)
            """, [.integer(id)])
    }

    /// Changes an earlier sync prepared and the server has not acknowledged, each with its row's
    /// local id and its outbox id; `device`: this device's id, which they carry.
    package func prepared(trip id: Int64, device: String) throws -> [(change: SyncChange, localID: Int64, outboxID: Int64)] {
        var out: [(change: SyncChange, localID: Int64, outboxID: Int64)] = []
        try db.prepare("SELECT \(OutgoingColumn.sqlList) FROM sync_outbox WHERE trip_id = ? AND change_id IS NOT NULL").forEach([
            .integer(id)
        ]) { statement in
            let s = statement.row(OutgoingColumn.self)
            var change = SyncChange(
                changeID: s.text(.changeID), kind: s.text(.kind), gid: s.text(.gid), op: s.text(.op), hlc: s.int(.hlc),
                baseHLC: s.int(.baseHLC), device: device, payload: s.optionalText(.payload))
            change.pastClose = s.int(.pastClose) == 1
            out.append((change, s.int(.localID), s.int(.outboxID)))
        }
        return out
    }

    /// The trip's entries not prepared yet, in the order they were written.
    package func pending(trip id: Int64) throws -> [PendingChange] {
        var out: [PendingChange] = []
        try db.prepare("SELECT \(PendingColumn.sqlList) FROM sync_outbox WHERE trip_id = ? AND change_id IS NULL ORDER BY id").forEach([
            .integer(id)
        ]) { statement in
            let s = statement.row(PendingColumn.self)
            out.append(
                PendingChange(
                    outboxID: s.int(.outboxID), kind: s.text(.kind), localID: s.int(.localID), hlc: s.int(.hlc), pastClose: s.int(.pastClose) == 1))
        }
        return out
    }

    /// The trip's waiting purchase changes with their rows' versions and references, in outbox order.
    package func waitingPurchases(trip id: Int64) throws -> [WaitingPurchase] {
        var out: [WaitingPurchase] = []
        try db.prepare(
            """
            SELECT \(WaitingPurchaseColumn.sqlList)
            FROM sync_outbox o
            JOIN sync_rows r ON r.kind = 'purchase' AND r.local_id = o.local_id
            LEFT JOIN purchases p ON p.id = o.local_id AND p.trip_id = ?1
            LEFT JOIN sync_rows rg ON rg.kind = 'purchase' AND rg.local_id = p.refund_of
            LEFT JOIN purchase_splits s ON s.purchase_id = p.id AND s.trip_id = ?1
            WHERE o.trip_id = ?1 AND o.change_id IS NULL AND o.kind = 'purchase' ORDER BY o.id
            """
        ).forEach([.integer(id)]) { statement in
            let r = statement.row(WaitingPurchaseColumn.self)
            out.append(
                WaitingPurchase(
                    outboxID: r.int(.outboxID), localID: r.int(.localID), hlc: r.int(.hlc), pastClose: r.int(.pastClose) == 1, gid: r.text(.gid),
                    versionHLC: r.int(.versionHLC), deletedHLC: r.int(.deletedHLC), restoredHLC: r.int(.restoredHLC),
                    refundGID: r.optionalText(.refundGID), payers: r.optionalText(.payers), shares: r.optionalText(.shares)))
        }
        return out
    }

    /// Outbox entry `outboxID` is now `change`, fixed from now on; `baseHLC` the version it is built on.
    package func markPrepared(outboxID: Int64, _ change: SyncChange, baseHLC: Int64) throws {
        try db.run(
            "UPDATE sync_outbox SET change_id = ?, gid = ?, op = ?, base_hlc = ?, payload = ? WHERE id = ?",
            [.text(change.changeID), .text(change.gid), .text(change.op), .integer(baseHLC), SQLValue(change.payload), .integer(outboxID)])
    }

    package func deleteOutboxEntry(_ outboxID: Int64) throws {
        try db.run("DELETE FROM sync_outbox WHERE id = ?", [.integer(outboxID)])
    }

    /// The prepared changes `changeIDs` (a JSON array) of the trip leave the outbox: with one
    /// statement for a first share's tens of thousands of changes.
    package func removeSent(trip id: Int64, changeIDs: String, count: Int) throws {
        let trip = SQLValue.integer(id), sent = SQLValue.text(changeIDs)
        // Everything waiting was sent (a first share, or a device that syncs every trip): a
        // DELETE without a WHERE clause frees the table's pages instead of rewriting each one,
        // and with `secure_delete` at FAST (Debian's SQLite builds it ON) it does not zero them
        // either. The payloads freed are copies of rows that stay in the ledger.
        let waiting = try db.scalarInt("SELECT count(*) FROM sync_outbox") ?? 0
        var onlySent = waiting > 0 && waiting <= count
        if onlySent {
            onlySent =
                try db.scalarInt(
                    """
                    SELECT NOT EXISTS (SELECT 1 FROM sync_outbox
                      WHERE trip_id != ? OR change_id IS NULL OR change_id NOT IN (SELECT value FROM json_each(?)))
                    """, [trip, sent]) == 1
        }
        if onlySent {
            let secure = try db.scalarInt("PRAGMA secure_delete") ?? 0
            try db.execute("PRAGMA secure_delete = FAST")
            defer {
                try? db.execute(
                    secure == 1 ? "PRAGMA secure_delete = ON" : secure == 2 ? "PRAGMA secure_delete = FAST" : "PRAGMA secure_delete = OFF")
            }
            try db.run("DELETE FROM sync_outbox")
        } else {
            try db.run("DELETE FROM sync_outbox WHERE trip_id = ? AND change_id IN (SELECT value FROM json_each(?))", [trip, sent])
        }
    }

    /// The row's entries leave the outbox (a change held because the trip was closed elsewhere).
    package func removeFromOutbox(trip id: Int64, kind: String, localID: Int64) throws {
        try db.run(
            "DELETE FROM sync_outbox WHERE trip_id = ? AND kind = ? AND local_id = ?", [.integer(id), .text(kind), .integer(localID)])
    }

    /// The row's unprepared entries are sent even though the trip was closed elsewhere.
    package func markPastClose(trip id: Int64, kind: String, localID: Int64) throws {
        try db.run(
            "UPDATE sync_outbox SET past_close = 1 WHERE trip_id = ? AND kind = ? AND local_id = ? AND change_id IS NULL",
            [.integer(id), .text(kind), .integer(localID)])
    }

    /// The latest clock of the row's local writes not prepared yet (0: none).
    package func pendingHLC(kind: String, localID: Int64) throws -> Int64 {
        try db.scalarInt(
            "SELECT max(hlc) FROM sync_outbox WHERE kind = ? AND local_id = ? AND change_id IS NULL", [.text(kind), .integer(localID)]) ?? 0
    }
}

// MARK: sync_rows: global ids and versions

/// The version of a row this ledger holds: its clock and device, the version it was built on, and
/// the clocks of its latest delete and restore.
/// The winning version of a row so far in the log's order (`Ledger.noteLogOrder`).
package struct LogVersion {
    package let version: Version
    package let removed: Bool
    package let payload: String?

    package init(version: Version, removed: Bool, payload: String?) {
        self.version = version
        self.removed = removed
        self.payload = payload
    }
}

package struct RowVersion {
    package let hlc: Int64
    package let device: String
    package let base: Int64
    package let deleted: Int64
    package let restored: Int64
}

extension SyncStore {
    package func globalID(kind: String, localID: Int64) throws -> String? {
        try db.scalarText("SELECT gid FROM sync_rows WHERE kind = ? AND local_id = ?", [.text(kind), .integer(localID)])
    }

    package func localID(kind: String, gid: String) throws -> Int64? {
        try db.prepare("SELECT local_id FROM sync_rows WHERE kind = ? AND gid = ?").first([.text(kind), .text(gid)]) { $0.int(0) }
    }

    package func hasGlobalID(kind: String, localID: Int64) throws -> Bool {
        try globalID(kind: kind, localID: localID) != nil
    }

    /// Every row of `kind` with a global id (those in the trash too), for a typed shared id to be
    /// matched against: a shared id is a hash of the global id, which SQLite cannot look up.
    package func identities(kind: String) throws -> [(localID: Int64, gid: String)] {
        var out: [(localID: Int64, gid: String)] = []
        try db.prepare("SELECT local_id, gid FROM sync_rows WHERE kind = ?").forEach([.text(kind)]) { out.append(($0.int(0), $0.text(1))) }
        return out
    }

    /// Every conflict that travels (those resolved too), for a typed shared id to be matched against.
    package func conflictIdentities() throws -> [(localID: Int64, gid: String)] {
        var out: [(localID: Int64, gid: String)] = []
        try db.prepare("SELECT id, conflict_gid FROM sync_conflicts WHERE conflict_gid != ''").forEach([]) { out.append(($0.int(0), $0.text(1))) }
        return out
    }

    /// Gives the row a global id, with no version yet.
    package func insertIdentity(kind: String, localID: Int64, gid: String, trip: Int64) throws {
        try db.run(
            "INSERT INTO sync_rows (kind, local_id, gid, trip_id) VALUES (?, ?, ?, ?)", [.text(kind), .integer(localID), .text(gid), .integer(trip)])
    }

    /// Gives the row a global id and the version `change` brought.
    package func insertIdentity(kind: String, localID: Int64, trip: Int64, from change: SyncChange, restoredHLC: Int64 = 0) throws {
        try db.run(
            """
            INSERT INTO sync_rows (kind, local_id, gid, trip_id, hlc, device, base_hlc, restored_hlc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(kind), .integer(localID), .text(change.gid), .integer(trip), .integer(change.hlc), .text(change.device),
                .integer(change.baseHLC), .integer(restoredHLC),
            ])
    }

    func deleteIdentity(kind: String, localID: Int64) throws {
        try db.run("DELETE FROM sync_rows WHERE kind = ? AND local_id = ?", [.text(kind), .integer(localID)])
    }

    /// The row's version, `nil` when it has no global id.
    package func version(kind: String, localID: Int64) throws -> RowVersion? {
        try db.prepare("SELECT \(RowVersionColumn.sqlList) FROM sync_rows WHERE kind = ? AND local_id = ?")
            .first([.text(kind), .integer(localID)]) { statement in
                let v = statement.row(RowVersionColumn.self)
                return RowVersion(
                    hlc: v.int(.hlc), device: v.text(.device), base: v.int(.baseHLC), deleted: v.int(.deletedHLC), restored: v.int(.restoredHLC))
            }
    }

    /// The row's version is now clock `hlc` of `device`, built on `base`.
    package func setVersion(kind: String, localID: Int64, hlc: Int64, device: String, base: Int64) throws {
        try db.run(
            "UPDATE sync_rows SET hlc = ?, device = ?, base_hlc = ? WHERE kind = ? AND local_id = ?",
            [.integer(hlc), .text(device), .integer(base), .text(kind), .integer(localID)])
    }

    /// The row was deleted at clock `hlc` (the latest delete is kept).
    package func markDeleted(kind: String, localID: Int64, hlc: Int64, device: String) throws {
        try db.run(
            """
            UPDATE sync_rows SET deleted_device = CASE WHEN ?1 > deleted_hlc THEN ?4 ELSE deleted_device END,
              deleted_hlc = max(deleted_hlc, ?1)
            WHERE kind = ?2 AND local_id = ?3
            """, [.integer(hlc), .text(kind), .integer(localID), .text(device)])
    }

    /// The row was restored at clock `hlc` (the latest restore is kept).
    package func markRestored(kind: String, localID: Int64, hlc: Int64) throws {
        try db.run(
            "UPDATE sync_rows SET restored_hlc = max(restored_hlc, ?) WHERE kind = ? AND local_id = ?",
            [.integer(hlc), .text(kind), .integer(localID)])
    }

    /// A purchase's new version from a local change `op` at clock `hlc`, built on the version it had.
    /// `carriesValues`: a removal that travels with the row's values is their version too; one
    /// without them leaves the version of the values as it was, as on every device that receives
    /// it, so an edit made elsewhere after that version still reaches the trash.
    package func setPurchaseVersion(localID: Int64, hlc: Int64, op: String, device: String, carriesValues: Bool = true) throws {
        try db.run(
            """
            UPDATE sync_rows SET
              deleted_device = CASE WHEN ?3 = 'delete' AND ?2 > deleted_hlc THEN ?4 ELSE deleted_device END,
              deleted_hlc = CASE WHEN ?3 = 'delete' THEN max(deleted_hlc, ?2) ELSE deleted_hlc END,
              restored_hlc = CASE WHEN ?3 = 'restore' THEN max(restored_hlc, ?2) ELSE restored_hlc END,
              hlc = CASE WHEN ?5 = 0 THEN hlc ELSE ?2 END,
              device = CASE WHEN ?5 = 0 THEN device ELSE ?4 END,
              base_hlc = CASE WHEN ?5 = 0 THEN base_hlc ELSE hlc END
            WHERE kind = 'purchase' AND local_id = ?1
            """, [.integer(localID), .integer(hlc), .text(op), .text(device), .integer(carriesValues ? 1 : 0)])
    }

    /// The row goes back to the server's version (clock `hlc` of `device`), and the delete or
    /// restore of the held change at clock `held` is forgotten: the latest one is the log's again
    /// (`removedAt`, `restoredAt`; 0: none), not none, since one pulled with an earlier clock
    /// than the held change's was kept only as the held one's.
    package func revertVersion(
        kind: String, localID: Int64, hlc: Int64, device: String, held: Int64, removedAt: Int64, restoredAt: Int64
    ) throws {
        try db.run(
            """
            UPDATE sync_rows SET hlc = ?1, device = ?2, base_hlc = ?1,
              deleted_hlc = CASE WHEN deleted_hlc = ?3 THEN ?6 ELSE deleted_hlc END,
              restored_hlc = CASE WHEN restored_hlc = ?3 THEN ?7 ELSE restored_hlc END
            WHERE kind = ?4 AND local_id = ?5
            """, [.integer(hlc), .text(device), .integer(held), .text(kind), .integer(localID), .integer(removedAt), .integer(restoredAt)])
    }

    /// Purchases the trip's waiting changes name (and the purchases they refund) that have no
    /// global id yet, by id.
    package func waitingPurchasesWithoutGlobalID(trip id: Int64) throws -> [Int64] {
        try ids(
            """
            SELECT x.id FROM (
              SELECT o.local_id AS id FROM sync_outbox o WHERE o.trip_id = ?1 AND o.change_id IS NULL AND o.kind = 'purchase'
              UNION SELECT p.refund_of FROM sync_outbox o JOIN purchases p ON p.id = o.local_id
              WHERE o.trip_id = ?1 AND o.change_id IS NULL AND o.kind = 'purchase' AND p.refund_of IS NOT NULL) x
            WHERE NOT EXISTS (SELECT 1 FROM sync_rows r WHERE r.kind = 'purchase' AND r.local_id = x.id) ORDER BY x.id
            """, trip: id)
    }

    /// The trip's purchases that have no global id yet, by id.
    package func tripPurchasesWithoutGlobalID(trip id: Int64) throws -> [Int64] {
        try ids(
            """
            SELECT p.id FROM purchases p WHERE p.trip_id = ?1
            AND NOT EXISTS (SELECT 1 FROM sync_rows r WHERE r.kind = 'purchase' AND r.local_id = p.id) ORDER BY p.id
            """, trip: id)
    }

    private func ids(_ sql: String, trip: Int64) throws -> [Int64] {
        var out: [Int64] = []
        try db.prepare(sql).forEach([.integer(trip)]) { out.append($0.int(0)) }
        return out
    }

    /// The trip's purchases with a global id but no version yet get version `hlc` of `device`.
    package func versionUnversionedPurchases(trip id: Int64, hlc: Int64, device: String) throws {
        try db.run(
            "UPDATE sync_rows SET hlc = ?2, device = ?3 WHERE kind = 'purchase' AND trip_id = ?1 AND hlc = 0",
            [.integer(id), .integer(hlc), .text(device)])
    }

    /// Purchases' global ids and versions, many at a time: rows of their local id, global id,
    /// trip, clock and device.
    package func purchaseVersions() -> BatchInsert {
        BatchInsert(
            db: db, prefix: "INSERT OR FAIL INTO sync_rows (kind, local_id, gid, trip_id, hlc, device) VALUES ", row: "('purchase', ?, ?, ?, ?, ?)")
    }

    /// Whether this ledger holds none of the trip's purchases, shared or not: a join.
    package func holdsNoPurchases(trip id: Int64) throws -> Bool {
        try db.scalarInt(
            """
            SELECT NOT EXISTS (SELECT 1 FROM purchases WHERE trip_id = ?1)
               AND NOT EXISTS (SELECT 1 FROM sync_rows WHERE kind = 'purchase' AND trip_id = ?1)
            """, [.integer(id)]) == 1
    }
}

// MARK: sync_conflicts

extension SyncStore {
    /// Every conflict of every shared trip (open ones first).
    package func conflicts(includeResolved: Bool, names: (_ trip: String) -> SyncConflict.MemberNames = { _ in { _ in nil } }) throws
        -> [SyncConflict]
    {
        var out: [SyncConflict] = []
        try db.prepare(
            """
            SELECT \(ConflictColumn.sqlList)
            FROM sync_conflicts c JOIN trips t ON t.id = c.trip_id
            LEFT JOIN sync_devices dm ON dm.device = c.mine_device
            LEFT JOIN sync_devices dt ON dt.device = c.theirs_device
            LEFT JOIN sync_resolutions r ON r.conflict_gid = c.conflict_gid AND c.conflict_gid != ''
            WHERE ?1 = 1 OR c.resolved_at IS NULL ORDER BY c.resolved_at IS NOT NULL, c.id
            """
        ).forEach([.integer(includeResolved ? 1 : 0)]) { statement in
            let s = statement.row(ConflictColumn.self)
            let me = s.text(.thisDevice)
            var c = SyncConflict(
                id: s.int(.id), trip: s.text(.trip), kind: s.text(.kind), localID: s.int(.localID), reason: s.text(.reason),
                winner: s.text(.winner), mine: s.optionalText(.mine), theirs: s.optionalText(.theirs),
                theirsBy: s.text(.theirsBy), createdAt: s.text(.createdAt), resolvedAt: s.optionalText(.resolvedAt),
                names: names(s.text(.trip)))
            c.gid = s.text(.gid)
            c.versions = SyncConflict.versions(
                kind: c.kind, winner: c.winner, thisDevice: me,
                mine: (c.mine, s.int(.mineHLC), s.text(.mineDevice), s.text(.mineAuthor)),
                theirs: (c.theirs, s.int(.theirsHLC), s.text(.theirsDevice), s.text(.theirsAuthor)), names: names(c.trip))
            if c.resolvedAt != nil {
                let device = s.optionalText(.resolvedByDevice)
                c.resolvedBy = device == nil || device == me ? "this device" : s.optionalText(.resolvedBy) ?? "another device"
            }
            out.append(c)
        }
        return out
    }

    package func author(ofDevice device: String) throws -> String? {
        try db.scalarText("SELECT author FROM sync_devices WHERE device = ?", [.text(device)])
    }

    package func noteAuthor(_ author: String, device: String) throws {
        try db.run(
            "INSERT INTO sync_devices (device, author) VALUES (?, ?) ON CONFLICT (device) DO UPDATE SET author = excluded.author",
            [.text(device), .text(author)])
    }

    /// Records the role of each device that pushed one of `changes` (`sync_devices`): a conflict's
    /// versions are labelled with it.
    package func noteAuthors(_ changes: [SyncChange]) throws {
        var seen: Set<String> = []
        for c in changes where !c.author.isEmpty && seen.insert(c.device).inserted { try noteAuthor(c.author, device: c.device) }
    }

    /// The resolution of conflict `gid` known here: the kept version's clock and device.
    package func resolution(of gid: String) throws -> (keptHLC: Int64, keptDevice: String, hlc: Int64, device: String)? {
        try db.prepare("SELECT kept_hlc, kept_device, hlc, device FROM sync_resolutions WHERE conflict_gid = ?").first([.text(gid)]) {
            ($0.int(0), $0.text(1), $0.int(2), $0.text(3))
        }
    }

    /// Stores a resolution (made here: `sent` false), unless one later (clock, then device) is
    /// stored already. Returns whether it is now the resolution of its conflict.
    package func storeResolution(_ r: ConflictResolution, trip id: Int64, sent: Bool, at now: String) throws -> Bool {
        if let known = try resolution(of: r.conflictGID), Version(hlc: known.hlc, device: known.device) >= Version(hlc: r.hlc, device: r.device) {
            return false
        }
        try db.run(
            """
            INSERT OR REPLACE INTO sync_resolutions (conflict_gid, trip_id, kept_hlc, kept_device, hlc, device, author, resolved_at, sent)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(r.conflictGID), .integer(id), .integer(r.keptHLC), .text(r.keptDevice), .integer(r.hlc), .text(r.device),
                .text(r.author), .text(now), SQLValue(sent),
            ])
        return true
    }

    /// Closes every conflict listed under `gid`, keeping the version with clock `keptHLC` (each
    /// device's `winner` says which side that is there).
    package func closeConflicts(gid: String, keptHLC: Int64, keptDevice: String, at now: String) throws {
        try db.run(
            """
            UPDATE sync_conflicts SET resolved_at = coalesce(resolved_at, ?2),
              winner = CASE WHEN mine_hlc = ?3 AND mine_device = ?4 THEN 'mine' ELSE 'theirs' END
            WHERE conflict_gid = ?1
            """, [.text(gid), .text(now), .integer(keptHLC), .text(keptDevice)])
    }

    /// The resolutions made here that the server does not have yet.
    package func unsentResolutions(trip id: Int64) throws -> [ConflictResolution] {
        var out: [ConflictResolution] = []
        try db.prepare(
            "SELECT conflict_gid, kept_hlc, kept_device, hlc, device, author FROM sync_resolutions WHERE trip_id = ? AND sent = 0"
        ).forEach([.integer(id)]) { s in
            out.append(
                ConflictResolution(
                    conflictGID: s.text(0), keptHLC: s.int(1), keptDevice: s.text(2), hlc: s.int(3), device: s.text(4), author: s.text(5)))
        }
        return out
    }

    package func markResolutionsSent(_ gids: [String]) throws {
        for gid in gids { try db.run("UPDATE sync_resolutions SET sent = 1 WHERE conflict_gid = ?", [.text(gid)]) }
    }

    /// Lists a conflict of change `c` with row `localID` of the trip: each version with its clock
    /// (`nil`: removed), which one every device applied, and who wrote theirs.
    package func insertConflict(
        trip id: Int64, _ c: SyncChange, localID: Int64, reason: String, winner: String, mine: (String?, Int64),
        theirs: (String?, Int64), theirsBy: String, at now: String, gid conflictGID: String = "",
        devices: (mine: String, theirs: String) = ("", "")
    ) throws {
        try db.run(
            """
            INSERT INTO sync_conflicts (trip_id, kind, gid, local_id, reason, winner, mine, mine_hlc, theirs, theirs_hlc, theirs_by, created_at,
                                        conflict_gid, mine_device, theirs_device)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(id), .text(c.kind), .text(c.gid), .integer(localID), .text(reason), .text(winner),
                SQLValue(mine.0), .integer(mine.1), SQLValue(theirs.0), .integer(theirs.1), .text(theirsBy), .text(now),
                .text(conflictGID), .text(devices.mine), .text(devices.theirs),
            ])
    }

    /// The winning version of row `gid` so far in the log's order (m0018); `nil` before its first
    /// change (a row of a first share's snapshot, or one not seen yet).
    package func logVersion(gid: String) throws -> LogVersion? {
        try db.prepare("SELECT \(LogVersionColumn.sqlList) FROM sync_log_versions WHERE gid = ?").first([.text(gid)]) { statement in
            let v = statement.row(LogVersionColumn.self)
            return LogVersion(
                version: Version(hlc: v.int(.hlc), device: v.text(.device)), removed: v.int(.removed) != 0, payload: v.optionalText(.payload))
        }
    }

    /// The first (by global id) refund of purchase `gid` whose winning version in the log's order
    /// is not a removal. A live version always carries its row, and with it the global id of the
    /// purchase it refunds.
    package func firstLiveRefund(of gid: String, trip id: Int64) throws -> LogVersion? {
        try db.prepare(
            """
            SELECT \(LogVersionColumn.sqlList) FROM sync_log_versions
            WHERE trip_id = ?1 AND removed = 0 AND instr(payload, ?2) > 0 AND json_extract(payload, '$.refund_of') = ?2
            ORDER BY gid LIMIT 1
            """
        ).first([.integer(id), .text(gid)]) { statement in
            let v = statement.row(LogVersionColumn.self)
            return LogVersion(
                version: Version(hlc: v.int(.hlc), device: v.text(.device)), removed: v.int(.removed) != 0, payload: v.optionalText(.payload))
        }
    }

    package func setLogVersion(gid: String, trip id: Int64, _ v: LogVersion) throws {
        try db.run(
            """
            INSERT INTO sync_log_versions (gid, trip_id, hlc, device, removed, payload) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (gid) DO UPDATE SET hlc = excluded.hlc, device = excluded.device, removed = excluded.removed, payload = excluded.payload
            """,
            [.text(gid), .integer(id), .integer(v.version.hlc), .text(v.version.device), .integer(v.removed ? 1 : 0), SQLValue(v.payload)])
    }

    /// The trip's members with a global id, for `Ledger.settleMemberNames`: by local id, the global
    /// id, the name of its winning version in the log's order (m0018), and whether a change of it
    /// waits in the outbox (its name here is then the one it will send).
    package func memberVersions(trip id: Int64) throws -> [Int64: (gid: String, logName: String?, pending: Bool)] {
        var rows: [Int64: (gid: String, logName: String?, pending: Bool)] = [:]
        try db.prepare(
            """
            SELECT r.local_id, r.gid, CASE WHEN l.removed = 0 THEN json_extract(l.payload, '$.name') END,
                   EXISTS (SELECT 1 FROM sync_outbox o WHERE o.kind = 'member' AND o.local_id = r.local_id)
            FROM sync_rows r LEFT JOIN sync_log_versions l ON l.gid = r.gid
            WHERE r.kind = 'member' AND r.trip_id = ?
            """
        ).forEach([.integer(id)]) { s in
            rows[s.int(0)] = (s.text(1), s.optionalText(2), s.int(3) != 0)
        }
        return rows
    }

    /// Removes the conflicts of row `row` whose losing version has clock `hlc`
    /// (`GlobalID.conflict`: `conflict:ROW:HLC@DEVICE`), resolved ones too: a device that resolved
    /// one before the version built on it arrived lists it no more than a device that got the
    /// resolution after.
    package func dropConflicts(row: String, lostVersionHLC hlc: Int64) throws {
        let prefix = "conflict:\(row):\(hlc)@"
        try db.run(
            "DELETE FROM sync_conflicts WHERE gid = ?1 AND substr(conflict_gid, 1, length(?2)) = ?2",
            [.text(row), .text(prefix)])
    }

    /// Whether conflict `gid` is listed here already (a conflict is listed once).
    package func hasConflict(gid: String) throws -> Bool {
        try db.scalarInt("SELECT count(*) FROM sync_conflicts WHERE conflict_gid = ?", [.text(gid)]) ?? 0 > 0
    }

    /// Closes the open conflicts of row `row` listed for `reason`, the removal (the version
    /// without a row) kept: it applied after all.
    package func closeRemovalConflicts(row: String, reason: String, at now: String) throws {
        try db.run(
            """
            UPDATE sync_conflicts SET resolved_at = ?3, winner = CASE WHEN mine IS NULL THEN 'mine' ELSE 'theirs' END
            WHERE gid = ?1 AND reason = ?2 AND resolved_at IS NULL
            """, [.text(row), .text(reason), .text(now)])
    }

    /// Removes the conflicts of row `row` listed for `reason`, open or closed, as if never listed.
    package func dropConflicts(row: String, reason: String) throws {
        try db.run("DELETE FROM sync_conflicts WHERE gid = ? AND reason = ?", [.text(row), .text(reason)])
    }

    package func closeConflict(_ id: Int64, winner: String, at now: String) throws {
        try db.run("UPDATE sync_conflicts SET resolved_at = ?, winner = ? WHERE id = ?", [.text(now), .text(winner), .integer(id)])
    }

    /// The open conflicts of trip `id` listed for `reason` (the changes held because another
    /// device closed the trip: `SyncConflict.closedElsewhere`), by id.
    package func openConflictIDs(trip id: Int64, reason: String) throws -> [Int64] {
        var ids: [Int64] = []
        try db.prepare("SELECT id FROM sync_conflicts WHERE trip_id = ? AND reason = ? AND resolved_at IS NULL ORDER BY id").forEach(
            [.integer(id), .text(reason)]
        ) { ids.append($0.int(0)) }
        return ids
    }
}

// MARK: sync_device_roles

extension SyncStore {
    /// The role device `device` is bound to in trip `trip` (m0021), or `nil` before its first change.
    package func deviceRole(trip: Int64, device: String) throws -> String? {
        try db.scalarText("SELECT role FROM sync_device_roles WHERE trip_id = ? AND device = ?", [.integer(trip), .text(device)])
    }

    /// Binds device `device` to `role` in trip `trip`, unless it is bound already.
    package func bindDevice(trip: Int64, device: String, role: String) throws {
        try db.run(
            "INSERT INTO sync_device_roles (trip_id, device, role) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            [.integer(trip), .text(device), .text(role)])
    }

    /// The local trip of the travelling row `gid` of `kind`, or `nil` when this ledger has none.
    package func tripOfRow(kind: String, gid: String) throws -> Int64? {
        try db.scalarInt("SELECT trip_id FROM sync_rows WHERE kind = ? AND gid = ?", [.text(kind), .text(gid)])
    }
}

// MARK: sync_set_aside

extension SyncStore {
    /// Records pulled change `c` of trip `id` as set aside (m0019): it could not be applied here.
    /// Once per change (its number in the log).
    package func insertSetAside(trip id: Int64, _ c: SyncChange, error: String, at now: String) throws {
        try db.run(
            """
            INSERT INTO sync_set_aside (trip_id, seq, kind, gid, op, author, device, error, set_aside_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (trip_id, seq) DO NOTHING
            """,
            [
                .integer(id), .integer(c.seq), .text(c.kind), .text(c.gid), .text(c.op), .text(c.author), .text(c.device), .text(error),
                .text(now),
            ])
    }

    /// Every change set aside, of every shared trip, in the trips' and the logs' order.
    package func setAsideChanges() throws -> [SetAsideChange] {
        var out: [SetAsideChange] = []
        try db.prepare(
            """
            SELECT t.name, s.seq, s.kind, s.gid, s.op, s.author, s.error, s.set_aside_at
            FROM sync_set_aside s JOIN trips t ON t.id = s.trip_id ORDER BY t.name, s.seq
            """
        ).forEach([]) { s in
            out.append(
                SetAsideChange(
                    trip: s.text(0), seq: s.int(1), kind: s.text(2), gid: s.text(3), op: s.text(4), author: s.text(5), reason: s.text(6),
                    setAsideAt: s.text(7)))
        }
        return out
    }
}

// MARK: travelling rows

extension SyncStore {
    /// Keeps the row `id` of `table` as it travels (its columns as JSON) beside its global id,
    /// before it is removed here (m0014): a row that names it and arrives later brings it back.
    package func keepRemoved(_ table: RowCodec.Table, id: Int64) throws {
        guard let row = try codec.read(table, id: id) else { return }
        try db.run("UPDATE sync_rows SET removed_row = ? WHERE kind = ? AND local_id = ?", [.text(row), .text(table.kind), .integer(id)])
    }

    /// The row `keepRemoved` kept, if any.
    package func removedRow(_ table: RowCodec.Table, id: Int64) throws -> String? {
        try db.scalarText("SELECT removed_row FROM sync_rows WHERE kind = ? AND local_id = ?", [.text(table.kind), .integer(id)])
    }

    /// The purchases and members of trip `trip` that a removal reached but that are still here
    /// (kept because something named them): `(kind, local id)`.
    package func waitingRemovals(trip: Int64) throws -> [(kind: String, id: Int64)] {
        var out: [(kind: String, id: Int64)] = []
        try db.prepare(
            """
            SELECT r.kind, r.local_id FROM sync_rows r WHERE r.trip_id = ?1 AND r.deleted_hlc > r.restored_hlc
            AND ((r.kind = 'purchase' AND EXISTS (SELECT 1 FROM purchases p WHERE p.id = r.local_id AND p.trip_id = ?1))
              OR (r.kind = 'member' AND EXISTS (SELECT 1 FROM members m WHERE m.id = r.local_id)))
            ORDER BY r.kind DESC, r.local_id DESC
            """
        ).forEach([.integer(trip)]) { out.append(($0.text(0), $0.int(1))) }
        return out
    }

    /// A trashed purchase's row (`PurchaseStore.trashedRow`) as its travelling columns: without
    /// the local ones; and the global id of the purchase it refunds.
    package func travellingColumns(ofTrashed row: String) throws -> (columns: String, refundGID: String?) {
        // The trash holds every column: only the declared ones travel (`WireFormat`).
        let travelling = Set(RowCodec.writtenColumns(.purchases))
        let columns: String
        if let fields = FlatJSON.fields(row) {
            columns = WireFormat.object(fields.filter { travelling.contains($0.0) })
        } else {
            columns = try db.scalarText("SELECT json_remove(?, '$.id', '$.trip_id', '$.import_key', '$.refund_of')", [.text(row)]) ?? "{}"
        }
        let refunded = try db.scalarInt("SELECT json_extract(?, '$.refund_of')", [.text(row)])
        return (columns, try refunded.flatMap { try globalID(kind: "purchase", localID: $0) })
    }

    /// `payload` with its `name` replaced.
    package func withName(_ payload: String, _ name: String) throws -> String {
        try db.scalarText("SELECT json_set(?, '$.name', ?)", [.text(payload), .text(name)]) ?? payload
    }

    /// A member's travelling row made here (a member named by a row before their own change came).
    package func memberPayload(name: String, joinedAt: String) throws -> String {
        try db.scalarText("SELECT json_object('name', ?, 'joined_at', ?)", [.text(name), .text(joinedAt)]) ?? "{}"
    }

    package func exists(_ table: RowCodec.Table, id: Int64) throws -> Bool {
        try db.scalarInt(table.existsByID, [.integer(id)]) != nil
    }

    package func delete(_ table: RowCodec.Table, id: Int64) throws {
        try db.run(table.deleteByID, [.integer(id)])
    }

    /// The text at `path` (`$.name`) of a travelling payload, read by SQLite.
    package func payloadText(_ payload: String?, path: String) throws -> String? {
        try db.scalarText("SELECT json_extract(?, ?)", [SQLValue(payload), .text(path)])
    }

    /// The text of top-level `key` of a travelling payload, whatever characters the key holds.
    package func payloadText(_ payload: String, key: String) throws -> String? {
        try db.scalarText("SELECT json_extract(?, '$.\"' || ? || '\"')", [.text(payload), .text(key)])
    }

    /// `row` (`RowCodec`'s JSON) without its local id and, `tripID`, its trip's.
    package func withoutLocalIDs(_ row: String, tripID: Bool) throws -> String? {
        try db.scalarText(tripID ? "SELECT json_remove(?1, '$.id', '$.trip_id')" : "SELECT json_remove(?1, '$.id')", [.text(row)])
    }

    /// A transfer's row as it travels: without its local ids, its members as the references `from`
    /// and `to`.
    package func travellingTransfer(_ row: String, from: String, to: String) throws -> String? {
        try db.scalarText(
            "SELECT json_set(json_remove(?1, '$.id', '$.trip_id'), '$.from_member', ?2, '$.to_member', ?3)", [.text(row), .text(from), .text(to)])
    }

    /// Whether two payloads hold the same JSON.
    package func sameJSON(_ a: String, _ b: String) throws -> Bool {
        try db.scalarInt("SELECT json(?) = json(?)", [.text(a), .text(b)]) == 1
    }
}

extension RowCodec.Table {
    package init?(kind: String) {
        switch kind {
        case "trip": self = .trips
        case "member": self = .members
        case "purchase": self = .purchases
        case "transfer": self = .transfers
        default: return nil
        }
    }

    package var kind: String {
        switch self {
        case .trips: "trip"
        case .members: "member"
        case .purchases: "purchase"
        case .transfers: "transfer"
        }
    }

    var existsByID: String {
        switch self {
        case .trips: TripStore.existsByID
        case .members: MemberStore.existsByID
        case .purchases: PurchaseStore.existsByID
        case .transfers: TransferStore.existsByID
        }
    }

    var deleteByID: String {
        switch self {
        case .trips: TripStore.deleteByID
        case .members: MemberStore.deleteByID
        case .purchases: PurchaseStore.deleteByID
        case .transfers: TransferStore.deleteByID
        }
    }
}
