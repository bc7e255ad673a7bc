import TripCore

// What the sharing commands report: the values `SharingFormat` renders.

/// Two versions of one row written without seeing each other, or a change that waits because
/// another device closed its trip.
public struct SyncConflict: Sendable, Equatable {
    /// The reason of a change that waits because another device closed its trip.
    public static let closedElsewhere = "trip closed on another device; the change waits"
    /// The reason of a purchase removed on one device and edited on another: the removal wins,
    /// and the edit waits in the trash (`trip restore`, or `trip resolve` keeping it).
    public static let removedWhileEdited = "removed on one device, edited on another; the edit is in the trash"
    /// The reason of two edits of one row made without seeing each other: the later one wins.
    public static let editedTwice = "edited on two devices"
    /// The reason of a purchase removed on one device and refunded on another that had not seen
    /// the removal: a row that someone's money still names is never removed, so the purchase stays
    /// while the refund does. Version 1 or 2 is the removal, the other the refund.
    public static let removedWhileRefunded = "removed on one device, refunded on another; it stays while the refund names it"
    public let id: Int64
    public let trip: String
    public let kind: String
    public let localID: Int64
    public let reason: String
    /// `mine` or `theirs`: the version every device applied.
    public let winner: String
    public let mine: String?
    public let theirs: String?
    public let theirsBy: String
    public let createdAt: String
    public let resolvedAt: String?
    /// The fields whose values differ between the two versions, in the row's order, as text for a
    /// reader (members by name); bookkeeping columns are left out. Empty when either version is
    /// missing or unreadable.
    public let differences: [Difference]
    /// Each version in a line (`nil`: a removal).
    public let mineSummary: String?
    public let theirsSummary: String?
    /// The same on every device that saw both versions (made of the row's global id and the two
    /// versions' clocks and devices): a resolution travels under it. Empty for a conflict listed
    /// before conflicts travelled.
    public var gid: String = ""
    /// The conflict's shared id (`c-9xk2m`, `SharedID`), made of `gid`: the same on every device;
    /// `nil` for a conflict that does not travel.
    public var sharedID: String? { gid.isEmpty ? nil : SharedID.code(.conflict, gid: gid) }
    /// The shared id of the purchase or transfer in conflict, read from `gid` (`conflict:ROW:…`,
    /// where such a row's global id is a UUID); `nil` for another kind of row.
    public var rowSharedID: String? {
        guard let kind = SharedID.Kind.allCases.first(where: { $0.noun == self.kind && $0 != .conflict }), gid.hasPrefix("conflict:"),
            let row = gid.dropFirst("conflict:".count).split(separator: ":").first
        else { return nil }
        return SharedID.code(kind, gid: String(row))
    }
    /// The two versions, the older first (by clock, then device): numbered 1 and 2 alike on
    /// every device, labelled by who wrote them.
    public var versions: [ConflictVersion] = []
    /// Who resolved it (`nil`: open): this device, or the role of the device that did.
    public var resolvedBy: String?
    /// The commands that settle it, one per version that may be kept (`trip conflicts` ends each
    /// conflict with them); empty once resolved.
    public var choices: [Choice] = []

    /// A way to settle a conflict: `trip resolve ID --keep NUMBER` and what else it does.
    public struct Choice: Sendable, Equatable {
        public let number: Int
        public let command: String
        /// What keeping it means, for a reader (`keeps what every device shows`).
        public let effect: String

        public init(number: Int, command: String, effect: String) {
            self.number = number
            self.command = command
            self.effect = effect
        }
    }

    /// What `trip resolve` did here, said as it is.
    public enum Outcome: Sendable, Equatable {
        /// The kept version is the one every device shows: nothing changed but the resolution, which travels.
        case shownAlready
        /// The kept version was written again here: it wins everywhere at the next sync.
        case writtenAgain
        /// A change that waited because the trip was closed elsewhere is sent at the next sync all the same.
        case sentPastClose
        /// A removal kept: these purchases (the row and what named it) were removed here, and are
        /// removed everywhere at the next sync.
        case removed([Int64])
    }

    public struct Difference: Sendable, Equatable {
        public let field: String
        public let mine: String
        public let theirs: String

        public init(field: String, mine: String, theirs: String) {
            self.field = field
            self.mine = mine
            self.theirs = theirs
        }
    }

    public init(
        id: Int64, trip: String, kind: String, localID: Int64, reason: String, winner: String, mine: String?, theirs: String?,
        theirsBy: String, createdAt: String, resolvedAt: String?, differences: [Difference], mineSummary: String?,
        theirsSummary: String?
    ) {
        self.id = id
        self.trip = trip
        self.kind = kind
        self.localID = localID
        self.reason = reason
        self.winner = winner
        self.mine = mine
        self.theirs = theirs
        self.theirsBy = theirsBy
        self.createdAt = createdAt
        self.resolvedAt = resolvedAt
        self.differences = differences
        self.mineSummary = mineSummary
        self.theirsSummary = theirsSummary
    }
}

/// One version of a conflicting row, as every device labels it: by the role and device that
/// wrote it, never "mine" on a device that wrote neither.
public struct ConflictVersion: Sendable, Equatable {
    /// 1 or 2: the older first, the same on every device (`trip resolve ID --keep 2`).
    public let number: Int
    /// The PostgreSQL role that pushed it (`ana`); empty when this device wrote it and no change
    /// of its own came back to name the role.
    public let author: String
    public let device: String
    /// The version's clock: with `device`, what a resolution names.
    public let hlc: Int64
    /// Written on this device.
    public let thisDevice: Bool
    /// This device's version when the conflict arose (`--keep mine`).
    public let isMine: Bool
    /// The version every device shows now: the rule's winner, or the one a resolution kept.
    public let kept: Bool
    /// The row as it travels; `nil` for a removal.
    public let payload: String?
    /// The version as a traveller reads it (a purchase: amount, date, note, payer, split);
    /// `nil` for a removal.
    public let summary: String?

    public init(
        number: Int, author: String, device: String, hlc: Int64, thisDevice: Bool, isMine: Bool, kept: Bool, payload: String?,
        summary: String?
    ) {
        self.number = number
        self.author = author
        self.device = device
        self.hlc = hlc
        self.thisDevice = thisDevice
        self.isMine = isMine
        self.kept = kept
        self.payload = payload
        self.summary = summary
    }

    /// No device wrote it: the row as the other devices have it, which is none (a change that
    /// waits because the trip was closed elsewhere, of a row the server never had).
    public var isNobodys: Bool { hlc == 0 && device.isEmpty }

    /// Who wrote it, after "version N": "by ana on device 3f2a9c1e", "on the other devices".
    public var byLine: String { isNobodys ? "on the other devices" : "by \(label)" }

    /// "ana on device 3f2a9c1e", "this device (ana)", "this device"; "the other devices" for a
    /// row that no device wrote on the server (a change that waits because the trip was closed
    /// elsewhere, of a row the others never had).
    public var label: String {
        if isNobodys { return "the other devices" }
        let short = String(device.prefix(8))
        if thisDevice { return author.isEmpty ? "this device" : "this device (\(author))" }
        guard !short.isEmpty else { return author.isEmpty ? "another device" : author }
        return "\(author.isEmpty ? "another device" : author) on device \(short)"
    }
}

/// What `trip sync` (and `share`, `join`) did for one trip.
public struct SyncResult: Sendable {
    public let trip: String
    public let home: Currency
    /// Changes the server did not have yet (a repeated push counts 0).
    public let pushed: Int
    /// Local changes sent (new or repeated).
    public let sent: Int
    public let pulled: Int
    /// Pulled changes per PostgreSQL role.
    public let pulledBy: [String: Int]
    public let rates: Int
    public let conflicts: Int
    /// The trip's net total in its home currency after the sync, and how it moved.
    public let total: Int64
    public let change: Int64
    public var grantedTo: [String] = []
    /// `trip join` of a trip this ledger had joined before (perhaps by a join killed halfway):
    /// the join brought it up to date.
    public var joinedBefore = false
    /// `trip join` of a trip with members: this device's member, the one named like its role
    /// (`.named`), or none is (`.unknown`: `trip add` needs `trip whoami` or --paid-by).
    public var joinedAs: JoinedMember?
    /// `trip remote move`: the server the trip lived on before (as the user named it then).
    public var movedFrom: String?

    /// Pulled changes that could not be applied here and were set aside (`SetAsideChange`).
    public var setAside = 0
    /// Changes of this device made while the trip was closed on another device, waiting here
    /// until it is reopened (they are sent by the first sync after), and who closed it.
    public var held = 0
    public var closedBy = ""
    /// Other devices' held changes, as each last said (`held`): the role and how many, by role.
    public var heldElsewhere: [(role: String, count: Int)] = []

    public enum JoinedMember: Sendable, Equatable {
        case named(String)
        case unknown(role: String)
    }

    public init(
        trip: String, home: Currency, pushed: Int, sent: Int, pulled: Int, pulledBy: [String: Int], rates: Int, conflicts: Int,
        total: Int64, change: Int64, grantedTo: [String] = []
    ) {
        self.trip = trip
        self.home = home
        self.pushed = pushed
        self.sent = sent
        self.pulled = pulled
        self.pulledBy = pulledBy
        self.rates = rates
        self.conflicts = conflicts
        self.total = total
        self.change = change
        self.grantedTo = grantedTo
    }
}

/// A pulled change that could not be applied on this ledger: rolled back alone, and the pull went
/// on past it (its number in the log is behind the trip's pull cursor), so no later sync stops at
/// it again. `trip conflicts` lists it with why.
public struct SetAsideChange: Sendable, Equatable {
    public let trip: String
    /// Its number in the trip's log on the server.
    public let seq: Int64
    public let kind: String
    public let gid: String
    public let op: String
    /// The role that pushed it.
    public let author: String
    /// Why it could not be applied.
    public let reason: String
    public let setAsideAt: String

    public init(trip: String, seq: Int64, kind: String, gid: String, op: String, author: String, reason: String, setAsideAt: String) {
        self.trip = trip
        self.seq = seq
        self.kind = kind
        self.gid = gid
        self.op = op
        self.author = author
        self.reason = reason
        self.setAsideAt = setAsideAt
    }
}

/// `trip sync [NAME | --all]`: each trip's result, and with `--all` the trips that failed (the
/// others still synced). The first failure's exit code is the command's.
public struct SyncRun: Sendable {
    public struct Failure: Sendable {
        public let trip: String
        /// One line, as the error says it.
        public let message: String
        public let exitCode: Int32
        public init(trip: String, message: String, exitCode: Int32) {
            self.trip = trip
            self.message = message
            self.exitCode = exitCode
        }
    }
    public var results: [SyncResult] = []
    public var failures: [Failure] = []
    public init() {}
}

/// `trip remote init`.
public struct SchemaInstall: Sendable {
    public let server: String
    public let role: String
    public let from: Int
    public let to: Int

    public init(server: String, role: String, from: Int, to: Int) {
        self.server = server
        self.role = role
        self.from = from
        self.to = to
    }
}

/// `trip remote status`.
public struct ServerStatus {
    public struct Trip: Sendable {
        public let name: String
        public let owner: String
        public let unsent: Int
        public let lastSync: String?
        public let pulled: Int64
        /// The server's last sequence number (nil: not reachable).
        public let onServer: Int64?
        /// This role can no longer see the trip on this server (its grant was taken back): nothing
        /// will be sent.
        public var revoked = false
        /// The trip lives on another server (as the user named it then): `trip remote move` moves it here.
        public var sharedOn: String?
        /// A join of it was cut short and no sync has completed since.
        public var joinedPartly = false

        public init(name: String, owner: String, unsent: Int, lastSync: String?, pulled: Int64, onServer: Int64?) {
            self.name = name
            self.owner = owner
            self.unsent = unsent
            self.lastSync = lastSync
            self.pulled = pulled
            self.onServer = onServer
        }
    }

    public let server: String
    public let known: Int
    public var reachable = false
    public var role: String?
    public var schema: Int?
    public var problem: (any Error)?
    public var trips: [Trip] = []

    public init(server: String, known: Int) {
        self.server = server
        self.known = known
    }
}
