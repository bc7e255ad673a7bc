import Storage
import TripCore
import TripLedger
import TripModel

// MARK: the checks that need this ledger

extension Ledger {
    /// Screens a pulled batch before anything of it is applied: the rules of `PulledChangeCheck`,
    /// and the device each change names. A device id is bound, in each trip, to the role that
    /// pushed its first change there (the server writes `author`, nobody can forge it), and this
    /// device's own id to the role it pushes as: a change that names a device bound to another
    /// role is refused on every device alike. Returns why each change is refused (`nil`: it is
    /// not), in order; the others bind their devices.
    func screenPulled(_ changes: [SyncChange], shared: SharedTrip) throws -> [TripError?] {
        let check = PulledChangeCheck(tripGID: shared.gid)
        let me = try deviceID()
        var bound: [String: String] = [:]
        var refused: [TripError?] = []
        for c in changes {
            refused.append(nil)
            do throws(TripError) {
                try check.check(c)
            } catch {
                refused[refused.count - 1] = error
                continue
            }
            guard !c.author.isEmpty else { continue }
            let role: String?
            if let known = bound[c.device] {
                role = known
            } else {
                role = try c.device == me ? syncStore.author(ofDevice: me) : syncStore.deviceRole(trip: shared.trip.id, device: c.device)
            }
            if let role, role != c.author {
                refused[refused.count - 1] = .badTextValue(
                    field: "device", value: c.device, reason: "is \(role)'s device; this change was pushed by \(c.author)")
                continue
            }
            if role == nil, c.device != me { try syncStore.bindDevice(trip: shared.trip.id, device: c.device, role: c.author) }
            bound[c.device] = c.author
        }
        return refused
    }

    /// The last check of a pulled change, in its own savepoint before it is applied: refused by
    /// `screenPulled`, or naming a row this ledger holds under another trip (a row found here
    /// under another trip is never touched).
    func checkPulled(_ c: SyncChange, refused: TripError?, shared: SharedTrip) throws {
        if let refused { throw refused }
        func own(_ kind: String, _ gid: String, field: String) throws {
            guard let trip = try syncStore.tripOfRow(kind: kind, gid: gid), trip != shared.trip.id else { return }
            throw TripError.badTextValue(field: field, value: gid, reason: "is a \(kind) of another trip on this device")
        }
        switch c.kind {
        case "trip", "member", "purchase", "transfer":
            try own(c.kind, c.gid, field: "gid")
            if c.kind == "purchase", let payload = c.payload, let fields = FlatJSON.fields(payload),
                case .text(let refunded)? = fields.first(where: { $0.0 == "refund_of" })?.1
            {
                try own("purchase", refunded, field: "purchase.refund_of")
            }
        case ConflictResolution.kind:
            // A conflict's id is made of its row's: `conflict:ROW:HLC@DEVICE`.
            guard let r = ConflictResolution(c), r.conflictGID.hasPrefix("conflict:"), let colon = r.conflictGID.lastIndex(of: ":") else { return }
            let row = String(r.conflictGID[r.conflictGID.index(r.conflictGID.startIndex, offsetBy: 9)..<colon])
            for kind in ["trip", "member", "purchase", "transfer"] { try own(kind, row, field: "conflict") }
        case PurchaseSnapshot.kind:
            guard let snapshot = c.payload.flatMap(PurchaseSnapshot.init) else { return }
            try snapshot.forEachRow { gid, _, _ in try own("purchase", String(decoding: gid, as: UTF8.self), field: "gid") }
        default:
            break
        }
    }
}
