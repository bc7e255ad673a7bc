import TripModel

/// The columns of the sharing code's wider statements, declared once each (see `ColumnList`).

/// A shared trip and where its sync stands (`sharedTrips`).
enum SharedTripColumn: Int32, ColumnList {
    case tripID, gid, owner, pulledSeq, lastSync, serverID, serverName, joinComplete

    package var sql: StaticString {
        switch self {
        case .tripID: "trip_id"
        case .gid: "gid"
        case .owner: "owner"
        case .pulledSeq: "pulled_seq"
        case .lastSync: "last_sync"
        case .serverID: "server_id"
        case .serverName: "server_name"
        case .joinComplete: "join_complete"
        }
    }
}

/// A prepared change waiting in the outbox (`prepareOutgoing`).
enum OutgoingColumn: Int32, ColumnList {
    case outboxID, localID, changeID, kind, gid, op, hlc, baseHLC, payload, pastClose

    package var sql: StaticString {
        switch self {
        case .outboxID: "id"
        case .localID: "local_id"
        case .changeID: "change_id"
        case .kind: "kind"
        case .gid: "gid"
        case .op: "op"
        case .hlc: "hlc"
        case .baseHLC: "base_hlc"
        case .payload: "payload"
        case .pastClose: "past_close"
        }
    }
}

/// A waiting purchase change with its row's version and references (`preparePurchases`).
enum WaitingPurchaseColumn: Int32, ColumnList {
    case outboxID, localID, hlc, pastClose, gid, versionHLC, deletedHLC, restoredHLC, refundGID, payers, shares

    package var sql: StaticString {
        switch self {
        case .outboxID: "o.id"
        case .localID: "o.local_id"
        case .hlc: "o.hlc"
        case .pastClose: "o.past_close"
        case .gid: "r.gid"
        case .versionHLC: "r.hlc"
        case .deletedHLC: "r.deleted_hlc"
        case .restoredHLC: "r.restored_hlc"
        case .refundGID: "rg.gid"
        case .payers: "s.payers"
        case .shares: "s.shares"
        }
    }
}

/// A purchase of a first share: its version and references, after its own columns
/// (`prepareSnapshot`, `RowCodec.Selection.tripPurchasesWithVersions`).
package enum SnapshotPurchaseColumn: Int32, ColumnList {
    case gid, hlc, refundGID, payers, shares

    /// The columns that name members (`MEMBER=WEIGHT,…`).
    package static let memberLists: [SnapshotPurchaseColumn] = [.payers, .shares]

    package var sql: StaticString {
        switch self {
        case .gid: "r.gid"
        case .hlc: "r.hlc"
        case .refundGID: "rg.gid"
        case .payers: "s.payers"
        case .shares: "s.shares"
        }
    }
}

/// A conflict with its trip's name (`conflicts`).
enum ConflictColumn: Int32, ColumnList {
    case id, trip, kind, localID, reason, winner, mine, theirs, theirsBy, createdAt, resolvedAt
    case gid, mineHLC, theirsHLC, mineDevice, theirsDevice, mineAuthor, theirsAuthor, thisDevice, resolvedBy, resolvedByDevice

    package var sql: StaticString {
        switch self {
        case .id: "c.id"
        case .trip: "t.name"
        case .kind: "c.kind"
        case .localID: "c.local_id"
        case .reason: "c.reason"
        case .winner: "c.winner"
        case .mine: "c.mine"
        case .theirs: "c.theirs"
        case .theirsBy: "c.theirs_by"
        case .createdAt: "c.created_at"
        case .resolvedAt: "c.resolved_at"
        case .gid: "c.conflict_gid"
        case .mineHLC: "c.mine_hlc"
        case .theirsHLC: "c.theirs_hlc"
        case .mineDevice: "c.mine_device"
        case .theirsDevice: "c.theirs_device"
        case .mineAuthor: "coalesce(dm.author, '')"
        case .theirsAuthor: "coalesce(dt.author, c.theirs_by)"
        case .thisDevice: "(SELECT device FROM sync_state WHERE id = 1)"
        case .resolvedBy: "r.author"
        case .resolvedByDevice: "r.device"
        }
    }
}

/// The version of a row this ledger holds (`applyRow`).
enum RowVersionColumn: Int32, ColumnList {
    case hlc, device, baseHLC, deletedHLC, restoredHLC

    package var sql: StaticString {
        switch self {
        case .hlc: "hlc"
        case .device: "device"
        case .baseHLC: "base_hlc"
        case .deletedHLC: "deleted_hlc"
        case .restoredHLC: "restored_hlc"
        }
    }
}

/// An outbox entry not prepared yet (`SyncStore.pending`).
enum PendingColumn: Int32, ColumnList {
    case outboxID, kind, localID, hlc, pastClose

    package var sql: StaticString {
        switch self {
        case .outboxID: "id"
        case .kind: "kind"
        case .localID: "local_id"
        case .hlc: "hlc"
        case .pastClose: "past_close"
        }
    }
}

/// The winning version of a row so far in the log's order (`SyncStore.logVersion`, m0018).
enum LogVersionColumn: Int32, ColumnList {
    case hlc, device, removed, payload

    package var sql: StaticString {
        switch self {
        case .hlc: "hlc"
        case .device: "device"
        case .removed: "removed"
        case .payload: "payload"
        }
    }
}
