/// A version of a travelling row: the hybrid logical clock and the device of the write that made
/// it.
///
/// Which of two versions wins is the one rule every device applies to every row, and the server
/// side applies when it decides what the log holds (`ChangeLog`): the later clock, then, for two
/// writes at the same clock, the larger device id. A version wins whole, never field by field.
public struct Version: Comparable, Hashable, Sendable {
    public let hlc: Int64
    public let device: String

    public init(hlc: Int64, device: String) {
        self.hlc = hlc
        self.device = device
    }

    public static func < (a: Version, b: Version) -> Bool {
        a.hlc != b.hlc ? a.hlc < b.hlc : a.device < b.device
    }
}

/// One write of a travelling row, as `Version.decide` reads it: what it did, its version, and the
/// clock of the version it was written on.
public struct RowWrite: Hashable, Sendable {
    /// What a write did to its row. A trip's close and reopen are edits of the trip row.
    public enum Op: Hashable, Sendable {
        case edit, removal, restore

        /// The op of a change as it travels: `put`, `delete` or `restore` (anything else, from a
        /// newer trip, reads as an edit).
        public init(wire op: String) {
            self = op == "delete" ? .removal : op == "restore" ? .restore : .edit
        }
    }

    public let op: Op
    public let version: Version
    /// The clock of the version the writer held when it wrote this one (0: none, or unknown).
    public let base: Int64

    public init(_ op: Op, _ version: Version, base: Int64 = 0) {
        self.op = op
        self.version = version
        self.base = base
    }

    public init(_ op: Op, hlc: Int64, device: String, base: Int64 = 0) {
        self.init(op, Version(hlc: hlc, device: device), base: base)
    }
}

/// What `Version.decide` says about an incoming write of a row against the one held.
public struct RowDecision: Equatable, Sendable {
    /// The incoming write becomes the row's winning write (the one the log's order compares the
    /// next with): a write made on the held one replaces it; of two made without seeing each
    /// other, a removal wins over an edit, and otherwise the later `Version`.
    public let incomingWins: Bool
    /// The incoming write's values replace the held ones: the later `Version`, whole, whatever
    /// each write did (an edit of a removed purchase is kept in the trash; a restore brings its
    /// values only when they are the later).
    public let valuesWin: Bool
    /// A removal or a restore changes whether the row is there: against the latest write of the
    /// other kind, by the later clock alone (at the same clock the restore wins); a removal
    /// against an edit always does (a removal wins over every edit). An edit never does: it
    /// neither removes a row nor brings a removed one back.
    public let takesEffect: Bool
    /// Neither write was made on the other (a restore is always made on the removal it undoes):
    /// two versions in conflict, listed where a reason applies.
    public let conflict: Bool
}

extension Version {
    /// The one rule of a shared trip: for one row, between the write a device (or the log's order)
    /// holds and an incoming one, which wins and whether the two are a conflict. Pure: the same
    /// two writes give the same answer on every device, whoever wrote them and whatever was
    /// applied before.
    ///
    /// `held` is what the question compares with: the row's winning write for the log's order
    /// (`incomingWins`, `conflict`), the write whose values the row shows (`valuesWin`), and, for
    /// an incoming removal or restore, the latest write of the other kind (`takesEffect`).
    public static func decide(held: RowWrite, incoming: RowWrite) -> RowDecision {
        let later = incoming.version > held.version
        let madeOnHeld = incoming.op == .restore || incoming.base == held.version.hlc
        let heldMadeOnIncoming = held.base != 0 && held.base == incoming.version.hlc
        let incomingWins: Bool
        if madeOnHeld {
            incomingWins = true
        } else if heldMadeOnIncoming {
            incomingWins = false
        } else {
            switch (held.op == .removal, incoming.op == .removal) {
            case (true, false): incomingWins = false
            case (false, true): incomingWins = true
            default: incomingWins = later
            }
        }
        let takesEffect: Bool
        switch (held.op, incoming.op) {
        // At the same clock (two devices, neither seeing the other) the restore wins, whichever
        // came first: what `isRemoved` and the ledger's `deleted_hlc > restored_hlc` say.
        case (.removal, .restore): takesEffect = incoming.version.hlc >= held.version.hlc
        case (.restore, .removal): takesEffect = incoming.version.hlc > held.version.hlc
        case (.edit, .removal): takesEffect = true
        default: takesEffect = false
        }
        return RowDecision(
            incomingWins: incomingWins, valuesWin: later, takesEffect: takesEffect, conflict: !madeOnHeld && !heldMadeOnIncoming)
    }

    /// Whether a row whose latest removal and restore have clocks `removedAt` and `restoredAt`
    /// (0: none) is removed: `decide` for the removal against the restore.
    public static func isRemoved(removedAt: Int64, restoredAt: Int64) -> Bool {
        decide(held: RowWrite(.restore, hlc: restoredAt, device: ""), incoming: RowWrite(.removal, hlc: removedAt, device: "")).takesEffect
    }
}
