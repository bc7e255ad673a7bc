import Storage
import TripCore
import TripLedger
import TripModel

/// A pull's local side: the changes pulled from the server are applied here by the same rules on
/// every device, whatever order they arrive in.
extension Ledger {
    /// Applies changes pulled from the server, in their order, and records that the log is
    /// applied up to `upTo`; then re-rates the trip with the rates it now has, even when it is
    /// closed, so that every device ends with the same numbers. One transaction: a pull killed
    /// halfway applies nothing and is simply repeated. `shared` moves with the ledger: read
    /// through `upTo`, and the trip as a pulled trip change left it.
    public func applyIncoming(_ shared: inout SharedTrip, _ changes: [SyncChange], upTo: Int64) throws -> PullSummary {
        let current = shared
        let (summary, trip, now) = try syncStore.transaction { () throws -> (PullSummary, Trip?, String) in
            try withApplying {
                var summary = PullSummary()
                let me = try deviceID()
                MemberIDMemo.shared.clear()
                // Nothing is trusted (`PulledChangeCheck`): a refused change is set aside below,
                // and neither moves the clock nor names a device's role.
                let refused = try screenPulled(changes, shared: current)
                let accepted = zip(changes, refused).filter { $0.1 == nil }.map(\.0)
                // The clock moves past every clock received.
                try syncStore.advanceClock(past: accepted.map(\.hlc).max() ?? 0)
                try syncStore.noteAuthors(accepted)
                for (c, refusal) in zip(changes, refused) {
                    // Each change in a savepoint of its own: one that cannot be applied is rolled
                    // back alone and set aside, and the pull goes on past it.
                    var counted = PullSummary()
                    do {
                        try syncStore.transaction {
                            try checkPulled(c, refused: refusal, shared: current)
                            // This device's own changes are here already; they take their place in
                            // the log's order all the same (`noteLogOrder`).
                            if c.device != me || SyncChange.rateKinds.contains(c.kind) { try apply(c, shared: current, into: &counted) }
                            if try noteLogOrder(c, shared: current) { counted.conflicts += 1 }
                        }
                        summary.add(counted)
                    } catch let error as SQLiteError where error.isDiskFull || error.isBusy {
                        throw error  // this ledger, not the change: the batch is tried again
                    } catch {
                        MemberIDMemo.shared.clear()
                        try setAside(c, shared: current, because: error)
                        summary.setAside += 1
                    }
                }
                try settleMemberNames(current)
                let now = clock.now
                try syncStore.recordPull(trip: current.trip.id, through: upTo, at: now)
                // Closed or not: a device that learns of a close before a rate another device sent
                // would otherwise keep other numbers than one that learns of them the other way round.
                if !changes.isEmpty { _ = try rerate(tripID: current.trip.id, includingClosed: true) }
                let trip = changes.contains { $0.kind == "trip" } ? try self.trip(id: current.trip.id) : nil
                return (summary, trip, now)
            }
        }
        shared.pulledSeq = max(current.pulledSeq, upTo)
        shared.lastSync = now
        if let trip { shared.trip = trip }
        return summary
    }

    /// The rule for a pulled change that cannot be applied here (a rule below that does not hold
    /// for it, or a row that is not one): it is recorded, with why, and left out (m0019). The
    /// pull's cursor moves past it with the rest of its batch, so no later sync stops at it.
    private func setAside(_ c: SyncChange, shared: SharedTrip, because error: any Error) throws {
        let reason =
            switch error {
            case let e as SQLiteError: e.description
            case let e as TripError: e.description
            default: "\(error)"
            }
        try syncStore.insertSetAside(trip: shared.trip.id, c, error: reason, at: clock.now)
    }

    /// Applies one pulled change and counts it in `summary`.
    private func apply(_ c: SyncChange, shared: SharedTrip, into summary: inout PullSummary) throws {
        switch c.kind {
        case "rate":
            try receiveObservation(payload: c.payload ?? "", trip: shared.trip.id)
            summary.rates += 1
        case "provider":
            try receiveProviderState(payload: c.payload ?? "", trip: shared.trip.id)
        case "manual_rate":
            try receiveManualRate(payload: c.payload ?? "", trip: shared.trip.id)
            summary.rates += 1
        case "trip", "member", "purchase", "transfer":
            if try applyRow(c, shared: shared) { summary.conflicts += 1 }
            summary.applied += 1
            summary.byAuthor[c.author, default: 0] += 1
        case ConflictResolution.kind:
            if let r = ConflictResolution(c), try syncStore.storeResolution(r, trip: shared.trip.id, sent: false, at: clock.now) {
                try syncStore.markResolutionsSent([r.conflictGID])
                try syncStore.closeConflicts(gid: r.conflictGID, keptHLC: r.keptHLC, keptDevice: r.keptDevice, at: clock.now)
            }
        case PurchaseSnapshot.kind:
            let applied = try applySnapshot(c, shared: shared)
            summary.conflicts += applied.conflicts
            summary.applied += applied.rows
            summary.byAuthor[c.author, default: 0] += applied.rows
        default:
            break  // a kind from a newer trip: skipped, as a newer column is
        }
    }

    /// Changes the server did not take because another device closed the trip: each waits in
    /// `trip conflicts` (`resolve --keep mine` sends it anyway), and its row goes back to the
    /// server's version, so this ledger shows what every other device shows. One transaction;
    /// the held changes leave the outbox.
    public func holdClosedElsewhere(_ shared: SharedTrip, _ held: [SyncChange], serverVersions: [ServerVersion], closedBy: String) throws {
        let versions = Dictionary(serverVersions.map { ($0.gid, $0) }, uniquingKeysWith: { first, _ in first })
        try transaction {
            try withApplying {
                MemberIDMemo.shared.clear()
                // Rows that refer to others first: transfers and purchases (a refund before its
                // purchase) before the members they name.
                for c in held.reversed() {
                    guard let table = RowCodec.Table(kind: c.kind), let id = try syncStore.localID(kind: c.kind, gid: c.gid) else { continue }
                    let theirs = versions[c.gid]
                    try syncStore.removeFromOutbox(trip: shared.trip.id, kind: c.kind, localID: id)
                    // Listed here only: the change never reached the others.
                    try syncStore.insertConflict(
                        trip: shared.trip.id, c, localID: id, reason: SyncConflict.closedElsewhere, winner: "theirs",
                        mine: (c.op == "delete" ? nil : c.payload, c.hlc),
                        theirs: (theirs?.payload, theirs?.hlc ?? 0), theirsBy: closedBy, at: clock.now,
                        devices: (c.device, theirs?.device ?? ""))
                    if let payload = theirs?.payload {
                        try writeRow(table, id: id, payload: payload, shared: shared, fromTrash: table == .purchases)
                    } else {
                        // A row the others do not have leaves this ledger too; the conflict keeps it.
                        // One still named by a row kept here stays, as the others show it (they
                        // kept it for the same reason): its latest version before the removal.
                        let removed: Bool
                        do {
                            try transaction {
                                if table == .purchases { try splitStore.deleteAny(purchase: id) }
                                try syncStore.delete(table, id: id)
                            }
                            removed = true
                        } catch { removed = false }
                        if !removed, let payload = theirs?.removedPayload { try writeRow(table, id: id, payload: payload, shared: shared) }
                    }
                    try syncStore.revertVersion(
                        kind: c.kind, localID: id, hlc: theirs?.hlc ?? 0, device: theirs?.device ?? "", held: c.hlc,
                        removedAt: theirs?.removedAt ?? 0, restoredAt: theirs?.restoredAt ?? 0)
                }
                try settleMemberNames(shared)
                _ = try rerate(tripID: shared.trip.id, includingClosed: true)
            }
        }
    }

    /// The other half of "a row that someone's money still names is never removed": a purchase or
    /// member that a removal reached, kept while something named it, goes once nothing does (the
    /// refund that named it was removed, or held because the trip was closed elsewhere). Every
    /// device has seen the same removal and the same references, so every device ends the same.
    /// Run at the end of each sync; not a local change (nothing enters the outbox).
    public func applyWaitingRemovals(_ shared: SharedTrip) throws {
        let waiting = try syncStore.waitingRemovals(trip: shared.trip.id)
        guard !waiting.isEmpty else { return }
        try transaction {
            try withApplying {
                // Purchases first (a refund before its purchase: the larger id first), then members.
                for (kind, id) in waiting {
                    switch kind {
                    case "purchase":
                        guard try purchaseStore.refundIDs(of: id).isEmpty, let row = try syncStore.codec.read(.purchases, id: id, stored: true)
                        else { continue }
                        try purchaseStore.putInTrash(id: id, trip: shared.trip.id, removedAt: clock.now, row: row)
                        try syncStore.delete(.purchases, id: id)
                    default:
                        let use = try memberUse(id, trip: shared.trip.id)
                        guard use.purchases.isEmpty && use.transfers.isEmpty else { continue }
                        try syncStore.keepRemoved(.members, id: id)
                        try syncStore.delete(.members, id: id)
                    }
                }
                try settleMemberNames(shared)
            }
        }
    }

    /// The rule for two members of a trip under one name, over the whole trip, run after each pull:
    /// each member wants the name of its winning version in the log's order (or, with a change of
    /// it waiting to be sent, its name here). Of members wanting one name, the member added under
    /// that name (its global id is made of it) keeps it, else the smallest global id; each other
    /// takes back the name it was added under (`-2`, `-3`… if that is taken too), in the order of
    /// their global ids. Decided from what the log says, not from the order names arrived in, so
    /// every device ends with the same names, and a clash that a later rename removed leaves no
    /// trace. Names change here only (nothing enters the outbox).
    func settleMemberNames(_ shared: SharedTrip) throws {
        let members = try memberStore.members(trip: shared.trip.id)
        guard members.count > 1 else { return }
        let versions = try syncStore.memberVersions(trip: shared.trip.id)
        let rows = members.map { m in
            let v = versions[m.id]
            return (id: m.id, name: m.name, gid: v?.gid, logName: v?.logName, pending: v?.pending ?? true)
        }
        // Names are unique in a trip as SQLite's NOCASE compares them: ASCII letters folded.
        func key(_ name: String) -> String { String(decoding: name.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self) }
        let claims = rows.map { r in
            (
                id: r.id, current: r.name, wanted: (r.pending ? nil : r.logName) ?? r.name,
                gid: r.gid ?? GlobalID.member(trip: shared.gid, name: r.name)
            )
        }.sorted { $0.gid < $1.gid }
        var holder: [String: Int] = [:]
        for (i, c) in claims.enumerated() {
            guard let j = holder[key(c.wanted)] else {
                holder[key(c.wanted)] = i
                continue
            }
            let owned = GlobalID.member(trip: shared.gid, name: c.wanted)
            if c.gid == owned && claims[j].gid != owned { holder[key(c.wanted)] = i }
        }
        var final = claims.map(\.wanted)
        var taken = Set(holder.keys)
        for (i, c) in claims.enumerated() where holder[key(c.wanted)] != i {
            let base = GlobalID.memberName(c.gid, trip: shared.gid) ?? "member"
            var candidate = base, n = 1
            while taken.contains(key(candidate)) {
                n += 1
                candidate = "\(base)-\(n)"
            }
            final[i] = candidate
            taken.insert(key(candidate))
        }
        let renamed = claims.indices.filter { final[$0] != claims[$0].current }
        // In two steps, so that no rename meets a name another is about to give up.
        for i in renamed { try memberStore.rename(claims[i].id, to: "\u{1}settling \(claims[i].id)") }
        for i in renamed { try memberStore.rename(claims[i].id, to: final[i]) }
    }

    /// Records a sync that found nothing to pull.
    public func markSynced(_ shared: inout SharedTrip) throws {
        let now = clock.now
        try transaction { try syncStore.recordSync(trip: shared.trip.id, at: now) }
        shared.lastSync = now
    }

    /// Applies one pulled change of a row. Returns whether it listed a conflict only this device
    /// has (a removal refused here because a row here still names the row); the conflicts every
    /// device lists are found in the log's order (`noteLogOrder`).
    ///
    /// The rules are `Version.decide`'s, the same on every device whatever order the changes
    /// arrive in: of two versions of a row, the later wins whole (`valuesWin`); a delete wins over
    /// every edit, and a delete and a restore take effect by the later clock (`takesEffect`).
    private func applyRow(_ c: SyncChange, shared: SharedTrip) throws -> Bool {
        guard let table = RowCodec.Table(kind: c.kind) else { return false }
        var local = try syncStore.localID(kind: c.kind, gid: c.gid)
        if local == nil, c.kind == "member", let payload = c.payload,
            let same = try memberStore.id(trip: shared.trip.id, namedIn: payload),
            try sameMember(same, gid: c.gid, shared: shared)
        {
            // Added under the same name here too, not synced yet: one member. Its id stays.
            try syncStore.insertIdentity(kind: "member", localID: same, gid: c.gid, trip: shared.trip.id)
            local = same
        }
        guard let id = local else {
            guard c.op != "delete", let payload = c.payload else { return false }
            if c.kind == "trip" { return false }
            let id = try newLocalID(table)
            // Its global id first: a member's name is settled by it (`settleMemberName`).
            try syncStore.insertIdentity(kind: c.kind, localID: id, trip: shared.trip.id, from: c, restoredHLC: c.op == "restore" ? c.hlc : 0)
            try writeRow(table, id: id, payload: payload, shared: shared, new: true)
            return false
        }
        let state = try syncStore.version(kind: c.kind, localID: id)!
        // A local write not yet prepared is newer than what sync_rows says.
        let pendingHLC = try syncStore.pendingHLC(kind: c.kind, localID: id)
        let localHLC = max(state.hlc, pendingHLC)
        let localDevice = pendingHLC > state.hlc ? try deviceID() : state.device
        let incoming = RowWrite(RowWrite.Op(wire: c.op), hlc: c.hlc, device: c.device, base: c.baseHLC)
        let held = RowWrite(.edit, hlc: localHLC, device: localDevice)
        let incomingWins = Version.decide(held: held, incoming: incoming).valuesWin
        // A purchase moved to another trip here is gone from this one.
        let alive = table == .purchases ? try purchaseStore.trip(of: id) == shared.trip.id : try syncStore.exists(table, id: id)
        switch c.op {
        case "delete":
            try syncStore.markDeleted(kind: c.kind, localID: id, hlc: c.hlc, device: c.device)
            // A purchase's removal carries its last version there: the version kept here (live
            // or in the trash) when it is later than this one's, as an edit would be.
            let removedWins = table == .purchases && c.payload != nil && incomingWins
            let restore = RowWrite(.restore, hlc: state.restored, device: "")
            guard alive, Version.decide(held: restore, incoming: incoming).takesEffect else {
                if removedWins, let payload = c.payload, try purchaseStore.trashedTrip(of: id) == shared.trip.id {
                    try purchaseStore.patchTrashed(id: id, columns: payload)
                    try writeSplits(payload: payload, purchaseID: id, shared: shared)
                    try syncStore.setVersion(kind: c.kind, localID: id, hlc: c.hlc, device: c.device, base: c.baseHLC)
                }
                return false
            }
            if removedWins, let payload = c.payload {
                try writeRow(table, id: id, payload: payload, shared: shared)
                try syncStore.setVersion(kind: c.kind, localID: id, hlc: c.hlc, device: c.device, base: c.baseHLC)
            }
            let removed = try removeLocally(table, id: id, shared: shared, change: c)
            // A purchase kept by its refund is listed in the log's order, on every device alike
            // (`noteRemovalKeptByRefund`).
            return !removed && table != .purchases
        case "restore":
            try syncStore.markRestored(kind: c.kind, localID: id, hlc: c.hlc)
            // A purchase from the trash, or a member added again under their name.
            let removal = RowWrite(.removal, hlc: state.deleted, device: "")
            if !alive, Version.decide(held: removal, incoming: incoming).takesEffect, table == .purchases || table == .members {
                // The restore brings the row back, not its values: the later version wins whole, as
                // for an edit. One the trash holds here, later than the restore (an edit it never
                // saw, made here or pulled while the purchase was removed), comes back with it.
                let trashWins =
                    try table == .purchases && Version.decide(held: incoming, incoming: held).valuesWin
                    && purchaseStore.trashedTrip(of: id) == shared.trip.id
                if trashWins {
                    try purchaseStore.restoreFromTrash(id: id)
                    return false
                }
                try writeRow(table, id: id, payload: c.payload ?? "{}", shared: shared, fromTrash: table == .purchases)
                try syncStore.setVersion(kind: c.kind, localID: id, hlc: c.hlc, device: c.device, base: c.baseHLC)
                return false
            }
        default:
            break
        }
        guard let payload = c.payload else { return false }
        // An edit of a purchase removed here was written without seeing the removal (after it,
        // the purchase is gone on that device too, and only a restore brings it back).
        guard incomingWins else { return false }
        if alive {
            try writeRow(table, id: id, payload: payload, shared: shared)
        } else if table != .purchases && state.deleted == 0 {
            // Never removed by a removal: a row this device made and took back because the trip
            // was closed elsewhere (`holdClosedElsewhere`), which another device made too (a
            // settle-up's transfer, a member, by the same global id). It is here as on the others.
            try writeRow(table, id: id, payload: payload, shared: shared)
        } else if table == .purchases {
            // Deleted here: the edit is kept in the trash, so `trip restore` brings back the latest
            // version, payers and split included (their row survives the removal).
            try purchaseStore.patchTrashed(id: id, columns: payload)
            try writeSplits(payload: payload, purchaseID: id, shared: shared)
        }
        try syncStore.setVersion(kind: c.kind, localID: id, hlc: c.hlc, device: c.device, base: c.baseHLC)
        return false
    }

    /// Applies a first share's purchases. A ledger that holds none of the trip's purchases yet (a
    /// join) inserts them in bulk, 64 rows at a time per table, which is what `applyRow` does for
    /// a purchase it has never seen. Otherwise each row is applied as the purchase's own change
    /// would be.
    private func applySnapshot(_ c: SyncChange, shared: SharedTrip) throws -> (rows: Int, conflicts: Int) {
        guard let snapshot = c.payload.flatMap(PurchaseSnapshot.init) else {
            throw TripError.badText(field: "snapshot", reason: "a shared trip's purchases could not be read")
        }
        var conflicts = 0
        guard try syncStore.holdsNoPurchases(trip: shared.trip.id) else {
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
        try syncStore.dropPurchaseInsertTriggers()
        let purchases = try syncStore.codec.batchInsert(.purchases, names: snapshot.columns, fixed: ["trip_id", "refund_of"])
        // Fields a later release wrote, kept beside their rows once the rows are in.
        let declared = WireFormat.purchase
        let unknownColumns = snapshot.columns.indices.filter {
            snapshot.columns[$0] != WireFormat.versionKey && declared.field(snapshot.columns[$0]) == nil
                && !declared.columnNames.contains(snapshot.columns[$0])
        }
        var unknown: [(id: Int64, fields: String)] = []
        let versions = syncStore.purchaseVersions()
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
                refunded = try syncStore.localID(kind: "purchase", gid: refundGID)
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
            if !unknownColumns.isEmpty {
                let cells = values.sqlValues(0..<values.count)
                unknown.append((id, WireFormat.object(unknownColumns.map { (snapshot.columns[$0], $0 < cells.count ? cells[$0] : .null) })))
            }
            pending.rows += 1
            id += 1
            if pending.rows == 64 { try flush() }
        }
        try flush()
        for row in unknown { try syncStore.codec.keepUnknownFields(.purchases, id: row.id, row.fields) }
        try syncStore.installTriggers()
        return (snapshot.count, 0)
    }

    /// The local values of a travelling row's references: its trip, and per kind its members or
    /// the purchase it refunds. A member or purchase removed here comes back (`referenced`).
    private func localReferences(kind: String, payload: String, shared: SharedTrip) throws -> [(String, SQLValue)] {
        let trip: (String, SQLValue) = ("trip_id", .integer(shared.trip.id))
        func member(_ path: String) throws -> SQLValue {
            .integer(try localMember(try syncStore.payloadText(payload, path: path) ?? "", shared: shared))
        }
        switch kind {
        case "trip": return []
        case "member": return [trip]
        case "transfer": return [trip, ("from_member", try member("$.from_member")), ("to_member", try member("$.to_member"))]
        default:
            let refunded = try payloadTexts(payload, "refund_of")[0].flatMap { try syncStore.localID(kind: "purchase", gid: $0) }
            if let refunded { try referenced(.purchases, id: refunded, shared: shared) }
            return [trip, ("refund_of", SQLValue(refunded))]
        }
    }

    /// The local id of the member a travelling row names (`@NAME` or a global id). A member
    /// removed here comes back as they were (`referenced`); one never seen here (their own change
    /// not pulled yet) is added under the name, which is what their global id is made of.
    func localMember(_ reference: String, shared: SharedTrip) throws -> Int64 {
        let gid = GlobalID.memberGID(reference, trip: shared.gid)
        if let id = try syncStore.localID(kind: "member", gid: gid) {
            try referenced(.members, id: id, shared: shared)
            return id
        }
        let name = GlobalID.memberName(gid, trip: shared.gid) ?? reference
        if let same = try memberStore.id(trip: shared.trip.id, named: name), try sameMember(same, gid: gid, shared: shared) {
            try syncStore.insertIdentity(kind: "member", localID: same, gid: gid, trip: shared.trip.id)
            return same
        }
        let id = try newLocalID(.members)
        try syncStore.insertIdentity(kind: "member", localID: id, gid: gid, trip: shared.trip.id)
        try writeRow(.members, id: id, payload: try syncStore.memberPayload(name: name, joinedAt: clock.now), shared: shared, new: true)
        return id
    }

    /// Whether local member `id`, not synced yet, is the member of global id `gid`: a member's
    /// global id is made of the name it was added under, so one added under the same name on two
    /// devices is one member. A member that has a global id already is not (it may have been
    /// renamed to that name).
    private func sameMember(_ id: Int64, gid: String, shared: SharedTrip) throws -> Bool {
        guard try syncStore.globalID(kind: "member", localID: id) == nil, let name = try memberStore.name(of: id) else { return false }
        return GlobalID.member(trip: shared.gid, name: name) == gid
    }

    /// The rule for two members of a trip under one name (names are unique in a trip): one renamed
    /// on one device to the name another device added, or two renamed to one name. The member
    /// added under that name (its global id is made of it) keeps it, else the smaller global id;
    /// the other takes back the name it was added under (`-2`, `-3`… if that is taken too). Every
    /// device decides alike, whatever order the changes arrive in. Returns `payload`, its name
    /// changed when member `id` gives way.
    private func settleMemberName(_ payload: String, id: Int64, shared: SharedTrip) throws -> String {
        guard let name = try syncStore.payloadText(payload, path: "$.name"),
            let other = try memberStore.id(trip: shared.trip.id, named: name), other != id
        else { return payload }
        let owned = GlobalID.member(trip: shared.gid, name: name)
        let mine = try syncStore.globalID(kind: "member", localID: id) ?? owned
        let theirs = try syncStore.globalID(kind: "member", localID: other) ?? owned
        // The name given way is never the one contested, in any case: a member added as Dave
        // after the first Dave was renamed has a global id made of "dave" too.
        func fallback(_ gid: String, for member: Int64) throws -> String {
            let base = GlobalID.memberName(gid, trip: shared.gid) ?? "member"
            func taken(_ candidate: String) throws -> Bool {
                guard candidate.lowercased() != name.lowercased() else { return true }
                guard let holder = try memberStore.id(trip: shared.trip.id, named: candidate) else { return false }
                return holder != member
            }
            var candidate = base, n = 1
            while try taken(candidate) {
                n += 1
                candidate = "\(base)-\(n)"
            }
            return candidate
        }
        if theirs == owned || (mine != owned && theirs < mine) {
            return try syncStore.withName(payload, try fallback(mine, for: id))
        }
        try memberStore.rename(other, to: try fallback(theirs, for: other))
        return payload
    }

    /// The rule for a row that a travelling row refers to (a refund's purchase, a member named as
    /// payer, sharer or in a transfer) and that was removed here, by this device or by a change
    /// applied before: it comes back as it was, a purchase from the trash and a member from the
    /// copy kept at their removal (m0014). The referring row was written without seeing the
    /// removal; a row that someone's money still names is never removed, so on every device, in
    /// whatever order the two changes arrive, both rows end up present (README, "Conflicts").
    private func referenced(_ table: RowCodec.Table, id: Int64, shared: SharedTrip) throws {
        guard try !syncStore.exists(table, id: id) else { return }
        switch table {
        case .purchases:
            if try purchaseStore.trashedTrip(of: id) != nil { try purchaseStore.restoreFromTrash(id: id) }
        case .members:
            // One never kept at a removal (a member added here while the trip was closed
            // elsewhere, and dropped at `trip resolve`) comes back as the others have them: under
            // the name their global id is made of, as a device that never saw them adds them.
            let row =
                try syncStore.removedRow(.members, id: id)
                ?? syncStore.globalID(kind: "member", localID: id).flatMap { GlobalID.memberName($0, trip: shared.gid) }.map {
                    try syncStore.memberPayload(name: $0, joinedAt: clock.now)
                }
            if let row { try writeRow(.members, id: id, payload: row, shared: shared) }
        case .trips, .transfers:
            break
        }
    }

    /// Writes a travelling row here: its columns with this ledger's references, a purchase's
    /// payers and split, and, `fromTrash`, takes it out of the trash. `new`: the id was never used.
    func writeRow(_ table: RowCodec.Table, id: Int64, payload: String, shared: SharedTrip, new: Bool = false, fromTrash: Bool = false) throws {
        if fromTrash { try purchaseStore.removeFromTrash(id: id) }
        let payload = table == .members ? try settleMemberName(payload, id: id, shared: shared) : payload
        try syncStore.codec.write(table, id: id, payload: payload, fixed: try localReferences(kind: table.kind, payload: payload, shared: shared))
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

    /// The text values of `keys` in a travelling payload (`nil`: absent, null or not text), read
    /// in Swift when the payload is flat, by SQLite otherwise.
    private func payloadTexts(_ payload: String, _ keys: String...) throws -> [String?] {
        if let fields = FlatJSON.fields(payload) {
            return keys.map { key in
                guard let value = fields.first(where: { $0.0 == key })?.1, case .text(let text) = value else { return nil }
                return text
            }
        }
        return try keys.map { try syncStore.payloadText(payload, key: $0) }
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

    /// A remote delete: a purchase goes to the trash (restorable), a transfer or member is removed.
    /// A row something here still refers to (a refund's purchase, a member named by a purchase,
    /// removed ones included, or by a transfer) stays, and the delete is listed as a conflict: a
    /// row that someone's money still names is never removed (`referenced`). Returns whether the
    /// row went.
    private func removeLocally(_ table: RowCodec.Table, id: Int64, shared: SharedTrip, change c: SyncChange) throws -> Bool {
        // The trash keeps the whole row, local columns included.
        let mine = try syncStore.codec.read(table, id: id, stored: table == .purchases)
        do {
            try transaction {
                switch table {
                case .purchases:
                    if let mine { try purchaseStore.putInTrash(id: id, trip: shared.trip.id, removedAt: clock.now, row: mine) }
                case .members:
                    let use = try memberUse(id, trip: shared.trip.id)
                    if !use.purchases.isEmpty || !use.transfers.isEmpty { throw TripError.badText(field: "member", reason: "still named") }
                    try syncStore.keepRemoved(.members, id: id)
                case .trips, .transfers:
                    break
                }
                try syncStore.delete(table, id: id)
            }
            return true
        } catch {
            if table == .purchases { return false }
            let here = try syncStore.version(kind: c.kind, localID: id)
            try recordConflict(
                c, localID: id, shared: shared, reason: "removed on another device but still used here", winner: "mine",
                mine: (mine, here?.hlc ?? 0, here?.device ?? ""), theirs: (nil, c.hlc, c.device), local: true)
            return false
        }
    }
}
