import Storage
import TripCore
import TripModel

/// Where every command that takes an id reads it: a local number (`3`, `#3`; `T3` for a transfer)
/// or a shared id (`p-7kq4x`, `t-3mf2a`, `c-9xk2m`: `SharedID`), the same on every device.
extension Ledger {
    /// The local id of the purchase `text` names: `3`, `#3` or its shared id.
    func purchaseID(_ text: String) throws -> Int64 {
        guard SharedID.parse(text) != nil else { return try Ledger.parseID(text) }
        guard let id = try sharedRow(text, .purchase) else {
            // Likely a purchase another device logged that has not reached this one yet.
            throw TripError.badTextValue(
                field: "id", value: text, reason: "names no purchase on this device; `trip sync` brings what the others logged")
        }
        return id
    }

    /// The local id of the transfer `text` names: `T3` or its shared id; `nil` when `text` is
    /// neither (a purchase's id, say).
    func transferID(_ text: String) throws -> Int64? {
        if let id = Transfer.id(fromRef: text) { return id }
        guard SharedID.parse(text)?.kind == .transfer else { return nil }
        guard let id = try sharedRow(text, .transfer) else {
            throw TripError.badTextValue(field: "id", value: text, reason: "is not a transfer here; `trip transfers` lists them")
        }
        return id
    }

    /// The local id of the conflict `text` names: its number here or its shared id.
    package func conflictID(_ text: String) throws -> Int64 {
        guard SharedID.parse(text) != nil else { return try Ledger.parseID(text) }
        guard let id = try sharedRow(text, .conflict) else {
            throw TripError.badTextValue(field: "id", value: text, reason: "is no open conflict; `trip conflicts` lists them")
        }
        return id
    }

    /// The shared id of row `localID` of `kind` (`purchase` or `transfer`); `nil` before its first sync.
    public func sharedID(_ kind: SharedID.Kind, localID: Int64) throws -> String? {
        try syncStore.globalID(kind: kind.noun, localID: localID).map { SharedID.code(kind, gid: $0) }
    }

    /// `p` with its shared id (and a refund with that of its purchase), for `trip edit`, `rm`,
    /// `restore` and `refund` to show.
    func withSharedID(_ p: Purchase) throws -> Purchase {
        var p = p
        p.sharedID = try sharedID(.purchase, localID: p.id)
        p.refundOfSharedID = try p.refundOf.flatMap { try sharedID(.purchase, localID: $0) }
        return p
    }

    /// `t` with its shared id when trip `tripID` is shared, for `trip transfers`, `transfer edit`
    /// and `rm` to show.
    func withSharedID(_ t: Transfer, tripID: Int64) throws -> Transfer {
        guard try syncStore.isShared(trip: tripID) else { return t }
        var t = t
        t.onSharedTrip = true
        t.sharedID = try sharedID(.transfer, localID: t.id)
        return t
    }

    /// The local id of the one row of `kind` that typed shared id `text` names; `nil` when none
    /// does. A shared id of another kind, or one that names several rows, is refused, naming them.
    private func sharedRow(_ text: String, _ kind: SharedID.Kind) throws -> Int64? {
        guard let typed = SharedID.parse(text) else { return nil }
        guard typed.kind == kind else {
            throw TripError.badTextValue(
                field: "id", value: text, reason: "is a \(typed.kind.noun)'s shared id; give a \(kind.noun)'s (\(kind.rawValue)-…)")
        }
        var rows = kind == .conflict ? try syncStore.conflictIdentities() : try syncStore.identities(kind: kind.noun)
        if kind == .conflict {
            // A conflict listed twice under one global id is one conflict: its first row.
            var seen = Set<String>()
            rows = rows.filter { seen.insert($0.gid).inserted }
        }
        let found = rows.filter { SharedID.matches(typed.digits, gid: $0.gid) }
        guard found.count > 1 else { return found.first?.localID }
        let gids = found.map(\.gid)
        let names = found.map { row in
            let local = kind == .transfer ? Transfer.ref(row.localID) : kind == .purchase ? "#\(row.localID)" : "\(row.localID)"
            return "\(SharedID.distinguishing(kind, gid: row.gid, among: gids)) (\(local) here)"
        }
        throw TripError.badTextValue(
            field: "id", value: text, reason: "names \(found.count) \(kind.noun)s here: \(names.joined(separator: ", ")); give one of those")
    }
}
