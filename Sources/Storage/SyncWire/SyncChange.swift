import TripCore

// The wire format of shared trips: what a change looks like as it travels between a device and
// the server, read and written by both sides (the ledger's sync rules, `RemoteSync`'s session).
// A purchase snapshot (`PurchaseSnapshot.swift`) and which version wins (`Version.swift`) are
// beside it; payloads are read with `FlatJSON` and `JSONReader`.

/// A change as it travels: one row of a shared trip, whole, with the clock that orders it.
public struct SyncChange: Sendable, Equatable {
    /// Unique for ever; the server keeps each once, so a repeated push adds nothing.
    public var changeID: String
    /// `trip`, `member`, `purchase` (or `snapshot`, many purchases), `transfer`, or one of
    /// `rateKinds`.
    public var kind: String
    /// The row's global id.
    public var gid: String
    /// `put`, `delete` or `restore`.
    public var op: String
    /// Hybrid logical clock of the write: milliseconds * 65536 + counter.
    public var hlc: Int64
    /// The clock of the version this one was edited from (0: a new row): two versions with
    /// neither built on the other are a conflict.
    public var baseHLC: Int64
    public var device: String
    /// The row as a JSON object of its columns (references to other rows by global id); `nil`
    /// for a delete.
    public var payload: String?
    /// The server's sequence number (pulls only) and the role that pushed it.
    public var seq: Int64 = 0
    public var author: String = ""
    /// When the server committed it, in milliseconds since 1970 (pulls only; 0: not known): a
    /// clock far beyond it is refused (`PulledChangeCheck`).
    public var committedAt: Int64 = 0
    /// Sent even though another device closed the trip: the traveller chose it (`trip resolve
    /// --keep mine`). Local only; it never travels.
    public var pastClose = false
    /// The wire format version the payload named (`WireFormat`), taken out of it as it was pulled
    /// (`takeWireVersion`); `nil`: it named none (1.0, what releases before the declaration wrote).
    public var wireVersion: WireVersion?

    /// The kinds of changes that are rows inside a trip (not the trip itself, not rates).
    public static let rowKinds: Set<String> = ["member", "purchase", "transfer"]
    /// The kinds of changes that carry rates, not rows of the trip: an observation a provider
    /// published, a provider's newest date, a rate set by hand (`trip rates set`). Each device
    /// applies them, its own included, so that every device re-rates alike.
    public static let rateKinds: Set<String> = ["rate", "provider", "manual_rate"]
    /// The kind of a device's note of how many of its changes wait for a reopen: not a row, and
    /// no device applies it (the server's session reads it).
    public static let heldKind = "held"

    /// How many rows of the trip the change carries, as a traveller counts them: a snapshot's
    /// purchases, 1 for any other change.
    public var rows: Int { kind == PurchaseSnapshot.kind ? PurchaseSnapshot.count(in: payload) : 1 }

    public init(
        changeID: String, kind: String, gid: String, op: String, hlc: Int64, baseHLC: Int64, device: String,
        payload: String?, seq: Int64 = 0, author: String = ""
    ) {
        self.changeID = changeID
        self.kind = kind
        self.gid = gid
        self.op = op
        self.hlc = hlc
        self.baseHLC = baseHLC
        self.device = device
        self.payload = payload
        self.seq = seq
        self.author = author
    }
}

extension SyncChange {
    /// The payload as it travels: with this release's wire format version (`WireFormat.stamped`).
    public var wirePayload: String? { payload.map { WireFormat.stamped($0, kind: kind) } }

    /// Takes the wire format version out of a pulled payload into `wireVersion`, so that what is
    /// applied, compared and listed is the row alone.
    public mutating func takeWireVersion() {
        guard let payload else { return }
        let (rest, version) = WireFormat.unstamped(payload)
        self.payload = rest
        wireVersion = version
    }
}

/// The version of a row the server's log holds, for a change that waits because another device
/// closed its trip.
public struct ServerVersion: Sendable, Equatable {
    public let gid: String
    /// `nil`: the row is deleted there (or was never sent).
    public let payload: String?
    public let hlc: Int64
    public let device: String
    /// A deleted row's latest version before its removal: what the other devices show where a
    /// row still names it and the removal was not applied.
    public let removedPayload: String?
    /// The clocks of the row's latest removal and latest restore in the log (0: none): whether
    /// it is removed there, which a device that held its own removal or restore goes back to.
    public let removedAt: Int64
    public let restoredAt: Int64
    /// The payloads are read from the log as they travel: without their wire format version.
    public init(
        gid: String, payload: String?, hlc: Int64, device: String, removedPayload: String? = nil, removedAt: Int64 = 0, restoredAt: Int64 = 0
    ) {
        self.gid = gid
        self.payload = payload.map { WireFormat.unstamped($0).payload }
        self.hlc = hlc
        self.device = device
        self.removedPayload = removedPayload.map { WireFormat.unstamped($0).payload }
        self.removedAt = removedAt
        self.restoredAt = restoredAt
    }
}

/// What a push did.
public struct PushResult: Sendable {
    /// Rows new to the log (a snapshot counts its purchases).
    public var added = 0
    /// The log is read through here when this push's changes directly followed what the device
    /// had pulled.
    public var ownThrough: Int64?
    /// Changes not sent because another device closed the trip, that role, and the server's
    /// versions of those rows.
    public var held: [SyncChange] = []
    public var closedBy: String?
    public var serverVersions: [ServerVersion] = []
    public init() {}
}

/// `trip resolve` as it travels (kind `resolution`): which version of conflict `conflictGID` to
/// keep, decided at clock `hlc` on `device` (by `author`, the role that pushed it).
package struct ConflictResolution: Equatable {
    package static let kind = "resolution"
    package let conflictGID: String
    package let keptHLC: Int64
    package let keptDevice: String
    package let hlc: Int64
    package let device: String
    package var author: String = ""

    package var change: SyncChange {
        let payload = JSONValue.object([
            "conflict": .string(conflictGID), "kept_hlc": .int(keptHLC), "kept_device": .string(keptDevice),
        ])
        return SyncChange(
            changeID: "\(Self.kind):\(conflictGID):\(hlc):\(device)", kind: Self.kind, gid: "\(Self.kind):\(conflictGID)", op: "put",
            hlc: hlc, baseHLC: 0, device: device, payload: payload.serialized)
    }

    package init(conflictGID: String, keptHLC: Int64, keptDevice: String, hlc: Int64, device: String, author: String = "") {
        self.conflictGID = conflictGID
        self.keptHLC = keptHLC
        self.keptDevice = keptDevice
        self.hlc = hlc
        self.device = device
        self.author = author
    }

    /// A pulled `resolution` change; `nil` when its payload is not one.
    package init?(_ c: SyncChange) {
        guard let payload = c.payload, let fields = FlatJSON.fields(payload) else { return nil }
        let f = Dictionary(fields.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        guard case .text(let gid)? = f["conflict"], case .integer(let kept)? = f["kept_hlc"], case .text(let keptDevice)? = f["kept_device"]
        else { return nil }
        self.init(conflictGID: gid, keptHLC: kept, keptDevice: keptDevice, hlc: c.hlc, device: c.device, author: c.author)
    }
}
