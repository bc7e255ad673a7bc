import Storage
import SyncRules

/// A shared trip's change log in memory, for running the sync rules without PostgreSQL: push
/// appends the changes it does not hold yet (by change id), numbered after its last, in the
/// order sent; pull reads them back in order, a batch at a time, with the role that pushed each.
///
/// A push to a trip another device closed is held as `ChangeLog.push` holds it, by the same pure
/// rules (`CloseHold`) over this log's changes: the rows' changes come back in `held`, with the
/// closer's role and the log's versions of those rows, and are not appended.
///
/// What it leaves to the PostgreSQL tests: the server's checks of each change
/// (`trip_ledger.push`), its row-level security, device binding, and the trip row's lock that
/// orders two pushes at once.
public final class InMemoryLog: SharedLog {
    public private(set) var changes: [SyncChange] = []
    public let batchSize: Int
    /// The role that pushes as each device; a device not listed pushes as itself.
    public var roles: [String: String]
    private var known: Set<String> = []

    public init(batchSize: Int = 5_000, roles: [String: String] = [:]) {
        self.batchSize = batchSize
        self.roles = roles
    }

    public var lastSeq: Int64 { Int64(changes.count) }

    public func push(_ pushed: [SyncChange], device: String, pulled: Int64) throws -> PushResult {
        var result = PushResult()
        guard !pushed.isEmpty else { return result }
        var pushed = pushed
        if let hold = CloseHold(tripVersions: changes.compactMap(CloseHold.TripVersion.init), pushing: pushed, device: device) {
            result.held = hold.held
            result.closedBy = hold.closedBy
            result.serverVersions = CloseHold.serverVersions(of: hold.held.map(\.gid), in: changes)
            let held = Set(hold.held.map(\.changeID))
            pushed.removeAll { held.contains($0.changeID) }
        }
        let last = lastSeq
        var added = 0
        for c in pushed where known.insert(c.changeID).inserted {
            var stored = c
            // Stored as it travels: the payload stamped with its wire version, read back on pull.
            stored.payload = c.wirePayload
            stored.seq = Int64(changes.count + 1)
            stored.author = roles[device] ?? device
            changes.append(stored)
            added += 1
            result.added += c.rows
        }
        if last == pulled && added > 0 && added == pushed.count { result.ownThrough = last + Int64(added) }
        return result
    }

    public func pull(after seq: Int64) throws -> [SyncChange] {
        changes.dropFirst(Int(max(0, seq))).prefix(batchSize).map { c in
            var c = c
            c.takeWireVersion()
            return c
        }
    }

    public func pushHeldStatus(_ count: Int, device: String, hlc: Int64) throws {
        let status = SyncChange(
            changeID: GlobalID.make(), kind: SyncChange.heldKind, gid: "held:\(device)", op: "put", hlc: hlc, baseHLC: 0,
            device: device, payload: "{\"count\":\(count)}", seq: 0, author: "")
        _ = try push([status], device: device, pulled: -1)
    }

    public func heldElsewhere(than device: String) throws -> [(role: String, count: Int)] {
        var latest: [String: (role: String, count: Int)] = [:]
        for c in changes where c.kind == SyncChange.heldKind && c.device != device {
            var note = c
            note.takeWireVersion()
            let count = note.payload.flatMap(FlatJSON.fields)?.first { $0.0 == "count" }.flatMap { field -> Int? in
                if case .integer(let n) = field.1 { Int(n) } else { nil }
            }
            latest[c.device] = (c.author, count ?? 0)
        }
        return latest.sorted { ($0.value.role, $0.key) < ($1.value.role, $1.key) }.map(\.value).filter { $0.count > 0 }
    }
}
