import TripCore
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rules every pulled change meets before it is applied (issue 36): a change is input from
/// another person's device, so it is checked as strictly as a typed amount and kept inside the
/// trip it came with. These are the rules that need nothing but the change (and the trip's global
/// id): the same on every device, so every device refuses the same changes. A refused change is
/// set aside (`sync_set_aside`), listed by `trip conflicts` with the error as its reason.
///
/// What a field may hold is declared once, in the wire format (`WireFormat`): what `trip add`,
/// `trip new` and `trip member add` accept. A change of a later major version of the wire format
/// is set aside whole.
package struct PulledChangeCheck {
    /// The synced trip's global id.
    package let tripGID: String
    /// Wall-clock milliseconds: the bound of a change the server gave no commit time.
    package let now: Int64

    static let ops: Set<String> = ["put", "delete", "restore"]
    /// How far a change's clock may run ahead of the server's commit time of it, in milliseconds:
    /// a day. A clock beyond it would pin every device's clock (a clock only moves forward).
    static let clockLead: Int64 = 86_400_000
    /// The most bytes one row's payload holds (a snapshot's rows are checked one by one).
    static let rowPayloadMaxBytes = 256 * 1024
    /// Every kind a change may have; anything else is refused, not skipped.
    static let kinds: Set<String> =
        SyncChange.rowKinds.union(SyncChange.rateKinds).union(["trip", PurchaseSnapshot.kind, ConflictResolution.kind, SyncChange.heldKind])

    package init(tripGID: String, now: Int64 = PulledChangeCheck.wallClock()) {
        self.tripGID = tripGID
        self.now = now
    }

    /// Throws the first rule `c` breaks, naming the field and value at fault.
    package func check(_ c: SyncChange) throws(TripError) {
        // First: a later major version may have other kinds, ids and fields. The payload is read
        // once, for its version and its fields (`checkPayload`).
        let fields = c.payload.flatMap(FlatJSON.fields)
        try WireFormat.checkVersion(c.wireVersion, fields: fields)
        guard Self.kinds.contains(c.kind) else { throw .badTextValue(field: "kind", value: c.kind, reason: "is not a kind of change") }
        guard Self.ops.contains(c.op) else { throw .badTextValue(field: "op", value: c.op, reason: "is not put, delete or restore") }
        let bound = (c.committedAt > 0 ? c.committedAt : now) + Self.clockLead
        guard c.hlc >= 0, c.hlc >> 16 <= bound, c.baseHLC >= 0 else {
            throw .badTextValue(
                field: "hlc", value: String(c.hlc), reason: "is more than a day ahead of the server's time of the change (or negative)")
        }
        try checkGID(c)
        if let payload = c.payload, payload.utf8.count > Self.rowPayloadMaxBytes, c.kind != PurchaseSnapshot.kind {
            throw .badText(
                field: "payload", reason: "is \(payload.utf8.count) bytes long; the limit is \(Self.rowPayloadMaxBytes) bytes")
        }
        try checkPayload(c, fields: fields)
    }

    /// The global id belongs to this trip: a trip change is this trip's, a member's id is made of
    /// this trip's, and other rows have the form their kind is given (so a purchase never takes a
    /// member's id).
    private func checkGID(_ c: SyncChange) throws(TripError) {
        let ok: Bool
        switch c.kind {
        case "trip": ok = c.gid == tripGID
        case "member": ok = GlobalID.memberName(c.gid, trip: tripGID).map { !$0.isEmpty } ?? false
        case "purchase": ok = Self.isRowID(c.gid)
        case "transfer": ok = Self.isRowID(c.gid) || Self.isSettlement(c.gid, trip: tripGID)
        case PurchaseSnapshot.kind: ok = c.gid == "\(PurchaseSnapshot.kind):\(tripGID)"
        case SyncChange.heldKind: ok = c.gid == "\(SyncChange.heldKind):\(tripGID):\(c.device)"
        default: ok = c.gid.hasPrefix(c.kind + ":")
        }
        guard ok else { throw .badTextValue(field: "gid", value: c.gid, reason: "is not the id of a \(c.kind) of this trip") }
    }

    /// `fields`: the payload as `FlatJSON.fields` reads it.
    private func checkPayload(_ c: SyncChange, fields: [(String, SQLValue)]?) throws(TripError) {
        guard let payload = c.payload else {
            guard c.op == "delete" || SyncChange.rateKinds.contains(c.kind) else {
                throw .badText(field: "payload", reason: "is missing from a \(c.kind) change (\(c.op))")
            }
            return
        }
        switch c.kind {
        case PurchaseSnapshot.kind:
            guard let snapshot = PurchaseSnapshot(payload) else {
                throw .badTextValue(field: "payload", value: payload, reason: "is not a snapshot of purchases")
            }
            let columns = snapshot.columns
            do {
                try snapshot.forEachRow { gid, _, values in
                    let id = String(decoding: gid, as: UTF8.self)
                    guard Self.isRowID(id) else { throw TripError.badTextValue(field: "gid", value: id, reason: "is not the id of a purchase") }
                    try checkFields(kind: "purchase", op: "put", zip(columns, values.sqlValues(0..<values.count)).map { ($0, $1) })
                }
            } catch let error as TripError {
                throw error
            } catch {
                throw .badText(field: "snapshot", reason: "\(error)")
            }
        case ConflictResolution.kind:
            guard ConflictResolution(c) != nil, let fields else {
                throw .badTextValue(field: "payload", value: payload, reason: "is not a resolution of a conflict")
            }
            try checkFields(kind: c.kind, op: c.op, fields)
        case _ where SyncChange.rateKinds.contains(c.kind):
            break  // a rate's fields are the rate store's to read (`receiveManualRate`)
        default:
            guard let fields else {
                throw .badTextValue(field: "payload", value: payload, reason: "is not a JSON object of text, numbers and nulls")
            }
            try checkFields(kind: c.kind, op: c.op, fields)
        }
    }

    /// Each field of a row of `kind` against the wire format's declaration of it (`WireFormat`).
    func checkFields(kind: String, op: String, _ fields: [(String, SQLValue)]) throws(TripError) {
        try WireFormat.payloads[kind]?.check(fields, trip: tripGID)
    }

    // MARK: global ids

    /// A purchase's or transfer's own global id: a UUIDv7 (`GlobalID.make`), or any id of up to 64
    /// letters, digits, `-` and `_` (ids written before), never one of the forms with a `:` that
    /// name other things (a member's, a settle-up's, a snapshot's).
    static func isRowID(_ text: String) -> Bool {
        let u = text.utf8
        return (1...64).contains(u.count)
            && u.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D || $0 == 0x5F }
    }

    /// A settle-up's transfer of `trip` (`GlobalID.settlement`).
    static func isSettlement(_ gid: String, trip: String) -> Bool {
        let prefix = "settle:\(trip):"
        guard gid.hasPrefix(prefix) else { return false }
        let hash = gid.utf8.dropFirst(prefix.utf8.count)
        return hash.count == 16 && hash.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static func wallClock() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec / 1_000_000)
    }
}
