import TripModel

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
    /// Sent even though another device closed the trip: the traveller chose it (`trip resolve
    /// --keep mine`). Local only; it never travels.
    public var pastClose = false

    /// The kinds of changes that are rows inside a trip (not the trip itself, not rates).
    public static let rowKinds: Set<String> = ["member", "purchase", "transfer"]
    /// The kinds of changes that carry rates, not rows of the trip: an observation a provider
    /// published, a provider's newest date, a rate set by hand (`trip rates set`). Each device
    /// applies them, its own included, so that every device re-rates alike.
    public static let rateKinds: Set<String> = ["rate", "provider", "manual_rate"]

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

/// A local trip that is shared, and where its sync stands.
public struct SharedTrip: Sendable, Equatable {
    public let trip: Trip
    public let gid: String
    public let owner: String
    /// The server's change log is applied up to here.
    public let pulledSeq: Int64
    public let lastSync: String?
    /// Local changes not yet acknowledged by the server.
    public let unsent: Int
}

/// What one pull applied.
public struct PullSummary: Sendable, Equatable {
    public var applied = 0
    /// Per author (PostgreSQL role), changes applied.
    public var byAuthor: [String: Int] = [:]
    public var conflicts = 0
    public var rates = 0
    public init() {}
}

/// The version of a row the server's log holds, for a change that waits because another device
/// closed its trip.
public struct ServerVersion: Sendable, Equatable {
    public let gid: String
    /// `nil`: the row is deleted there (or was never sent).
    public let payload: String?
    public let hlc: Int64
    public let device: String
    public init(gid: String, payload: String?, hlc: Int64, device: String) {
        self.gid = gid
        self.payload = payload
        self.hlc = hlc
        self.device = device
    }
}

extension SyncConflict {
    /// A stored conflict, with what a reader is shown of its two versions.
    init(
        id: Int64, trip: String, kind: String, localID: Int64, reason: String, winner: String, mine: String?, theirs: String?,
        theirsBy: String, createdAt: String, resolvedAt: String?
    ) {
        self.init(
            id: id, trip: trip, kind: kind, localID: localID, reason: reason, winner: winner, mine: mine, theirs: theirs,
            theirsBy: theirsBy, createdAt: createdAt, resolvedAt: resolvedAt, differences: Self.differences(mine, theirs),
            mineSummary: Self.summary(mine), theirsSummary: Self.summary(theirs))
    }

    static func differences(_ mine: String?, _ theirs: String?) -> [Difference] {
        guard let mine = mine.flatMap(FlatJSON.fields), let theirs = theirs.flatMap(FlatJSON.fields) else { return [] }
        let theirsByName = Dictionary(theirs.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        return mine.compactMap { name, value in
            guard !SyncConflict.bookkeeping.contains(name), let other = theirsByName[name], other != value else { return nil }
            return Difference(field: name, mine: SyncConflict.readable(value, field: name), theirs: SyncConflict.readable(other, field: name))
        }
    }

    /// One version in a line: date, currency, amount (a purchase's as typed, a transfer's in minor
    /// units) and note, or name (a member); `nil` when the version is a removal.
    static func summary(_ payload: String?) -> String? {
        guard let payload else { return nil }
        guard let fields = FlatJSON.fields(payload) else { return payload }
        let byName = Dictionary(fields.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        let shown = ["date", "currency", "expression", "amount_minor", "note", "name", "payers", "shares"]
        return shown.compactMap { name in
            guard let value = byName[name], value != .null else { return nil }
            return "\(name) \(readable(value, field: name))"
        }.joined(separator: ", ")
    }

    /// Columns every edit changes, or that only this software reads.
    static let bookkeeping: Set<String> = ["created_at", "updated_at", "explicit_fields", "rate_fetched_at"]

    /// Fields that name members.
    static let memberFields: Set<String> = ["payers", "shares", "from_member", "to_member"]

    /// A field's value as text, with members (`@NAME`, or a global id `member:TRIP:NAME`) shown by name.
    static func readable(_ value: SQLValue, field: String) -> String {
        switch value {
        case .null: return "none"
        case .integer(let n): return String(n)
        case .text(let text):
            guard memberFields.contains(field) else { return text }
            return text.split(separator: ",", omittingEmptySubsequences: false).map { item in
                if item.hasPrefix("@") { return String(item.dropFirst()) }
                guard item.hasPrefix("member:"), let nameStart = item.dropFirst("member:".count).firstIndex(of: ":") else { return String(item) }
                return String(item[item.index(after: nameStart)...])
            }.joined(separator: ",")
        }
    }
}

/// A pulled change that could not be applied: a bug in the sync rules, which are meant to make
/// every change applicable in every order. Names the change and the reason; the batch it came in
/// is not applied (one transaction), and `trip sync --all` goes on with the other trips.
public struct SyncApplyError: Error, CustomStringConvertible {
    public let trip: String
    public let change: SyncChange
    public let reason: String

    public var description: String {
        "sync: \(trip): the \(change.kind) change \(change.gid) by \(change.author.isEmpty ? "another device" : change.author) "
            + "(server seq \(change.seq), \(change.op)) could not be applied: \(reason); this trip is as it was before this batch. "
            + "This is a bug in trip's sync rules: please report it"
    }
}
