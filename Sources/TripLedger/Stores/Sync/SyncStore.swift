import Rendering
import Synchronization
import TripCore
import TripModel

/// The local side of shared trips: `shared_trips`, `sync_rows`, `sync_outbox`,
/// `sync_conflicts` and `sync_state` (m0011), and the triggers of `SyncTriggers`. The only code that reads or
/// writes them. What crosses to the server is `SyncChange`; the server side is `TripSharing`.
extension Ledger {
    /// This ledger's device id.
    public func deviceID() throws -> String {
        try db.scalarText("SELECT device FROM sync_state WHERE id = 1") ?? ""
    }

    /// Every shared trip of this ledger, by name.
    public func sharedTrips() throws -> [SharedTrip] {
        var rows: [(Int64, String, String, Int64, String?)] = []
        try db.prepare("SELECT \(SharedTripColumn.sqlList) FROM shared_trips ORDER BY trip_id").forEach {
            let r = $0.row(SharedTripColumn.self)
            rows.append((r.int(.tripID), r.text(.gid), r.text(.owner), r.int(.pulledSeq), r.optionalText(.lastSync)))
        }
        return try rows.compactMap { r in
            guard let trip = try trip(id: r.0) else { return nil }
            return SharedTrip(trip: trip, gid: r.1, owner: r.2, pulledSeq: r.3, lastSync: r.4, unsent: try unsent(tripID: r.0))
        }.sorted { $0.trip.name.lowercased() < $1.trip.name.lowercased() }
    }

    /// The trip's changes waiting to be sent, as a traveller counts them: a snapshot counts the
    /// trip's purchases.
    private func unsent(tripID: Int64) throws -> Int {
        Int(
            try db.scalarInt(
                """
                SELECT count(*) FILTER (WHERE kind != ?2)
                  + CASE WHEN count(*) FILTER (WHERE kind = ?2) > 0 THEN (SELECT count(*) FROM purchases WHERE trip_id = ?1) ELSE 0 END
                FROM sync_outbox WHERE trip_id = ?1
                """, [.integer(tripID), .text(PurchaseSnapshot.kind)]) ?? 0)
    }

    /// The share of `trip`, or `nil` when it is not shared.
    public func sharedTrip(_ trip: Trip) throws -> SharedTrip? {
        try sharedTrips().first { $0.trip.id == trip.id }
    }

    /// `trip share`: marks `trip` shared under `gid` and queues its whole history (the trip, its
    /// members, its purchases as one snapshot, its transfers, and the cached rates) for the first
    /// push. One transaction.
    public func markShared(_ trip: Trip, gid: String, owner: String) throws -> SharedTrip {
        try syncTransaction {
            if try db.scalarInt("SELECT 1 FROM shared_trips WHERE trip_id = ?", [.integer(trip.id)]) != nil {
                throw TripError.badTextValue(field: "trip", value: trip.name, reason: "is already shared")
            }
            try installSyncTriggers()
            try db.run("INSERT INTO shared_trips (trip_id, gid, owner) VALUES (?, ?, ?)", [.integer(trip.id), .text(gid), .text(owner)])
            try db.run(
                "INSERT INTO sync_rows (kind, local_id, gid, trip_id) VALUES ('trip', ?, ?, ?)",
                [.integer(trip.id), .text(gid), .integer(trip.id)])
            let hlc = try tick()
            let id = SQLValue.integer(trip.id)
            try db.run("INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (?, 'trip', ?, ?)", [id, id, .integer(hlc)])
            try db.run(
                """
                INSERT INTO sync_outbox (trip_id, kind, local_id, hlc)
                SELECT trip_id, 'member', id, ?2 FROM members WHERE trip_id = ?1 ORDER BY joined_at, id
                """, [id, .integer(hlc)])
            // The purchases travel together, as one snapshot (built when the push is prepared).
            try db.run(
                """
                INSERT INTO sync_outbox (trip_id, kind, local_id, hlc)
                SELECT ?1, ?3, ?1, ?2 WHERE EXISTS (SELECT 1 FROM purchases WHERE trip_id = ?1)
                """, [id, .integer(hlc), .text(PurchaseSnapshot.kind)])
            try db.run(
                """
                INSERT INTO sync_outbox (trip_id, kind, local_id, hlc)
                SELECT trip_id, 'transfer', id, ?2 FROM transfers WHERE trip_id = ?1 ORDER BY id
                """, [id, .integer(hlc)])
            return SharedTrip(trip: trip, gid: gid, owner: owner, pulledSeq: 0, lastSync: nil, unsent: try unsent(tripID: trip.id))
        }
    }

    /// `trip join`: creates the local trip from its shared `trip` change and marks it shared, so
    /// the first pull fills it. A local trip of the same name is refused.
    public func createJoinedTrip(_ change: SyncChange, owner: String) throws -> Trip {
        try syncTransaction {
            try withApplying {
                let name = try db.scalarText("SELECT json_extract(?, '$.name')", [SQLValue(change.payload)]) ?? ""
                try requireNewTripName(name)
                try installSyncTriggers()
                let id = try nextID(.trips)
                try RowCodec(db: db).write(.trips, id: id, payload: change.payload ?? "{}", fixed: [])
                try db.run("INSERT INTO shared_trips (trip_id, gid, owner) VALUES (?, ?, ?)", [.integer(id), .text(change.gid), .text(owner)])
                try db.run(
                    "INSERT INTO sync_rows (kind, local_id, gid, trip_id, hlc, device, base_hlc) VALUES ('trip', ?, ?, ?, ?, ?, ?)",
                    [.integer(id), .text(change.gid), .integer(id), .integer(change.hlc), .text(change.device), .integer(change.baseHLC)])
                return try trip(id: id)!
            }
        }
    }

    /// The trip's net total in its home currency, as `trip report` sums it (refunds and credits
    /// negative, unconverted purchases left out), in one pass over a covering index: a sync
    /// reports how it moved the total without the cost of a whole report.
    public func netTotal(_ shared: SharedTrip) throws -> Int64 {
        try purchaseStore.netHomeTotal(trip: shared.trip.id)
    }

    // MARK: push

    /// Turns every local change of the trip not yet prepared into a `SyncChange` (its id, op and
    /// payload fixed from now on) and returns every prepared change not yet acknowledged, in an
    /// order the receiver can apply (trip, members, purchases, transfers; a refund after its
    /// purchase). One transaction.
    public func prepareOutgoing(_ shared: SharedTrip) throws -> [SyncChange] {
        MemberIDMemo.shared.clear()
        return try syncTransaction {
            let trip = SQLValue.integer(shared.trip.id)
            // Several writes to one row before a sync travel as one change: the row as it is now.
            try db.run(
                """
                DELETE FROM sync_outbox WHERE trip_id = ?1 AND change_id IS NULL AND id < (
                  SELECT max(o.id) FROM sync_outbox o
                  WHERE o.trip_id = ?1 AND o.change_id IS NULL AND o.kind = sync_outbox.kind AND o.local_id = sync_outbox.local_id)
                """, [trip])
            let me = try deviceID()
            // Changes an earlier sync prepared and the server has not acknowledged: sent again as
            // they were.
            var out: [(order: OutgoingOrder, change: SyncChange)] = []
            try db.prepare(
                """
                SELECT \(OutgoingColumn.sqlList) FROM sync_outbox WHERE trip_id = ? AND change_id IS NOT NULL
                """
            ).forEach([trip]) { statement in
                let s = statement.row(OutgoingColumn.self)
                var change = SyncChange(
                    changeID: s.text(.changeID), kind: s.text(.kind), gid: s.text(.gid), op: s.text(.op), hlc: s.int(.hlc),
                    baseHLC: s.int(.baseHLC), device: me, payload: s.optionalText(.payload))
                change.pastClose = s.int(.pastClose) == 1
                out.append((Ledger.outgoingOrder(change.kind, s.int(.localID), s.int(.outboxID)), change))
            }
            var pending: [(id: Int64, kind: String, localID: Int64, hlc: Int64, pastClose: Bool)] = []
            try db.prepare(
                """
                SELECT id, kind, local_id, hlc, past_close FROM sync_outbox WHERE trip_id = ? AND change_id IS NULL ORDER BY id
                """
            ).forEach([trip]) { pending.append(($0.int(0), $0.text(1), $0.int(2), $0.int(3), $0.int(4) == 1)) }
            // The snapshot first: it gives the purchases the versions later changes are built on.
            for p in pending where p.kind == PurchaseSnapshot.kind {
                var change = try prepareSnapshot(shared, hlc: p.hlc, device: me)
                try db.run(
                    "UPDATE sync_outbox SET change_id = ?, gid = ?, op = ?, base_hlc = ?, payload = ? WHERE id = ?",
                    [.text(change.changeID), .text(change.gid), .text(change.op), .integer(0), SQLValue(change.payload), .integer(p.id)])
                change.pastClose = p.pastClose
                out.append((Ledger.outgoingOrder(p.kind, 0, p.id), change))
            }
            out += try preparePurchases(shared, device: me)
            for p in pending where p.kind != "purchase" && p.kind != PurchaseSnapshot.kind {
                guard var change = try prepare(kind: p.kind, localID: p.localID, hlc: p.hlc, shared: shared, device: me) else {
                    try db.run("DELETE FROM sync_outbox WHERE id = ?", [.integer(p.id)])
                    continue
                }
                try db.run(
                    "UPDATE sync_outbox SET change_id = ?, gid = ?, op = ?, base_hlc = ?, payload = ? WHERE id = ?",
                    [
                        .text(change.changeID), .text(change.gid), .text(change.op), .integer(change.baseHLC),
                        SQLValue(change.payload), .integer(p.id),
                    ])
                change.pastClose = p.pastClose
                out.append((Ledger.outgoingOrder(p.kind, p.localID, p.id), change))
            }
            out.sort { $0.order < $1.order }
            return out.map(\.change) + (try outgoingRates(shared, device: me))
        }
    }

    /// Where a change goes in a push: in an order the receiver can apply (trip, members,
    /// purchases, transfers; within a kind by local id, so a refund follows its purchase), then
    /// in the order of the outbox.
    typealias OutgoingOrder = (rank: Int, localID: Int64, outboxID: Int64)

    static func outgoingOrder(_ kind: String, _ localID: Int64, _ outboxID: Int64) -> OutgoingOrder {
        let rank =
            switch kind {
            case "trip": 0
            case "member": 1
            // A snapshot (local id 0) goes before the changes of its purchases.
            case "purchase", PurchaseSnapshot.kind: 2
            default: 3
            }
        return (rank, localID, outboxID)
    }

    /// `prepare` for every waiting purchase change of the trip at once: a first share prepares
    /// every purchase, so global ids, clocks and references are read and written by a few
    /// statements for them all, and each purchase costs one read of its row and one outbox update.
    private func preparePurchases(_ shared: SharedTrip, device: String) throws -> [(order: OutgoingOrder, change: SyncChange)] {
        let trip = SQLValue.integer(shared.trip.id)
        // Global ids for the purchases (and the purchases they refund) that have none yet.
        try giveGlobalIDs(
            """
            SELECT x.id FROM (
              SELECT o.local_id AS id FROM sync_outbox o WHERE o.trip_id = ?1 AND o.change_id IS NULL AND o.kind = 'purchase'
              UNION SELECT p.refund_of FROM sync_outbox o JOIN purchases p ON p.id = o.local_id
              WHERE o.trip_id = ?1 AND o.change_id IS NULL AND o.kind = 'purchase' AND p.refund_of IS NOT NULL) x
            WHERE NOT EXISTS (SELECT 1 FROM sync_rows r WHERE r.kind = 'purchase' AND r.local_id = x.id) ORDER BY x.id
            """, shared)
        var waiting:
            [(
                outbox: Int64, localID: Int64, hlc: Int64, pastClose: Bool, gid: String, base: Int64, deleted: Int64,
                restored: Int64, refundOf: String?, payers: String?, shares: String?
            )] = []
        try db.prepare(
            """
            SELECT \(WaitingPurchaseColumn.sqlList)
            FROM sync_outbox o
            JOIN sync_rows r ON r.kind = 'purchase' AND r.local_id = o.local_id
            LEFT JOIN purchases p ON p.id = o.local_id
            LEFT JOIN sync_rows rg ON rg.kind = 'purchase' AND rg.local_id = p.refund_of
            LEFT JOIN purchase_splits s ON s.purchase_id = p.id AND s.trip_id = ?1
            WHERE o.trip_id = ?1 AND o.change_id IS NULL AND o.kind = 'purchase' ORDER BY o.id
            """
        ).forEach([trip]) { statement in
            let r = statement.row(WaitingPurchaseColumn.self)
            waiting.append(
                (
                    r.int(.outboxID), r.int(.localID), r.int(.hlc), r.int(.pastClose) == 1, r.text(.gid), r.int(.versionHLC),
                    r.int(.deletedHLC),
                    r.int(.restoredHLC), r.optionalText(.refundGID), r.optionalText(.payers),
                    r.optionalText(.shares)
                ))
        }
        var columns: [Int64: String] = [:]
        try RowCodec(db: db).forEach(.purchases, .waitingPurchases, trip, without: Ledger.purchaseLocalColumns) { columns[$0] = $1 }
        var prepared: [(order: OutgoingOrder, change: SyncChange)] = []
        prepared.reserveCapacity(waiting.count)
        for w in waiting {
            let payload = try columns[w.localID].map {
                try purchasePayload(columns: $0, refundGID: w.refundOf, payers: w.payers, shares: w.shares, shared: shared)
            }
            let op = payload == nil ? "delete" : w.deleted > w.restored ? "restore" : "put"
            // The version the row now has here: this change's clock, built on the one before.
            try db.run(
                """
                UPDATE sync_rows SET
                  deleted_hlc = CASE WHEN ?3 = 'delete' THEN max(deleted_hlc, ?2) ELSE deleted_hlc END,
                  restored_hlc = CASE WHEN ?3 = 'restore' THEN max(restored_hlc, ?2) ELSE restored_hlc END,
                  hlc = ?2, device = ?4, base_hlc = hlc
                WHERE kind = 'purchase' AND local_id = ?1
                """, [.integer(w.localID), .integer(w.hlc), .text(op), .text(device)])
            var change = SyncChange(
                changeID: GlobalID.make(), kind: "purchase", gid: w.gid, op: op, hlc: w.hlc, baseHLC: w.base, device: device, payload: payload)
            change.pastClose = w.pastClose
            try db.run(
                "UPDATE sync_outbox SET change_id = ?, gid = ?, op = ?, base_hlc = ?, payload = ? WHERE id = ?",
                [.text(change.changeID), .text(w.gid), .text(op), .integer(w.base), SQLValue(payload), .integer(w.outbox)])
            prepared.append((Ledger.outgoingOrder("purchase", w.localID, w.outbox), change))
        }
        return prepared
    }

    /// Gives a global id to each purchase `select` names (by id; `?1` is the trip), in id order so
    /// that the ids, which are in the order made, grow with the rows; `version`: the clock and
    /// device of the version those purchases have from now on.
    private func giveGlobalIDs(_ select: String, _ shared: SharedTrip, version: (hlc: Int64, device: String)? = nil) throws {
        var missing: [Int64] = []
        try db.prepare(select).forEach([.integer(shared.trip.id)]) { missing.append($0.int(0)) }
        var device = version?.device ?? ""
        var bound = PackedValues()
        for id in missing {
            var gid = GlobalID.make()
            bound.appendInteger(id)
            gid.withUTF8 { bound.appendText($0) }
            bound.appendInteger(shared.trip.id)
            bound.appendInteger(version?.hlc ?? 0)
            device.withUTF8 { bound.appendText($0) }
        }
        try Ledger.purchaseVersions(db).insert(bound, width: 5, rows: 0..<missing.count)
    }

    /// Purchases' global ids and versions, many at a time: rows of their local id, global id,
    /// trip, clock and device.
    private static func purchaseVersions(_ db: Database) -> BatchInsert {
        BatchInsert(
            db: db, prefix: "INSERT OR FAIL INTO sync_rows (kind, local_id, gid, trip_id, hlc, device) VALUES ", row: "('purchase', ?, ?, ?, ?, ?)")
    }

    /// The change of a first share's purchases (`PurchaseSnapshot`): every purchase of the trip as
    /// it is now, each at version `hlc` of this device, with its references by global id.
    private func prepareSnapshot(_ shared: SharedTrip, hlc: Int64, device: String) throws -> SyncChange {
        let trip = SQLValue.integer(shared.trip.id)
        try giveGlobalIDs(
            """
            SELECT p.id FROM purchases p WHERE p.trip_id = ?1
            AND NOT EXISTS (SELECT 1 FROM sync_rows r WHERE r.kind = 'purchase' AND r.local_id = p.id) ORDER BY p.id
            """, shared, version: (hlc, device))
        // Purchases that had a global id already, without a version.
        try db.run(
            "UPDATE sync_rows SET hlc = ?2, device = ?3 WHERE kind = 'purchase' AND trip_id = ?1 AND hlc = 0",
            [trip, .integer(hlc), .text(device)])
        let codec = RowCodec(db: db)
        let columns = try codec.columns(.purchases, without: Ledger.purchaseLocalColumns)
        let count = try purchaseStore.count(trip: shared.trip.id)
        // About 340 bytes a purchase.
        var writer = PurchaseSnapshot.Writer(
            count: count, columns: columns + ["refund_of", "payers", "shares"], capacity: count * 360 + 1024)
        var list: [UInt8] = []
        try codec.forEach(
            .purchases, .tripPurchasesWithVersions, trip, without: Ledger.purchaseLocalColumns, shape: .array, with: SnapshotPurchaseColumn.self
        ) { _, array, r in
            r.withBytes(.gid) { writer.beginRow(gid: $0, hlc: r.int(.hlc), array: array) }
            if r.isNull(.refundGID) { writer.append(text: nil) } else { r.withBytes(.refundGID) { writer.append(text: $0) } }
            for column in SnapshotPurchaseColumn.memberLists {
                guard !r.isNull(column) else {
                    writer.append(text: nil)
                    continue
                }
                list.removeAll(keepingCapacity: true)
                try r.withBytes(column) { try appendMemberList($0, toGlobal: true, shared: shared, to: &list) }
                list.withUnsafeBufferPointer { writer.append(text: $0) }
            }
            writer.endRow()
        }
        return SyncChange(
            changeID: GlobalID.make(), kind: PurchaseSnapshot.kind, gid: "\(PurchaseSnapshot.kind):\(shared.gid)", op: "put", hlc: hlc,
            baseHLC: 0, device: device, payload: try writer.finish())
    }

    /// The cached rates not sent yet for this trip (fetched at or after the last sent: a rate
    /// sent twice is kept once), those in or into its currencies, from a month before its first
    /// purchase. Their change ids are their content, so a rate sent twice (or by two devices that
    /// fetched the same observation at the same moment) is kept once.
    private func outgoingRates(_ shared: SharedTrip, device: String) throws -> [SyncChange] {
        var out: [SyncChange] = []
        try rateStore.forEachUnsentObservation(trip: shared.trip.id) { o, fetchedAt, payload in
            let key = "\(o.provider):\(o.base):\(o.quote):\(o.date)"
            out.append(
                SyncChange(
                    changeID: "rate:\(key):\(fetchedAt)", kind: "rate", gid: "rate:\(key)", op: "put", hlc: 0,
                    baseHLC: 0, device: device, payload: payload))
        }
        // Rates set by hand in or into the trip's currencies, every time: a handful, and the server
        // keeps each version once (its change id names the version).
        for v in try rateStore.manualRates(touchingTrip: shared.trip.id) {
            let key = "\(v.rate.base.code):\(v.rate.quote.code):\(v.rate.date)"
            let payload = JSONValue.object([
                "base": .string(v.rate.base.code), "quote": .string(v.rate.quote.code), "date": .string(v.rate.date.description),
                "rate": .string(v.rate.rate), "created_at": .string(v.createdAt), "hlc": .int(v.hlc), "device": .string(v.device),
            ])
            out.append(
                SyncChange(
                    changeID: "manual_rate:\(key):\(v.hlc):\(v.device)", kind: "manual_rate", gid: "manual_rate:\(key)", op: "put",
                    hlc: v.hlc, baseHLC: 0, device: device, payload: payload.serialized))
        }
        // The newest date each provider has published decides whether a rate is still
        // provisional; it travels with the rates so every device decides alike.
        try rateStore.forEachPublishedState { provider, url, latestDate, payload in
            out.append(
                SyncChange(
                    changeID: "provider:\(provider):\(url):\(latestDate)", kind: "provider", gid: "provider:\(provider):\(url)",
                    op: "put", hlc: 0, baseHLC: 0, device: device, payload: payload))
        }
        return out
    }

    /// The server has every change in `changes`: they leave the outbox. One transaction. When
    /// they were numbered right after what this device had pulled, the log is read through
    /// `pulledThrough`: those changes are this device's own, already here.
    public func markSent(_ shared: SharedTrip, _ changes: [SyncChange], pulledThrough: Int64? = nil) throws {
        try syncTransaction {
            let trip = SQLValue.integer(shared.trip.id)
            var sentThrough: String?
            var rows: [JSONValue] = []
            for c in changes {
                switch c.kind {
                case "rate":
                    // The change id is `rate:PROVIDER:BASE:QUOTE:DATE:FETCHED_AT`.
                    let fetched = String(c.changeID.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false).last ?? "")
                    sentThrough = max(sentThrough ?? fetched, fetched)
                case "provider", "manual_rate": continue
                default: rows.append(.string(c.changeID))
                }
            }
            // One statement for a first share's tens of thousands of changes.
            let sent = SQLValue.text(JSONValue.array(rows).serialized)
            // Everything waiting was sent (a first share, or a device that syncs every trip): a
            // DELETE without a WHERE clause frees the table's pages instead of rewriting each one,
            // and with `secure_delete` at FAST (Debian's SQLite builds it ON) it does not zero them
            // either. The payloads freed are copies of rows that stay in the ledger.
            let waiting = try db.scalarInt("SELECT count(*) FROM sync_outbox") ?? 0
            var onlySent = waiting > 0 && waiting <= rows.count
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
            if let pulledThrough {
                try db.run("UPDATE shared_trips SET pulled_seq = max(pulled_seq, ?) WHERE trip_id = ?", [.integer(pulledThrough), trip])
            }
            if let sentThrough {
                try db.run(
                    "UPDATE shared_trips SET rates_sent = max(coalesce(rates_sent, ''), ?) WHERE trip_id = ?",
                    [.text(sentThrough), trip])
            }
        }
    }

    // MARK: pull

    /// Applies changes pulled from the server, in their order, and records that the log is
    /// applied up to `upTo`; then re-rates the trip with the rates it now has. One transaction: a
    /// pull killed halfway applies nothing and is simply repeated.
    public func applyIncoming(_ shared: SharedTrip, _ changes: [SyncChange], upTo: Int64) throws -> PullSummary {
        try syncTransaction {
            try withApplying {
                var summary = PullSummary()
                let me = try deviceID()
                MemberIDMemo.shared.clear()
                // The clock moves past every clock received.
                try db.run("UPDATE sync_state SET hlc = max(hlc, ?)", [.integer(changes.map(\.hlc).max() ?? 0)])
                for c in changes {
                    if c.device == me && !SyncChange.rateKinds.contains(c.kind) { continue }
                    switch c.kind {
                    case "rate":
                        try rateStore.receiveObservation(payload: c.payload)
                        summary.rates += 1
                    case "provider":
                        try rateStore.receiveProviderState(payload: c.payload, receivedAt: clock.now)
                    case "manual_rate":
                        if try receiveManualRate(payload: c.payload ?? "{}") { summary.rates += 1 }
                    case "trip", "member", "purchase", "transfer":
                        if try applyRow(c, shared: shared) { summary.conflicts += 1 }
                        summary.applied += 1
                        summary.byAuthor[c.author, default: 0] += 1
                    case PurchaseSnapshot.kind:
                        let applied = try applySnapshot(c, shared: shared)
                        summary.conflicts += applied.conflicts
                        summary.applied += applied.rows
                        summary.byAuthor[c.author, default: 0] += applied.rows
                    default:
                        continue  // a kind from a newer trip: skipped, as a newer column is
                    }
                }
                try db.run(
                    "UPDATE shared_trips SET pulled_seq = max(pulled_seq, ?), last_sync = ? WHERE trip_id = ?",
                    [.integer(upTo), .text(clock.now), .integer(shared.trip.id)])
                if !changes.isEmpty, try trip(id: shared.trip.id)?.closedAt == nil {
                    _ = try rerate(tripID: shared.trip.id)
                }
                return summary
            }
        }
    }

    /// Changes the server did not take because another device closed the trip: each waits in
    /// `trip conflicts` (`resolve --keep mine` sends it anyway), and its row goes back to the
    /// server's version, so this ledger shows what every other device shows. One transaction;
    /// the held changes leave the outbox.
    public func holdClosedElsewhere(_ shared: SharedTrip, _ held: [SyncChange], serverVersions: [ServerVersion], closedBy: String) throws {
        let versions = Dictionary(serverVersions.map { ($0.gid, $0) }, uniquingKeysWith: { first, _ in first })
        let tripID = SQLValue.integer(shared.trip.id)
        try db.transaction {
            try withApplying {
                MemberIDMemo.shared.clear()
                // Rows that refer to others first: transfers and purchases (a refund before its
                // purchase) before the members they name.
                for c in held.reversed() {
                    guard let table = RowCodec.Table(kind: c.kind), let id = try localID(kind: c.kind, gid: c.gid) else { continue }
                    let theirs = versions[c.gid]
                    try db.run("DELETE FROM sync_outbox WHERE trip_id = ? AND kind = ? AND local_id = ?", [tripID, .text(c.kind), .integer(id)])
                    try db.run(
                        """
                        INSERT INTO sync_conflicts (trip_id, kind, gid, local_id, reason, winner, mine, mine_hlc, theirs, theirs_hlc,
                                                    theirs_by, created_at)
                        VALUES (?, ?, ?, ?, ?, 'theirs', ?, ?, ?, ?, ?, ?)
                        """,
                        [
                            tripID, .text(c.kind), .text(c.gid), .integer(id), .text(SyncConflict.closedElsewhere), SQLValue(c.payload),
                            .integer(c.hlc), SQLValue(theirs?.payload), .integer(theirs?.hlc ?? 0), .text(closedBy), .text(clock.now),
                        ])
                    if let payload = theirs?.payload {
                        try writeRow(table, id: id, payload: payload, shared: shared, fromTrash: table == .purchases)
                    } else {
                        // A row the others do not have leaves this ledger too; the conflict keeps it.
                        // One still named by a row kept here stays.
                        try? db.transaction {
                            if table == .purchases { try splitStore.deleteAny(purchase: id) }
                            try db.run(table.deleteByID, [.integer(id)])
                        }
                    }
                    try db.run(
                        """
                        UPDATE sync_rows SET hlc = ?1, device = ?2, base_hlc = ?1,
                          deleted_hlc = CASE WHEN deleted_hlc = ?3 THEN 0 ELSE deleted_hlc END,
                          restored_hlc = CASE WHEN restored_hlc = ?3 THEN 0 ELSE restored_hlc END
                        WHERE kind = ?4 AND local_id = ?5
                        """, [.integer(theirs?.hlc ?? 0), .text(theirs?.device ?? ""), .integer(c.hlc), .text(c.kind), .integer(id)])
                }
                if try trip(id: shared.trip.id)?.closedAt == nil { _ = try rerate(tripID: shared.trip.id) }
            }
        }
    }

    /// Records a sync that found nothing to pull.
    public func markSynced(_ shared: SharedTrip) throws {
        try db.transaction {
            try db.run("UPDATE shared_trips SET last_sync = ? WHERE trip_id = ?", [.text(clock.now), .integer(shared.trip.id)])
        }
    }

    // MARK: conflicts

    /// Every conflict of every shared trip (open ones first).
    public func conflicts(includeResolved: Bool = false) throws -> [SyncConflict] {
        var out: [SyncConflict] = []
        try db.prepare(
            """
            SELECT \(ConflictColumn.sqlList)
            FROM sync_conflicts c JOIN trips t ON t.id = c.trip_id
            WHERE ?1 = 1 OR c.resolved_at IS NULL ORDER BY c.resolved_at IS NOT NULL, c.id
            """
        ).forEach([.integer(includeResolved ? 1 : 0)]) { statement in
            let s = statement.row(ConflictColumn.self)
            out.append(
                SyncConflict(
                    id: s.int(.id), trip: s.text(.trip), kind: s.text(.kind), localID: s.int(.localID), reason: s.text(.reason),
                    winner: s.text(.winner), mine: s.optionalText(.mine), theirs: s.optionalText(.theirs),
                    theirsBy: s.text(.theirsBy), createdAt: s.text(.createdAt), resolvedAt: s.optionalText(.resolvedAt)))
        }
        return out
    }

    /// `trip resolve ID --keep mine|theirs`: the kept version is written again as a new local
    /// change (so it wins on every device at the next sync), and the conflict is closed.
    public func resolveConflict(_ idText: String, keepMine: Bool) throws -> SyncConflict {
        let id = try Ledger.parseID(idText)
        MemberIDMemo.shared.clear()
        return try db.transaction {
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
                let local = try db.prepare("SELECT local_id FROM sync_rows WHERE kind = ? AND local_id = ?")
                    .first([.text(c.kind), .integer(c.localID)]) { $0.int(0) }
                let alive = try RowCodec(db: db).read(table, id: c.localID) != nil
                // An edit the removal won over comes back from the trash, and travels as a restore.
                let inTrash =
                    try !alive && table == .purchases
                    && purchaseStore.trashedTrip(of: c.localID) != nil
                if local != nil, alive || inTrash {
                    if inTrash { try requireOpen(shared.trip) }
                    try writeRow(table, id: c.localID, payload: keep, shared: shared, fromTrash: inTrash)
                }
            }
            try db.run("UPDATE sync_conflicts SET resolved_at = ?, winner = ? WHERE id = ?", [.text(clock.now), .text(kept), .integer(id)])
            return try conflicts(includeResolved: true).first { $0.id == id }!
        }
    }

    /// `trip resolve ID --keep mine` of a change that waited because another device closed the
    /// trip: the change is written here again, as a local change marked to be sent all the same.
    private func sendPastClose(_ c: SyncConflict) throws {
        guard let table = RowCodec.Table(kind: c.kind), let shared = try sharedTrips().first(where: { $0.trip.name == c.trip }) else { return }
        let id = SQLValue.integer(c.localID)
        if let mine = c.mine {
            try writeRow(table, id: c.localID, payload: mine, shared: shared, fromTrash: table == .purchases)
        } else if let row = try RowCodec(db: db).read(table, id: c.localID) {
            if table == .purchases {
                try purchaseStore.putInTrash(id: c.localID, trip: shared.trip.id, removedAt: clock.now, row: row)
                try splitStore.deleteAny(purchase: c.localID)
            }
            try db.run(table.deleteByID, [id])
        }
        try db.run(
            "UPDATE sync_outbox SET past_close = 1 WHERE trip_id = ? AND kind = ? AND local_id = ? AND change_id IS NULL",
            [.integer(shared.trip.id), .text(c.kind), id])
    }

    // MARK: internals

    /// The transaction of a share, a push's preparation or a pull. Each row they write is a
    /// statement of its own on a table with triggers, for which SQLite keeps a statement journal
    /// of the pages the statement changes: in a temporary file by default, one write per page per
    /// statement (about 85,000 writes for a join of 20,000 purchases). Here it is kept in memory;
    /// each holds a few pages, and the largest statement, a pull's re-rating, one trip's.
    func syncTransaction<T>(_ body: () throws -> T) throws -> T {
        try db.execute("PRAGMA temp_store = MEMORY")
        defer { try? db.execute("PRAGMA temp_store = DEFAULT") }
        return try db.transaction(body)
    }

    /// Advances the hybrid logical clock and returns it.
    func tick() throws -> Int64 {
        try db.run("UPDATE sync_state SET hlc = max(hlc + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536)")
        return try db.scalarInt("SELECT hlc FROM sync_state") ?? 0
    }

    /// Runs `body` with the outbox triggers silent (a pull, a re-rate: not local changes), and
    /// puts the previous state back, so it nests.
    func withApplying<T>(_ body: () throws -> T) throws -> T {
        let previous = try db.scalarInt("SELECT applying FROM sync_state") ?? 0
        try db.run("UPDATE sync_state SET applying = 1")
        let result = try body()
        try db.run("UPDATE sync_state SET applying = ?", [.integer(previous)])
        return result
    }

    /// The global id of a row, given one the first time it is asked for.
    func globalID(kind: String, localID: Int64, shared: SharedTrip) throws -> String {
        if let gid = try db.scalarText("SELECT gid FROM sync_rows WHERE kind = ? AND local_id = ?", [.text(kind), .integer(localID)]) {
            return gid
        }
        let gid: String
        switch kind {
        case "trip": gid = shared.gid
        case "member":
            let name = try memberStore.name(of: localID) ?? "#\(localID)"
            gid = GlobalID.member(trip: shared.gid, name: name)
        default: gid = GlobalID.make()
        }
        try db.run(
            "INSERT INTO sync_rows (kind, local_id, gid, trip_id) VALUES (?, ?, ?, ?)",
            [.text(kind), .integer(localID), .text(gid), .integer(shared.trip.id)])
        return gid
    }

    private func localID(kind: String, gid: String) throws -> Int64? {
        try db.prepare("SELECT local_id FROM sync_rows WHERE kind = ? AND gid = ?").first([.text(kind), .text(gid)]) { $0.int(0) }
    }

    /// One outbox entry as the change that will travel, or `nil` when there is nothing to send.
    private func prepare(kind: String, localID: Int64, hlc: Int64, shared: SharedTrip, device: String) throws -> SyncChange? {
        guard let table = RowCodec.Table(kind: kind) else { return nil }
        let gid = try globalID(kind: kind, localID: localID, shared: shared)
        let state =
            try db.prepare("SELECT hlc, deleted_hlc, restored_hlc FROM sync_rows WHERE kind = ? AND local_id = ?")
            .first([.text(kind), .integer(localID)]) { ($0.int(0), $0.int(1), $0.int(2)) } ?? (0, 0, 0)
        let payload = try travellingPayload(kind: kind, localID: localID, table: table, shared: shared)
        let op: String
        if payload == nil {
            // A trip removed here only leaves the share; it is not removed for the others.
            if kind == "trip" { return nil }
            op = "delete"
            try db.run(
                "UPDATE sync_rows SET deleted_hlc = max(deleted_hlc, ?) WHERE kind = ? AND local_id = ?",
                [.integer(hlc), .text(kind), .integer(localID)])
        } else if state.1 > state.2 {
            op = "restore"
            try db.run(
                "UPDATE sync_rows SET restored_hlc = max(restored_hlc, ?) WHERE kind = ? AND local_id = ?",
                [.integer(hlc), .text(kind), .integer(localID)])
        } else {
            op = "put"
        }
        try db.run(
            "UPDATE sync_rows SET hlc = ?, device = ?, base_hlc = ? WHERE kind = ? AND local_id = ?",
            [.integer(hlc), .text(device), .integer(state.0), .text(kind), .integer(localID)])
        return SyncChange(changeID: GlobalID.make(), kind: kind, gid: gid, op: op, hlc: hlc, baseHLC: state.0, device: device, payload: payload)
    }

    /// The row as it travels: every column by name, without its local ids, and with references
    /// to other rows by their global ids (a purchase's payers and split, a refund's purchase, a
    /// transfer's members).
    private func travellingPayload(kind: String, localID: Int64, table: RowCodec.Table, shared: SharedTrip) throws -> String? {
        if kind == "purchase" {
            // Two statements, not four: a first share reads every purchase of the trip. The keys
            // come in the order they always had (the row's columns, then refund_of, payers, shares).
            let references = try purchaseStore.references(of: localID, trip: shared.trip.id)
            guard let (refundOf, payers, shares) = references,
                let columns = try RowCodec(db: db).read(.purchases, id: localID, without: Ledger.purchaseLocalColumns)
            else { return nil }
            return try purchasePayload(
                columns: columns, refundGID: try refundOf.map { try globalID(kind: "purchase", localID: $0, shared: shared) },
                payers: payers, shares: shares, shared: shared)
        }
        guard let row = try RowCodec(db: db).read(table, id: localID) else { return nil }
        switch kind {
        case "transfer":
            let ends =
                try transferStore.ends(of: localID) ?? (0, 0)
            return try db.scalarText(
                """
                SELECT json_set(json_remove(?1, '$.id', '$.trip_id'), '$.from_member', ?2, '$.to_member', ?3)
                """,
                [
                    .text(row), .text(GlobalID.memberReference(try globalID(kind: "member", localID: ends.0, shared: shared), trip: shared.gid)),
                    .text(GlobalID.memberReference(try globalID(kind: "member", localID: ends.1, shared: shared), trip: shared.gid)),
                ])
        case "member":
            return try db.scalarText("SELECT json_remove(?1, '$.id', '$.trip_id')", [.text(row)])
        default:
            return try db.scalarText("SELECT json_remove(?1, '$.id')", [.text(row)])
        }
    }

    /// A purchase as it travels, from its columns (`RowCodec` without `purchaseLocalColumns`) and its
    /// references already looked up: every column but its local ids, then the refunded purchase's
    /// global id and the payers and split with global member ids (in that order, which every
    /// device writes alike).
    private func purchasePayload(columns: String, refundGID: String?, payers: String?, shares: String?, shared: SharedTrip) throws -> String {
        var out = Array(columns.utf8)
        guard out.last == UInt8(ascii: "}") else { return columns }
        out.removeLast()
        let added: [(String, String?)] = [
            ("refund_of", refundGID), ("payers", try payers.map { try memberList($0, toGlobal: true, shared: shared) }),
            ("shares", try shares.map { try memberList($0, toGlobal: true, shared: shared) }),
        ]
        for (key, value) in added {
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            JSONValue.string(key).write(to: &out)
            out.append(UInt8(ascii: ":"))
            (value.map { JSONValue.string($0) } ?? .null).write(to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// A purchase's columns that do not travel: its local ids, and the refunded purchase's, which
    /// travels as a global id.
    private static let purchaseLocalColumns: Set<String> = ["id", "trip_id", "import_key", "refund_of"]

    /// A `MEMBER=WEIGHT,…` list (payers or shares) with each member's local id turned into the
    /// reference that travels (`toGlobal`), or back.
    private func memberList(_ text: String, toGlobal: Bool, shared: SharedTrip) throws -> String {
        guard !text.isEmpty else { return text }
        var text = text
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 2)
        try text.withUTF8 { try appendMemberList($0, toGlobal: toGlobal, shared: shared, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `memberList` of UTF-8 bytes, appended to `out`: a first share and a join translate two
    /// lists for each of tens of thousands of purchases, each member looked up once.
    private func appendMemberList(_ list: UnsafeBufferPointer<UInt8>, toGlobal: Bool, shared: SharedTrip, to out: inout [UInt8]) throws {
        try MemberIDMemo.shared.translate(list, toGlobal: toGlobal, to: &out) { who in
            if toGlobal {
                return GlobalID.memberReference(try globalID(kind: "member", localID: Int64(who) ?? 0, shared: shared), trip: shared.gid)
            }
            guard let local = try localID(kind: "member", gid: GlobalID.memberGID(who, trip: shared.gid)) else {
                throw TripError.badText(field: "member", reason: "a shared purchase names an unknown member \(quoted(who))")
            }
            return String(local)
        }
    }

    /// The local values of a travelling row's references: its trip, and per kind its members or
    /// the purchase it refunds.
    private func localReferences(kind: String, payload: String, shared: SharedTrip) throws -> [(String, SQLValue)] {
        let trip: (String, SQLValue) = ("trip_id", .integer(shared.trip.id))
        func member(_ path: String) throws -> SQLValue {
            let reference = try db.scalarText("SELECT json_extract(?, ?)", [.text(payload), .text(path)]) ?? ""
            guard let id = try localID(kind: "member", gid: GlobalID.memberGID(reference, trip: shared.gid)) else {
                throw TripError.badText(field: "member", reason: "a shared transfer names an unknown member \(quoted(reference))")
            }
            return .integer(id)
        }
        switch kind {
        case "trip": return []
        case "member": return [trip]
        case "transfer": return [trip, ("from_member", try member("$.from_member")), ("to_member", try member("$.to_member"))]
        default:
            let refunded = try payloadTexts(payload, "refund_of")[0]
            return [trip, ("refund_of", SQLValue(try refunded.flatMap { try localID(kind: "purchase", gid: $0) }))]
        }
    }

    /// Writes a travelling row here: its columns with this ledger's references, a purchase's
    /// payers and split, and, `fromTrash`, takes it out of the trash. `new`: the id was never used.
    private func writeRow(_ table: RowCodec.Table, id: Int64, payload: String, shared: SharedTrip, new: Bool = false, fromTrash: Bool = false)
        throws
    {
        if fromTrash { try purchaseStore.removeFromTrash(id: id) }
        try RowCodec(db: db).write(table, id: id, payload: payload, fixed: try localReferences(kind: table.kind, payload: payload, shared: shared))
        if table == .purchases { try writeSplits(payload: payload, purchaseID: id, shared: shared, new: new) }
    }

    private func writeSplits(payload: String, purchaseID: Int64, shared: SharedTrip, new: Bool = false) throws {
        let parts = try payloadTexts(payload, "payers", "shares")
        if !new {
            try splitStore.delete(trip: shared.trip.id, purchase: purchaseID)
        }
        if var payers = parts[0], var shares = parts[1] {
            var row = PackedValues()
            try payers.withUTF8 { p in
                try shares.withUTF8 { try appendSplit(purchaseID: purchaseID, payers: p, shares: $0, shared: shared, to: &row) }
            }
            try splitStore.insert(row)
        }
    }

    /// Appends a `purchase_splits` row of a travelling purchase's payers and split to `bound`:
    /// the trip, the purchase, then both lists with this ledger's member ids.
    private func appendSplit(
        purchaseID: Int64, payers: UnsafeBufferPointer<UInt8>, shares: UnsafeBufferPointer<UInt8>, shared: SharedTrip,
        to bound: inout PackedValues
    ) throws {
        bound.appendInteger(shared.trip.id)
        bound.appendInteger(purchaseID)
        try bound.appendText { try appendMemberList(payers, toGlobal: false, shared: shared, to: &$0) }
        try bound.appendText { try appendMemberList(shares, toGlobal: false, shared: shared, to: &$0) }
    }

    /// A rate set by hand on another device (or this one, back from the server): merged into
    /// `manual_rates` (`mergeManualRate`). Returns whether it was one; a malformed one is skipped.
    private func receiveManualRate(payload: String) throws -> Bool {
        guard let fields = FlatJSON.fields(payload) else { return false }
        func text(_ key: String) -> String? {
            guard case .text(let value)? = fields.first(where: { $0.0 == key })?.1 else { return nil }
            return value
        }
        guard let base = text("base").flatMap(CurrencyTable.shared.lookup), let quote = text("quote").flatMap(CurrencyTable.shared.lookup),
            base != quote, let date = text("date").flatMap({ CivilDate(iso: $0) }),
            let rate = try? Ledger.validateRate(text("rate") ?? "", field: "rate"),
            let createdAt = text("created_at"), let device = text("device"),
            case .integer(let hlc)? = fields.first(where: { $0.0 == "hlc" })?.1
        else { return false }
        try rateStore.mergeManualRate(
            ManualRateVersion(rate: ManualRate(base: base, quote: quote, date: date, rate: rate), createdAt: createdAt, hlc: hlc, device: device))
        return true
    }

    /// The text values of `keys` in a travelling payload (`nil`: absent, null or not text), read
    /// in Swift when the payload is flat, by SQLite otherwise.
    private func payloadTexts(_ payload: String, _ keys: String...) throws -> [String?] {
        if let fields = FlatJSON.fields(payload) {
            return keys.map { key in
                guard let value = fields.first(where: { $0.0 == key })?.1, case .text(let text) = value else { return nil }
                return text
            }
        }
        return try keys.map { key in
            try db.scalarText("SELECT json_extract(?, '$.\"' || ? || '\"')", [.text(payload), .text(key)])
        }
    }

    /// The id a new row of `table` gets: above every id present or ever used.
    private func newLocalID(_ table: RowCodec.Table) throws -> Int64 {
        switch table {
        case .purchases: return try nextID(.purchases)
        case .trips: return try nextID(.trips)
        case .members:
            return try memberStore.highestIDEverUsed() + 1
        case .transfers:
            return try transferStore.highestIDEverUsed() + 1
        }
    }

    /// Applies one pulled change of a row. Returns whether it was a conflict.
    ///
    /// The rules, the same on every device whatever order the changes arrive in: of two versions
    /// of a row, the one with the later clock wins whole (ties: the larger device id); a delete
    /// wins over every edit, and only a restore (written after seeing the delete) undoes it.
    private func applyRow(_ c: SyncChange, shared: SharedTrip) throws -> Bool {
        guard let table = RowCodec.Table(kind: c.kind) else { return false }
        var local = try localID(kind: c.kind, gid: c.gid)
        if local == nil, c.kind == "member", let payload = c.payload,
            let same = try memberStore.id(trip: shared.trip.id, namedIn: payload)
        {
            // Added under the same name here too: one member. Its id stays; the global id is shared.
            try db.run("DELETE FROM sync_rows WHERE kind = 'member' AND local_id = ?", [.integer(same)])
            try db.run(
                "INSERT INTO sync_rows (kind, local_id, gid, trip_id) VALUES ('member', ?, ?, ?)",
                [.integer(same), .text(c.gid), .integer(shared.trip.id)])
            local = same
        }
        guard let id = local else {
            guard c.op != "delete", let payload = c.payload else { return false }
            if c.kind == "trip" { return false }
            let id = try newLocalID(table)
            try writeRow(table, id: id, payload: payload, shared: shared, new: true)
            try db.run(
                """
                INSERT INTO sync_rows (kind, local_id, gid, trip_id, hlc, device, base_hlc, restored_hlc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(c.kind), .integer(id), .text(c.gid), .integer(shared.trip.id), .integer(c.hlc), .text(c.device),
                    .integer(c.baseHLC), .integer(c.op == "restore" ? c.hlc : 0),
                ])
            return false
        }
        let state = try db.prepare("SELECT \(RowVersionColumn.sqlList) FROM sync_rows WHERE kind = ? AND local_id = ?")
            .first([.text(c.kind), .integer(id)]) { statement in
                let v = statement.row(RowVersionColumn.self)
                return (
                    hlc: v.int(.hlc), device: v.text(.device), base: v.int(.baseHLC), deleted: v.int(.deletedHLC),
                    restored: v.int(.restoredHLC)
                )
            }!
        // A local write not yet prepared is newer than what sync_rows says.
        let pendingHLC =
            try db.scalarInt(
                """
                SELECT max(hlc) FROM sync_outbox WHERE kind = ? AND local_id = ? AND change_id IS NULL
                """, [.text(c.kind), .integer(id)]) ?? 0
        let localHLC = max(state.hlc, pendingHLC)
        let localDevice = pendingHLC > state.hlc ? try deviceID() : state.device
        let alive = try db.scalarInt(table.existsByID, [.integer(id)]) != nil
        switch c.op {
        case "delete":
            try db.run(
                "UPDATE sync_rows SET deleted_hlc = max(deleted_hlc, ?) WHERE kind = ? AND local_id = ?",
                [.integer(c.hlc), .text(c.kind), .integer(id)])
            guard alive, c.hlc > state.restored else { return false }
            // Written without seeing the version here: an edit the delete wins over.
            let edited = table == .purchases && c.baseHLC != localHLC && localHLC != 0
            let mine = edited ? try travellingPayload(kind: c.kind, localID: id, table: table, shared: shared) : nil
            guard try removeLocally(table, id: id, shared: shared, change: c), let mine else { return false }
            try recordConflict(
                c, localID: id, shared: shared, reason: SyncConflict.removedWhileEdited, winner: "theirs", mine: (mine, localHLC), theirs: nil)
            return true
        case "restore":
            try db.run(
                "UPDATE sync_rows SET restored_hlc = max(restored_hlc, ?) WHERE kind = ? AND local_id = ?",
                [.integer(c.hlc), .text(c.kind), .integer(id)])
            if !alive, c.hlc > state.deleted, table == .purchases {
                try writeRow(table, id: id, payload: c.payload ?? "{}", shared: shared, fromTrash: true)
                try db.run(
                    "UPDATE sync_rows SET hlc = ?, device = ?, base_hlc = ? WHERE kind = ? AND local_id = ?",
                    [.integer(c.hlc), .text(c.device), .integer(c.baseHLC), .text(c.kind), .integer(id)])
                return false
            }
        default:
            break
        }
        guard let payload = c.payload else { return false }
        let incomingWins = c.hlc > localHLC || (c.hlc == localHLC && c.device > localDevice)
        // An edit of a purchase removed here was written without seeing the removal (after it,
        // the purchase is gone on that device too, and only a restore brings it back).
        let editOfRemoved = !alive && table == .purchases && c.op == "put"
        if editOfRemoved {
            try recordConflict(
                c, localID: id, shared: shared, reason: SyncConflict.removedWhileEdited, winner: "mine", mine: nil, theirs: (payload, c.hlc))
        }
        let concurrent = c.hlc != localHLC && c.baseHLC != localHLC && state.base != c.hlc && localHLC != 0
        var conflict = false
        if concurrent {
            let mine = alive ? try travellingPayload(kind: c.kind, localID: id, table: table, shared: shared) : nil
            if let mine, try db.scalarInt("SELECT json(?) = json(?)", [.text(mine), .text(payload)]) != 1 {
                try recordConflict(
                    c, localID: id, shared: shared, reason: "edited on two devices", winner: incomingWins ? "theirs" : "mine",
                    mine: (mine, localHLC), theirs: (payload, c.hlc))
                conflict = true
            }
        }
        guard incomingWins else { return conflict || editOfRemoved }
        if alive {
            try writeRow(table, id: id, payload: payload, shared: shared)
        } else if table == .purchases {
            // Deleted here: the edit is kept in the trash, so `trip restore` brings back the latest version.
            try purchaseStore.patchTrashed(id: id, columns: payload)
        }
        try db.run(
            "UPDATE sync_rows SET hlc = ?, device = ?, base_hlc = ? WHERE kind = ? AND local_id = ?",
            [.integer(c.hlc), .text(c.device), .integer(c.baseHLC), .text(c.kind), .integer(id)])
        return conflict || editOfRemoved
    }

    /// Applies a first share's purchases. A ledger that holds none of the trip's purchases yet (a
    /// join) inserts them in bulk, 64 rows at a time per table, which is what `applyRow` does for
    /// a purchase it has never seen. Otherwise each row is applied as the purchase's own change
    /// would be.
    private func applySnapshot(_ c: SyncChange, shared: SharedTrip) throws -> (rows: Int, conflicts: Int) {
        guard let snapshot = c.payload.flatMap(PurchaseSnapshot.init) else {
            throw TripError.badText(field: "snapshot", reason: "a shared trip's purchases could not be read")
        }
        let trip = SQLValue.integer(shared.trip.id)
        let fresh =
            try db.scalarInt(
                """
                SELECT NOT EXISTS (SELECT 1 FROM purchases WHERE trip_id = ?1)
                   AND NOT EXISTS (SELECT 1 FROM sync_rows WHERE kind = 'purchase' AND trip_id = ?1)
                """, [trip]) == 1
        var conflicts = 0
        guard fresh else {
            try snapshot.forEachRow { gid, hlc, values in
                let change = SyncChange(
                    changeID: c.changeID, kind: "purchase", gid: String(decoding: gid, as: UTF8.self), op: "put", hlc: hlc, baseHLC: 0,
                    device: c.device,
                    payload: snapshot.payload(values), seq: c.seq, author: c.author)
                if try applyRow(change, shared: shared) { conflicts += 1 }
            }
            return (snapshot.count, conflicts)
        }
        let refundOf = snapshot.columns.firstIndex(of: "refund_of")
        let payers = snapshot.columns.firstIndex(of: "payers"), shares = snapshot.columns.firstIndex(of: "shares")
        var id = try nextID(.purchases)
        // The outbox triggers of purchases and splits are dropped for the insert and created again
        // before it commits. Within a pull they record nothing (`withApplying`), but a statement
        // that fires a trigger keeps a statement journal, a copy of each page it changes, which
        // was most of the insert's time. The rows go in 64 at a time, as an import's do
        // (`BatchInsert`), their values packed in one buffer per table.
        try db.execute("DROP TRIGGER IF EXISTS purchases_sync_insert; DROP TRIGGER IF EXISTS purchase_splits_sync_insert")
        let purchases = try RowCodec(db: db).batchInsert(.purchases, names: snapshot.columns, fixed: ["trip_id", "refund_of"])
        let versions = Ledger.purchaseVersions(db)
        let splits = splitStore.batches()
        let purchaseWidth = 3 + purchases.kept.count
        var pending = (purchases: PackedValues(), versions: PackedValues(), splits: PackedValues(), rows: 0, splitRows: 0)
        func flush() throws {
            try purchases.insert.insert(pending.purchases, width: purchaseWidth, rows: 0..<pending.rows)
            try versions.insert(pending.versions, width: 5, rows: 0..<pending.rows)
            try splits.insert(pending.splits, width: 4, rows: 0..<pending.splitRows)
            pending.purchases.removeAll()
            pending.versions.removeAll()
            pending.splits.removeAll()
            pending.rows = 0
            pending.splitRows = 0
        }
        var device = c.device
        try snapshot.forEachRow { gid, hlc, values in
            // A refund follows its purchase: once the rows before it are in, its global id is in sync_rows.
            var refunded: Int64?
            if let refundOf, let refundGID = values.text(at: refundOf) {
                try flush()
                refunded = try localID(kind: "purchase", gid: refundGID)
            }
            pending.purchases.appendInteger(id)
            pending.purchases.appendInteger(shared.trip.id)
            if let refunded { pending.purchases.appendInteger(refunded) } else { pending.purchases.appendNull() }
            for i in purchases.kept { pending.purchases.append(values, at: i) }
            pending.versions.appendInteger(id)
            pending.versions.appendText(gid)
            pending.versions.appendInteger(shared.trip.id)
            pending.versions.appendInteger(hlc)
            device.withUTF8 { pending.versions.appendText($0) }
            if let payers, let shares {
                try values.withText(at: payers) { payers in
                    try values.withText(at: shares) {
                        try appendSplit(purchaseID: id, payers: payers, shares: $0, shared: shared, to: &pending.splits)
                        pending.splitRows += 1
                    }
                }
            }
            pending.rows += 1
            id += 1
            if pending.rows == 64 { try flush() }
        }
        try flush()
        try installSyncTriggers()
        return (snapshot.count, 0)
    }

    /// Lists a conflict of `c` with the row `localID` here: each version with its clock (`nil`:
    /// removed), and which one every device applied.
    private func recordConflict(
        _ c: SyncChange, localID: Int64, shared: SharedTrip, reason: String, winner: String, mine: (String, Int64)?, theirs: (String, Int64)?
    ) throws {
        try db.run(
            """
            INSERT INTO sync_conflicts (trip_id, kind, gid, local_id, reason, winner, mine, mine_hlc, theirs, theirs_hlc, theirs_by, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(shared.trip.id), .text(c.kind), .text(c.gid), .integer(localID), .text(reason), .text(winner),
                SQLValue(mine?.0), .integer(mine?.1 ?? 0), SQLValue(theirs?.0), .integer(theirs?.1 ?? c.hlc), .text(c.author),
                .text(clock.now),
            ])
    }

    /// A remote delete: a purchase goes to the trash (restorable), a transfer or member is removed.
    /// A row something here still refers to (a refund's purchase, a member with purchases) stays,
    /// and the delete is listed as a conflict. Returns whether the row went.
    private func removeLocally(_ table: RowCodec.Table, id: Int64, shared: SharedTrip, change c: SyncChange) throws -> Bool {
        let mine = try RowCodec(db: db).read(table, id: id)
        do {
            try db.transaction {
                if table == .purchases, let mine {
                    try purchaseStore.putInTrash(id: id, trip: shared.trip.id, removedAt: clock.now, row: mine)
                }
                try db.run(table.deleteByID, [.integer(id)])
            }
            return true
        } catch {
            try recordConflict(
                c, localID: id, shared: shared, reason: "removed on another device but still used here", winner: "mine",
                mine: mine.map { ($0, 0) }, theirs: nil)
            return false
        }
    }
}

extension RowCodec.Table {
    init?(kind: String) {
        switch kind {
        case "trip": self = .trips
        case "member": self = .members
        case "purchase": self = .purchases
        case "transfer": self = .transfers
        default: return nil
        }
    }

    var kind: String {
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

/// Member ids already translated by the current `prepareOutgoing`, `applyIncoming` or
/// conflict step, which works on one trip (cleared at the start of each). A trip has a few
/// members and every purchase names them: each is looked up once, and found again by comparing
/// bytes, with no `String` or hashing per list.
final class MemberIDMemo: Sendable {
    static let shared = MemberIDMemo()
    private typealias Known = [(from: [UInt8], to: [UInt8])]
    /// Members' ids, towards their travelling references and back.
    private let known = Mutex<(toGlobal: Known, toLocal: Known)>(([], []))

    /// Appends `list` (`MEMBER=WEIGHT,…`) to `out` with each member translated; `lookup` gives a
    /// member not met yet.
    func translate(
        _ list: UnsafeBufferPointer<UInt8>, toGlobal: Bool, to out: inout [UInt8], lookup: (String) throws -> String
    ) throws {
        try known.withLock { memo in
            var start = 0
            var first = true
            while start < list.count {
                var end = start
                while end < list.count, list[end] != UInt8(ascii: ",") { end += 1 }
                defer { start = end + 1 }
                guard end > start else { continue }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                let item = UnsafeBufferPointer(rebasing: list[start..<end])
                guard let eq = item.lastIndex(of: UInt8(ascii: "=")) else {
                    out.append(contentsOf: item)
                    continue
                }
                let who = UnsafeBufferPointer(rebasing: item[..<eq])
                let table = toGlobal ? memo.toGlobal : memo.toLocal
                if let found = table.first(where: { $0.from.elementsEqual(who) }) {
                    out.append(contentsOf: found.to)
                } else {
                    let other = Array(try lookup(String(decoding: who, as: UTF8.self)).utf8)
                    if toGlobal { memo.toGlobal.append((Array(who), other)) } else { memo.toLocal.append((Array(who), other)) }
                    out.append(contentsOf: other)
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: item[eq...]))
            }
        }
    }

    func clear() {
        known.withLock { $0 = ([], []) }
    }
}
