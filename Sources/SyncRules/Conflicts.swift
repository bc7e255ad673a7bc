import Storage
import TripCore
import TripLedger
import TripModel

/// Conflicts: two versions of a row that a pull could not both keep. Every device applies the
/// same winner; the loser waits in `trip conflicts` until `trip resolve` keeps one.
extension Ledger {
    /// Every conflict of every shared trip (open ones first).
    public func conflicts(includeResolved: Bool = false) throws -> [SyncConflict] {
        let trips = Dictionary(try sharedTrips().map { ($0.trip.name, $0.gid) }, uniquingKeysWith: { first, _ in first })
        // Members by the name this ledger shows (a reference is made of the name a member was
        // added under, lowercased).
        var cache: [String: String?] = [:]
        var list = try syncStore.conflicts(includeResolved: includeResolved) { trip in
            { [self] ref in
                guard let tripGID = trips[trip] else { return nil }
                let gid = ref.hasPrefix("@") ? "member:\(tripGID):\(ref.dropFirst())" : ref
                if let known = cache[gid] { return known }
                let name = (try? syncStore.localID(kind: "member", gid: gid)).flatMap { $0 }.flatMap { try? memberStore.name(of: $0) }
                cache[gid] = name
                return name
            }
        }
        for i in list.indices where list[i].resolvedAt == nil { list[i].choices = try choices(list[i]) }
        return list
    }

    /// The commands that settle conflict `c`, one per version that may be kept: the version shown
    /// (which changes nothing here), and the other, with what else keeping it does. A removal of a
    /// row that something here still names is offered only where removing what names it is
    /// (a purchase's refunds, `--remove-refunds`); a member's is not offered.
    func choices(_ c: SyncConflict) throws -> [SyncConflict.Choice] {
        try c.versions.compactMap { v in
            let command = "trip resolve \(c.id) --keep \(v.number)"
            if v.kept { return .init(number: v.number, command: command, effect: "keeps what every device shows") }
            if c.reason == SyncConflict.closedElsewhere {
                return .init(
                    number: v.number, command: command,
                    effect: v.isMine ? "sends this device's change all the same" : "drops this device's change")
            }
            switch try removalBlock(c, v) {
            case nil:
                return .init(number: v.number, command: command, effect: "writes it again, to win on every device")
            case .refunds(let ids)?:
                let list = ids.map { "#\($0)" }.joined(separator: ", ")
                return .init(
                    number: v.number, command: command + " --remove-refunds",
                    effect: "removes #\(c.localID) and its refund\(ids.count == 1 ? "" : "s") \(list) on every device")
            case .named?:
                return nil
            }
        }
    }

    /// Why keeping version `v` of `c`, a removal, needs more than the removal: the row is here
    /// because something still names it. `nil`: `v` is no such removal.
    enum RemovalBlock: Equatable {
        /// A purchase its refunds name: kept only with them removed too.
        case refunds([Int64])
        /// A member that purchases or transfers name: not offered.
        case named
    }

    func removalBlock(_ c: SyncConflict, _ v: ConflictVersion) throws -> RemovalBlock? {
        guard v.payload == nil, v.hlc != 0 else { return nil }
        switch c.kind {
        case "purchase":
            guard let shared = try sharedTrips().first(where: { $0.trip.name == c.trip }),
                try purchaseStore.trip(of: c.localID) == shared.trip.id
            else { return nil }
            let refunds = try purchaseStore.refundIDs(of: c.localID)
            return refunds.isEmpty ? nil : .refunds(refunds)
        case "member":
            guard let shared = try sharedTrips().first(where: { $0.trip.name == c.trip }), try syncStore.exists(.members, id: c.localID) else {
                return nil
            }
            let use = try memberUse(c.localID, trip: shared.trip.id)
            return use.purchases.isEmpty && use.transfers.isEmpty ? nil : .named
        default:
            return nil
        }
    }

    /// The rule for a purchase a removal reached that stays because a refund names it, applied to
    /// change `c` of a purchase in the log's order, after `noteVersion` (`before`: the purchase's
    /// winning version before `c`). Decided from the log's winning versions alone, never from what
    /// this ledger held at the end of a sync, so every device lists the same conflicts, whatever
    /// batches it pulled the changes in. While a purchase's winning version is a removal and a
    /// refund of it is live, the removal and the refund are the conflict's two versions (under a
    /// global id made of the purchase and the removal: a later removal that wins is listed too);
    /// once no refund is live, it closes, the removal kept; a restore (an edit made after seeing
    /// the removal travels as one) supersedes the removal, and the conflict goes, open or closed.
    /// Nothing here depends on which were open here (a resolution closes one at once where it
    /// is made). Returns whether a conflict was listed.
    func noteRemovalKeptByRefund(_ c: SyncChange, before: LogVersion?, shared: SharedTrip) throws -> Bool {
        guard let after = try syncStore.logVersion(gid: c.gid), after.version != before?.version else { return false }
        let reason = SyncConflict.removedWhileRefunded
        if before?.removed == true && !after.removed { try syncStore.dropConflicts(row: c.gid, reason: reason) }
        var listed = false
        if after.removed { listed = try settleRemovalKeptByRefund(c.gid, removal: after.version, shared: shared) }
        // A refund's change: the purchase it names may be kept, or freed, by it.
        let refunded = try (c.payload ?? before?.payload).flatMap { try syncStore.payloadText($0, path: "$.refund_of") }
        if let refunded, let target = try syncStore.logVersion(gid: refunded), target.removed {
            listed = try settleRemovalKeptByRefund(refunded, removal: target.version, shared: shared) || listed
        }
        return listed
    }

    /// Purchase `gid`, whose winning version in the log is `removal`: listed as kept by its first
    /// live refund (by global id), or its open conflict closed when it has none.
    private func settleRemovalKeptByRefund(_ gid: String, removal: Version, shared: SharedTrip) throws -> Bool {
        let reason = SyncConflict.removedWhileRefunded
        guard let refund = try syncStore.firstLiveRefund(of: gid, trip: shared.trip.id) else {
            try syncStore.closeRemovalConflicts(row: gid, reason: reason, at: clock.now)
            return false
        }
        let conflictGID = GlobalID.conflict(row: gid, lost: removal)
        guard let localID = try syncStore.localID(kind: "purchase", gid: gid), try !syncStore.hasConflict(gid: conflictGID) else { return false }
        let me = try deviceID()
        let removed = (nil as String?, removal.hlc, removal.device)
        let refunded = (refund.payload, refund.version.hlc, refund.version.device)
        // "mine" is this device's version where it wrote one, else the earlier.
        let refundIsMine = refund.version.device == me || (removal.device != me && refund.version < removal)
        let (mine, theirs) = refundIsMine ? (refunded, removed) : (removed, refunded)
        let change = SyncChange(
            changeID: "", kind: "purchase", gid: gid, op: "delete", hlc: removal.hlc, baseHLC: 0, device: removal.device, payload: nil)
        try recordConflict(
            change, localID: localID, shared: shared, reason: reason, winner: refundIsMine ? "mine" : "theirs", mine: mine, theirs: theirs,
            theirsBy: try syncStore.author(ofDevice: theirs.2) ?? "")
        return true
    }

    /// Whether this device knows the role it pushes as (`noteOwnAuthor`).
    public func knowsOwnAuthor() throws -> Bool { try syncStore.author(ofDevice: try deviceID()) != nil }

    /// Records the role this device pushes as: a conflict's versions written here are labelled
    /// with it, as the other devices label them.
    public func noteOwnAuthor(_ role: String) throws {
        try transaction { try syncStore.noteAuthor(role, device: try deviceID()) }
    }

    /// `trip resolve ID --keep 1|2|mine|theirs|ROLE`: the kept version, when it lost, is written
    /// again as a new local change (so it wins on every device at the next sync); the conflict is
    /// closed, and the resolution travels, closing it on every device that lists it. `wasShown`:
    /// the kept version is the one the ledger already showed, so nothing here changed.
    public func resolveConflict(_ idText: String, keep: String, removeRefunds: Bool = false) throws -> (
        conflict: SyncConflict, kept: ConflictVersion, outcome: SyncConflict.Outcome
    ) {
        let id = try conflictID(idText)
        MemberIDMemo.shared.clear()
        return try transaction {
            guard let c = try conflicts().first(where: { $0.id == id }) else {
                throw TripError.badTextValue(field: "id", value: idText, reason: "is no open conflict; `trip conflicts` lists them")
            }
            let version = try Ledger.chosenVersion(keep, of: c)
            let wasShown = c.versions.first(where: \.kept)?.number == version.number
            let keepMine = version.isMine
            let keep = keepMine ? c.mine : c.theirs
            let kept = keepMine ? "mine" : "theirs"
            var outcome: SyncConflict.Outcome = .shownAlready
            let block = wasShown ? nil : try removalBlock(c, version)
            if removeRefunds && block == nil {
                throw TripError.badTextValue(
                    field: "--remove-refunds", value: "\(version.number)",
                    reason: "version \(version.number) of conflict \(c.id) needs no refund removed; drop it")
            }
            switch block {
            case .named?:
                throw TripError.badTextValue(
                    field: "--keep", value: "\(version.number)",
                    reason: "version \(version.number) removes \(c.kind) #\(c.localID), which purchases or transfers here still name; "
                        + "it cannot be kept while they do (`trip conflicts` lists what settles it)")
            case .refunds(let refunds)?:
                let list = refunds.map { "#\($0)" }.joined(separator: ", ")
                guard removeRefunds else {
                    throw TripError.badTextValue(
                        field: "--keep", value: "\(version.number)",
                        reason: "version \(version.number) removes purchase #\(c.localID), which refund\(refunds.count == 1 ? "" : "s") \(list) "
                            + "name\(refunds.count == 1 ? "s" : ""); it can be kept only with \(refunds.count == 1 ? "that refund" : "them") "
                            + "removed too: `trip resolve \(c.id) --keep \(version.number) --remove-refunds`")
                }
                // Refunds first: a purchase with refunds cannot be removed. Local changes: they travel.
                for r in refunds { _ = try removePurchase(String(r)) }
                _ = try removePurchase(String(c.localID))
                outcome = .removed([c.localID] + refunds)
            case nil:
                if c.reason == SyncConflict.closedElsewhere {
                    if keepMine {
                        try sendPastClose(c)
                        outcome = .sentPastClose
                    }
                } else if !wasShown, let keep {
                    if try writeAgain(c, keep) { outcome = .writtenAgain }
                }
            }
            if c.gid.isEmpty {
                try syncStore.closeConflict(id, winner: kept, at: clock.now)
            } else {
                let shared = try sharedTrips().first { $0.trip.name == c.trip }
                let r = ConflictResolution(
                    conflictGID: c.gid, keptHLC: version.hlc, keptDevice: version.device, hlc: try syncStore.tick(), device: try deviceID())
                _ = try syncStore.storeResolution(r, trip: shared?.trip.id ?? 0, sent: false, at: clock.now)
                try syncStore.closeConflicts(gid: c.gid, keptHLC: version.hlc, keptDevice: version.device, at: clock.now)
            }
            let closed = try conflicts(includeResolved: true).first { $0.id == id }!
            return (closed, closed.versions.first { $0.number == version.number } ?? version, outcome)
        }
    }

    /// Writes `payload`, a version of conflict `c` that lost, again as a local change, so that it
    /// wins on every device at the next sync; an edit a removal won over comes back from the
    /// trash and travels as a restore. Returns whether it was written (the row is known here and
    /// present, or in the trash).
    private func writeAgain(_ c: SyncConflict, _ payload: String) throws -> Bool {
        guard let table = RowCodec.Table(kind: c.kind), let shared = try sharedTrips().first(where: { $0.trip.name == c.trip }) else {
            return false
        }
        let known = try syncStore.hasGlobalID(kind: c.kind, localID: c.localID)
        let alive = try syncStore.codec.read(table, id: c.localID) != nil
        let inTrash = try !alive && table == .purchases && purchaseStore.trashedTrip(of: c.localID) != nil
        guard known, alive || inTrash else { return false }
        if inTrash { try requireOpen(shared.trip) }
        try writeRow(table, id: c.localID, payload: payload, shared: shared, fromTrash: inTrash)
        return true
    }

    /// The version `--keep` names: `1` or `2` (as `trip conflicts` numbers them), `mine` (this
    /// device's version when the conflict arose), `theirs` (the other), or the role that wrote one.
    static func chosenVersion(_ keep: String, of c: SyncConflict) throws(TripError) -> ConflictVersion {
        let word = keep.trimmingSpaces.lowercased()
        let choices = c.versions
        let found: [ConflictVersion] =
            switch word {
            case "1", "2": choices.filter { "\($0.number)" == word }
            // Only where this device wrote one of the two: on any other, "mine" would be someone else's.
            case "mine": choices.filter(\.thisDevice)
            case "theirs": choices.contains(where: \.thisDevice) ? choices.filter { !$0.thisDevice } : []
            default: choices.filter { $0.author.lowercased() == word }
            }
        guard found.count == 1, let v = found.first else {
            // Only words that name exactly one version are offered.
            let authors = choices.map(\.author).filter { !$0.isEmpty }
            let roles = Set(authors).filter { a in authors.filter { $0 == a }.count == 1 }.sorted()
            let own = choices.filter(\.thisDevice).count == 1
            let neither = (word == "mine" || word == "theirs") && !choices.contains(where: \.thisDevice)
            let reason =
                found.count > 1
                ? "wrote both versions; choose 1 or 2"
                : (neither ? "names no version: this device wrote neither; choose" : "is not a version of conflict \(c.id); choose")
                    + " 1 or 2 (`trip conflicts`)" + (own ? ", mine, theirs" : "")
                    + (roles.isEmpty ? "" : " or who wrote it (\(roles.joined(separator: ", ")))")
            throw .badTextValue(field: "--keep", value: keep, reason: reason)
        }
        return v
    }

    /// `trip resolve ID --keep mine` of a change that waited because another device closed the
    /// trip: the change is written here again, as a local change marked to be sent all the same
    /// (`markingPastClose`; not when the trip is open again: `releaseHeld`).
    func sendPastClose(_ c: SyncConflict, markingPastClose: Bool = true) throws {
        guard let table = RowCodec.Table(kind: c.kind), let shared = try sharedTrips().first(where: { $0.trip.name == c.trip }) else { return }
        if let mine = c.mine {
            try writeRow(table, id: c.localID, payload: mine, shared: shared, fromTrash: table == .purchases)
        } else if let row = try syncStore.codec.read(table, id: c.localID, stored: table == .purchases) {
            if table == .purchases {
                try purchaseStore.putInTrash(id: c.localID, trip: shared.trip.id, removedAt: clock.now, row: row)
                try splitStore.deleteAny(purchase: c.localID)
            }
            try syncStore.delete(table, id: c.localID)
        }
        if markingPastClose { try syncStore.markPastClose(trip: shared.trip.id, kind: c.kind, localID: c.localID) }
    }

    /// Finds the conflict, if any, that change `c` of a row makes with the version the log made the
    /// winner before it, and records `c`'s place in the log's order (m0018). Run for every change
    /// of a row in the log's order, this device's own included, after it was applied here: every
    /// device reads the same log, so every device lists the same conflicts, whatever order the
    /// versions reached its ledger in. Returns whether a conflict was listed.
    ///
    /// Two versions clash when the later in the log was written without seeing the earlier (its
    /// base is not the earlier's clock). Of two edits the later `Version` wins; a removal wins over
    /// every edit of a purchase, and only a restore (written after seeing the removal) undoes it.
    /// A version built on one that lost did not lose in the end: that conflict is dropped, and the
    /// new version meets the winner in its turn.
    func noteLogOrder(_ c: SyncChange, shared: SharedTrip) throws -> Bool {
        guard let table = RowCodec.Table(kind: c.kind) else { return false }
        let before = try syncStore.logVersion(gid: c.gid)
        let clashed = try noteVersion(c, before: before, table: table, shared: shared)
        guard table == .purchases else { return clashed }
        return try noteRemovalKeptByRefund(c, before: before, shared: shared) || clashed
    }

    /// `noteLogOrder` for the versions of one row: `before` is its winner so far.
    private func noteVersion(_ c: SyncChange, before: LogVersion?, table: RowCodec.Table, shared: SharedTrip) throws -> Bool {
        let incoming = LogVersion(version: Version(hlc: c.hlc, device: c.device), removed: c.op == "delete", payload: c.payload)
        guard let before else {
            try syncStore.setLogVersion(gid: c.gid, trip: shared.trip.id, incoming)
            return false
        }
        if incoming.version == before.version { return false }  // the winner itself, read again
        if c.baseHLC != 0 && c.baseHLC != before.version.hlc { try syncStore.dropConflicts(row: c.gid, lostVersionHLC: c.baseHLC) }
        // The log keeps no base of its winner: only the change's own base says what it was made on.
        let decision = Version.decide(
            held: RowWrite(before.removed ? .removal : .edit, before.version),
            incoming: RowWrite(RowWrite.Op(wire: c.op), incoming.version, base: c.baseHLC))
        let incomingWins = decision.incomingWins
        // Written after seeing the winner (a restore always is): no clash.
        if !decision.conflict {
            try syncStore.setLogVersion(gid: c.gid, trip: shared.trip.id, incoming)
            return false
        }
        // Which clashes are listed: a removal against an edit of a purchase, two edits that differ.
        let reason: String
        if before.removed != incoming.removed {
            reason = table == .purchases ? SyncConflict.removedWhileEdited : ""
        } else if before.removed {
            reason = ""
        } else {
            let differ = try before.payload.map { try !syncStore.sameJSON($0, c.payload ?? "{}") } ?? false
            reason = differ ? SyncConflict.editedTwice : ""
        }
        try syncStore.setLogVersion(gid: c.gid, trip: shared.trip.id, incomingWins ? incoming : before)
        guard !reason.isEmpty, let localID = try syncStore.localID(kind: c.kind, gid: c.gid) else { return false }
        let earlier = (before.removed ? nil : before.payload, before.version.hlc, before.version.device)
        let later = (incoming.removed ? nil : c.payload, c.hlc, c.device)
        // "mine" is this device's version where it wrote one (`--format json`), else the earlier.
        if c.device == (try deviceID()) {
            try recordConflict(
                c, localID: localID, shared: shared, reason: reason, winner: incomingWins ? "mine" : "theirs", mine: later, theirs: earlier,
                theirsBy: try syncStore.author(ofDevice: before.version.device) ?? "")
        } else {
            try recordConflict(
                c, localID: localID, shared: shared, reason: reason, winner: incomingWins ? "theirs" : "mine", mine: earlier, theirs: later)
        }
        return true
    }

    /// Lists a conflict of `c` with the row `localID` here: each version (`nil`: a removal) with
    /// its clock and device, and which one every device applied. Listed once, under the global id
    /// every device gives it; a resolution that arrived first closes it at once.
    /// `local`: a conflict only this device lists (a removal refused here because a row here
    /// still names the row), which does not travel.
    func recordConflict(
        _ c: SyncChange, localID: Int64, shared: SharedTrip, reason: String, winner: String, mine: (String?, Int64, String),
        theirs: (String?, Int64, String), theirsBy: String? = nil, local: Bool = false
    ) throws {
        let lost = winner == "mine" ? theirs : mine
        let gid = local ? "" : GlobalID.conflict(row: c.gid, lost: Version(hlc: lost.1, device: lost.2))
        guard try local || !syncStore.hasConflict(gid: gid) else { return }
        try syncStore.insertConflict(
            trip: shared.trip.id, c, localID: localID, reason: reason, winner: winner, mine: (mine.0, mine.1),
            theirs: (theirs.0, theirs.1), theirsBy: theirsBy ?? c.author, at: clock.now, gid: gid, devices: (mine.2, theirs.2))
        if !local, let r = try syncStore.resolution(of: gid) {
            try syncStore.closeConflicts(gid: gid, keptHLC: r.keptHLC, keptDevice: r.keptDevice, at: clock.now)
        }
    }
}
