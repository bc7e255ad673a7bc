import Storage
import TripCore
import TripLedger
import TripModel

/// A push's local side: the outbox's local changes become the `SyncChange`s that travel, and leave
/// the outbox once the server has them.
extension Ledger {
    /// Turns every local change of the trip not yet prepared into a `SyncChange` (its id, op and
    /// payload fixed from now on) and returns every prepared change not yet acknowledged, in an
    /// order the receiver can apply (trip, members, purchases, transfers; a refund after its
    /// purchase). One transaction.
    public func prepareOutgoing(_ shared: SharedTrip) throws -> [SyncChange] {
        MemberIDMemo.shared.clear()
        return try syncStore.transaction {
            let trip = shared.trip.id
            // Several writes to one row before a sync travel as one change: the row as it is now.
            try syncStore.coalesceOutbox(trip: trip)
            let me = try deviceID()
            // Changes an earlier sync prepared and the server has not acknowledged: sent again as
            // they were.
            var out: [(order: OutgoingOrder, change: SyncChange)] = try syncStore.prepared(trip: trip, device: me).map {
                (Ledger.outgoingOrder($0.change.kind, $0.localID, $0.outboxID), $0.change)
            }
            let pending = try syncStore.pending(trip: trip)
            // The snapshot first: it gives the purchases the versions later changes are built on.
            for p in pending where p.kind == PurchaseSnapshot.kind {
                var change = try prepareSnapshot(shared, hlc: p.hlc, device: me)
                try syncStore.markPrepared(outboxID: p.outboxID, change, baseHLC: 0)
                change.pastClose = p.pastClose
                out.append((Ledger.outgoingOrder(p.kind, 0, p.outboxID), change))
            }
            out += try preparePurchases(shared, device: me)
            for p in pending where p.kind != "purchase" && p.kind != PurchaseSnapshot.kind {
                guard var change = try prepare(kind: p.kind, localID: p.localID, hlc: p.hlc, shared: shared, device: me) else {
                    try syncStore.deleteOutboxEntry(p.outboxID)
                    continue
                }
                try syncStore.markPrepared(outboxID: p.outboxID, change, baseHLC: change.baseHLC)
                change.pastClose = p.pastClose
                out.append((Ledger.outgoingOrder(p.kind, p.localID, p.outboxID), change))
            }
            out.sort { $0.order < $1.order }
            // Resolutions after the rows: a kept version written again goes first.
            let resolutions = try syncStore.unsentResolutions(trip: trip).map(\.change)
            return out.map(\.change) + resolutions + (try outgoingRates(shared, device: me))
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
        // Global ids for the purchases (and the purchases they refund) that have none yet.
        try giveGlobalIDs(try syncStore.waitingPurchasesWithoutGlobalID(trip: shared.trip.id), shared)
        let waiting = try syncStore.waitingPurchases(trip: shared.trip.id)
        var columns: [Int64: String] = [:]
        try syncStore.codec.forEach(.purchases, .waitingPurchases, .integer(shared.trip.id), without: Ledger.purchaseLocalColumns) {
            columns[$0] = $1
        }
        let unknown = try syncStore.codec.keptUnknownFieldsOfWaitingPurchases(trip: shared.trip.id)
        var prepared: [(order: OutgoingOrder, change: SyncChange)] = []
        prepared.reserveCapacity(waiting.count)
        for w in waiting {
            var payload = try columns[w.localID].map {
                try purchasePayload(
                    columns: $0, refundGID: w.refundGID, payers: w.payers, shares: w.shares, unknown: unknown[w.localID], shared: shared)
            }
            // Here again while the removal still holds: the write undoes it (`Version.decide`).
            let op =
                payload == nil ? "delete" : Version.isRemoved(removedAt: w.deletedHLC, restoredAt: w.restoredHLC) ? "restore" : "put"
            if op == "delete" { payload = try removedVersion(w.localID, unknown: unknown[w.localID], shared: shared) }
            // The version the row now has here: this change's clock, built on the one before.
            try syncStore.setPurchaseVersion(localID: w.localID, hlc: w.hlc, op: op, device: device, carriesValues: payload != nil)
            var change = SyncChange(
                changeID: GlobalID.make(), kind: "purchase", gid: w.gid, op: op, hlc: w.hlc, baseHLC: w.versionHLC, device: device,
                payload: payload)
            change.pastClose = w.pastClose
            try syncStore.markPrepared(outboxID: w.outboxID, change, baseHLC: w.versionHLC)
            prepared.append((Ledger.outgoingOrder("purchase", w.localID, w.outboxID), change))
        }
        return prepared
    }

    /// Gives a global id to each purchase of `missing` (ids in id order, so that the global ids,
    /// which are in the order made, grow with the rows); `version`: the clock and device of the
    /// version those purchases have from now on.
    private func giveGlobalIDs(_ missing: [Int64], _ shared: SharedTrip, version: (hlc: Int64, device: String)? = nil) throws {
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
        try syncStore.purchaseVersions().insert(bound, width: 5, rows: 0..<missing.count)
    }

    /// The change of a first share's purchases (`PurchaseSnapshot`): every purchase of the trip as
    /// it is now, each at version `hlc` of this device, with its references by global id.
    private func prepareSnapshot(_ shared: SharedTrip, hlc: Int64, device: String) throws -> SyncChange {
        try giveGlobalIDs(try syncStore.tripPurchasesWithoutGlobalID(trip: shared.trip.id), shared, version: (hlc, device))
        // Purchases that had a global id already, without a version.
        try syncStore.versionUnversionedPurchases(trip: shared.trip.id, hlc: hlc, device: device)
        let codec = syncStore.codec
        // Fields a later release wrote are not in a snapshot: its rows share one column list, and
        // a trip shared for the first time holds no row pulled from one.
        let columns = codec.columns(.purchases, without: Ledger.purchaseLocalColumns)
        let count = try purchaseStore.count(trip: shared.trip.id)
        // About 340 bytes a purchase.
        var writer = PurchaseSnapshot.Writer(
            count: count, columns: columns + ["refund_of", "payers", "shares"], capacity: count * 360 + 1024)
        var list: [UInt8] = []
        try codec.forEach(
            .purchases, .tripPurchasesWithVersions, .integer(shared.trip.id), without: Ledger.purchaseLocalColumns, shape: .array,
            with: SnapshotPurchaseColumn.self
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

    /// This device's own rates for this trip: the cached rates not sent yet (fetched at or after
    /// the last sent) into its currencies, from a month before its first purchase; the manual
    /// rates of its currencies or set while it was current. Rates pulled from another trip, and
    /// a never-shared trip's rates of other currencies, stay here (`RateScope`). Their change
    /// ids are their content, so a rate sent twice (or by two devices that fetched the same
    /// observation at the same moment) is kept once.
    private func outgoingRates(_ shared: SharedTrip, device: String) throws -> [SyncChange] {
        var out: [SyncChange] = []
        try rateStore.forEachUnsentObservation(trip: shared.trip.id) { o, fetchedAt, payload in
            let key = "\(o.provider):\(o.base):\(o.quote):\(o.date)"
            out.append(
                SyncChange(
                    changeID: "rate:\(key):\(fetchedAt)", kind: "rate", gid: "rate:\(key)", op: "put", hlc: 0,
                    baseHLC: 0, device: device, payload: payload))
        }
        // Rates set by hand, every time: a handful, and the server keeps each version once (its
        // change id names the version).
        for v in try rateStore.manualRates(travellingTo: shared.trip.id) {
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
    public func markSent(_ shared: inout SharedTrip, _ changes: [SyncChange], pulledThrough: Int64? = nil) throws {
        try syncStore.transaction {
            var sentThrough: String?
            var rows: [JSONValue] = []
            var resolutions: [String] = []
            for c in changes {
                switch c.kind {
                case "rate":
                    // The change id is `rate:PROVIDER:BASE:QUOTE:DATE:FETCHED_AT`.
                    let fetched = String(c.changeID.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false).last ?? "")
                    sentThrough = max(sentThrough ?? fetched, fetched)
                case "provider", "manual_rate": continue
                case ConflictResolution.kind: resolutions.append(String(c.gid.dropFirst(ConflictResolution.kind.count + 1)))
                default: rows.append(.string(c.changeID))
                }
            }
            try syncStore.removeSent(trip: shared.trip.id, changeIDs: JSONValue.array(rows).serialized, count: rows.count)
            try syncStore.markResolutionsSent(resolutions)
            if let pulledThrough {
                // The log holds this device's changes right after what it had pulled: they take
                // their place in its order here, as the pull would have given them.
                for c in changes { _ = try noteLogOrder(c, shared: shared) }
                try syncStore.advancePulled(trip: shared.trip.id, through: pulledThrough)
                // And the pull would have re-rated the trip, closed or not, with a rate this device
                // set (`applyIncoming`): `rates set` re-rated only open trips.
                if changes.contains(where: { SyncChange.rateKinds.contains($0.kind) }) {
                    _ = try rerate(tripID: shared.trip.id, includingClosed: true)
                }
            }
            if let sentThrough { try syncStore.advanceRatesSent(trip: shared.trip.id, through: sentThrough) }
            // The rates sent are the trip's now, here as on every device that pulls them (`RateScope`).
            for c in changes where SyncChange.rateKinds.contains(c.kind) { try keepSentRate(c, trip: shared.trip.id) }
        }
        if let pulledThrough { shared.pulledSeq = max(shared.pulledSeq, pulledThrough) }
    }

    /// One outbox entry as the change that will travel, or `nil` when there is nothing to send.
    private func prepare(kind: String, localID: Int64, hlc: Int64, shared: SharedTrip, device: String) throws -> SyncChange? {
        guard let table = RowCodec.Table(kind: kind) else { return nil }
        let gid = try globalID(kind: kind, localID: localID, shared: shared)
        let version = try syncStore.version(kind: kind, localID: localID)
        let base = version?.hlc ?? 0
        let payload = try travellingPayload(kind: kind, localID: localID, table: table, shared: shared)
        let op: String
        if payload == nil {
            // A trip removed here only leaves the share; it is not removed for the others.
            if kind == "trip" { return nil }
            op = "delete"
            try syncStore.markDeleted(kind: kind, localID: localID, hlc: hlc, device: device)
        } else if Version.isRemoved(removedAt: version?.deleted ?? 0, restoredAt: version?.restored ?? 0) {
            op = "restore"
            try syncStore.markRestored(kind: kind, localID: localID, hlc: hlc)
        } else {
            op = "put"
        }
        try syncStore.setVersion(kind: kind, localID: localID, hlc: hlc, device: device, base: base)
        return SyncChange(changeID: GlobalID.make(), kind: kind, gid: gid, op: op, hlc: hlc, baseHLC: base, device: device, payload: payload)
    }

    /// The row as it travels: every declared column by name (`WireFormat`), without its local ids,
    /// with references to other rows by their global ids (a purchase's payers and split, a
    /// refund's purchase, a transfer's members), then the fields a later release wrote into it,
    /// as they came.
    func travellingPayload(kind: String, localID: Int64, table: RowCodec.Table, shared: SharedTrip) throws -> String? {
        let unknown = try syncStore.codec.keptUnknownFields(table, id: localID)
        return try declaredPayload(kind: kind, localID: localID, table: table, shared: shared).map {
            WireFormat.appending(unknown: unknown, to: $0)
        }
    }

    /// `travellingPayload` but the fields a later release wrote.
    private func declaredPayload(kind: String, localID: Int64, table: RowCodec.Table, shared: SharedTrip) throws -> String? {
        if kind == "purchase" {
            // Two statements, not four: a first share reads every purchase of the trip. The keys
            // come in the order they always had (the row's columns, then refund_of, payers, shares).
            let references = try purchaseStore.references(of: localID, trip: shared.trip.id)
            guard let (refundOf, payers, shares) = references,
                let columns = try syncStore.codec.read(.purchases, id: localID, without: Ledger.purchaseLocalColumns)
            else { return nil }
            return try purchasePayload(
                columns: columns, refundGID: try refundOf.map { try globalID(kind: "purchase", localID: $0, shared: shared) },
                payers: payers, shares: shares, unknown: nil, shared: shared)
        }
        guard let row = try syncStore.codec.read(table, id: localID) else { return nil }
        switch kind {
        case "transfer":
            let ends = try transferStore.ends(of: localID) ?? (0, 0)
            return try syncStore.travellingTransfer(
                row, from: GlobalID.memberReference(try globalID(kind: "member", localID: ends.0, shared: shared), trip: shared.gid),
                to: GlobalID.memberReference(try globalID(kind: "member", localID: ends.1, shared: shared), trip: shared.gid))
        case "member":
            return try syncStore.withoutLocalIDs(row, tripID: true)
        default:
            return try syncStore.withoutLocalIDs(row, tripID: false)
        }
    }

    /// A purchase as it travels, from its columns (`RowCodec` without `purchaseLocalColumns`) and its
    /// references already looked up: every column but its local ids, then the refunded purchase's
    /// global id and the payers and split with global member ids (in that order, which every
    /// device writes alike), and last the fields a later release wrote into it (`unknown`).
    private func purchasePayload(
        columns: String, refundGID: String?, payers: String?, shares: String?, unknown: String?, shared: SharedTrip
    ) throws -> String {
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
        return WireFormat.appending(unknown: unknown, to: String(decoding: out, as: UTF8.self))
    }

    /// The version a removal carries: the purchase as the trash holds it, edits made here since
    /// the last sync included (they travel with the removal, so a refund from another device that
    /// brings the purchase back brings back the same version everywhere). `nil` when the trash
    /// does not hold it.
    private func removedVersion(_ id: Int64, unknown: String?, shared: SharedTrip) throws -> String? {
        guard let row = try purchaseStore.trashedRow(id: id, trip: shared.trip.id) else { return nil }
        let (columns, refundGID) = try syncStore.travellingColumns(ofTrashed: row)
        let split = try splitStore.stored(trip: shared.trip.id, purchase: id)
        return try purchasePayload(
            columns: columns, refundGID: refundGID, payers: split?.payers, shares: split?.shares, unknown: unknown, shared: shared)
    }

    /// A purchase's columns that do not travel: its local ids, and the refunded purchase's, which
    /// travels as a global id.
    static let purchaseLocalColumns: Set<String> = ["id", "trip_id", "import_key", "refund_of"]
}
