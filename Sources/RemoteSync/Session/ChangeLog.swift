import Storage
import SyncRules
import TripCore
import TripLedger
import TripModel

/// One trip's change log on the server: pushing appends, pulling reads in order.
struct ChangeLog: SharedLog {
    let connection: PostgresConnection
    let tripGID: String

    /// How many changes one pull reads (and applies in one SQLite transaction).
    static let batchSize = 5_000

    var batchSize: Int { ChangeLog.batchSize }

    /// Appends the changes the log does not hold yet, numbered after its last, in one
    /// transaction: the trip's row is locked first, so two devices pushing at once are numbered
    /// one after the other, in commit order, with no gaps; a change id already present (a push
    /// repeated after a kill or a lost reply) is skipped. Returns how many were new, and, when
    /// the log held nothing this device had not pulled (`pulled`) and this push's changes follow
    /// on directly, the sequence number they end at: the device need not pull its own changes back.
    ///
    /// A change to a row of a trip that another device closed (its winning version on the server
    /// is closed, and not by this device) is not sent: it comes back in `held`, with the server's
    /// versions of the rows, to wait in `trip conflicts`. The test runs under the trip row's
    /// lock, so a close pushed at the same moment is seen by one push or the other.
    func push(_ changes: [SyncChange], device: String, pulled: Int64) throws(SharingError) -> PushResult {
        var result = PushResult()
        guard !changes.isEmpty else { return result }
        var changes = changes
        try connection.query("BEGIN")
        do throws(SharingError) {
            let last = try lock()
            // Decided by `CloseHold` from the log's versions, as every log decides it.
            if !CloseHold.holdable(changes).isEmpty, let hold = CloseHold(tripVersions: try tripVersions(), pushing: changes, device: device) {
                result.held = hold.held
                result.closedBy = hold.closedBy
                result.serverVersions = CloseHold.serverVersions(of: hold.held.map(\.gid), in: try versions(of: hold.held.map(\.gid)))
                let held = Set(result.held.map(\.changeID))
                changes.removeAll { held.contains($0.changeID) }
            }
            // `push` (schema 8) checks every change, skips those the log holds already and numbers
            // the others after the last, in the order sent; a refusal names the change and why
            // (`SharingError.changeRefused`).
            let inserted = try connection.query(
                "SELECT added, snapshots FROM trip_ledger.push($1, $2, $3::jsonb)", [tripGID, device, ChangeLog.batch(changes)])
            let n = Int(inserted.value(0, "added") ?? "0") ?? 0
            try connection.query("COMMIT")
            // A snapshot new to the log counts its purchases.
            let snapshots = Set((inserted.value(0, "snapshots") ?? "").split(separator: " ").map(String.init))
            result.added = n + changes.reduce(0) { $0 + (snapshots.contains($1.changeID) ? $1.rows - 1 : 0) }
            // Only when every change sent is new there: the device places exactly these in the
            // log's order (`markSent`); a repeated push pulls its changes back instead.
            if last == pulled && n > 0 && n == changes.count { result.ownThrough = last + Int64(n) }
        } catch {
            _ = try? connection.query("ROLLBACK")
            throw error
        }
        return result
    }

    /// How long a push waits for the trip's lock: a sync held up longer (another device's push
    /// of a large trip takes under a second; a session that holds the lock and does nothing takes
    /// for ever) says who holds it and changes nothing.
    static let lockTimeout = 5

    /// Locks the trip's row for this transaction (`lock_trip`, schema 6) and returns its last
    /// number. Waits at most `lockTimeout` seconds, then names the session holding the lock.
    private func lock() throws(SharingError) -> Int64 {
        try connection.query("SELECT set_config('lock_timeout', $1, true)", ["\(ChangeLog.lockTimeout)s"])
        let locked: PostgresRows
        do {
            locked = try connection.query("SELECT trip_ledger.lock_trip($1) AS last_seq", [tripGID])
        } catch let SharingError.server(state, _, server) where state == "55P03" {
            // The transaction failed: the holder is asked outside it.
            _ = try? connection.query("ROLLBACK")
            let holder = try? connection.query("SELECT trip_ledger.lock_holder($1) AS holder", [tripGID]).value(0, "holder")
            throw SharingError.tripLocked(server: server, holder: holder, seconds: ChangeLog.lockTimeout)
        }
        // NULL: a trip this role neither owns nor was granted.
        guard let last = locked.rows.first?[0].flatMap({ Int64($0) }) else {
            throw SharingError.permission(
                server: connection.displayName, reason: "this role was not granted the trip (or it is no longer on the server)")
        }
        return last
    }

    /// Every version of the trip row in the log, in order (a handful: its edits, closes and
    /// reopens), for `CloseHold` to pick the winner by the one rule, not by an order the server
    /// would decide.
    private func tripVersions() throws(SharingError) -> [CloseHold.TripVersion] {
        let rows = try connection.query(
            """
            SELECT hlc, device, author, trip_ledger.json_field(payload, 'closed_at') IS NOT NULL AS closed
            FROM trip_ledger.read_log($1, 0, NULL, ARRAY['trip']) WHERE payload IS NOT NULL ORDER BY seq
            """, [tripGID])
        return rows.rows.map { r in
            CloseHold.TripVersion(hlc: Int64(r[0] ?? "") ?? 0, device: r[1] ?? "", author: r[2] ?? "", closed: r[3] == "t")
        }
    }

    /// The log's changes that `CloseHold.serverVersions` reads for `gids`: every snapshot (a
    /// purchase's first version may be a row of the first share's), then the rows' own changes,
    /// each in order.
    private func versions(of gids: [String]) throws(SharingError) -> [SyncChange] {
        let list = JSONValue.array(gids.map { .string($0) }).serialized
        let snapshots = try connection.query(
            "SELECT device, payload FROM trip_ledger.read_log($1, 0, NULL, ARRAY[$2::text]) ORDER BY seq", [tripGID, PurchaseSnapshot.kind])
        let rows = try connection.query(
            """
            SELECT gid, op, hlc, device, payload, kind
            FROM trip_ledger.read_log($1, 0, NULL, NULL, ARRAY(SELECT jsonb_array_elements_text($2::jsonb)))
            ORDER BY seq
            """, [tripGID, list])
        return snapshots.rows.map { r in
            SyncChange(changeID: "", kind: PurchaseSnapshot.kind, gid: "", op: "put", hlc: 0, baseHLC: 0, device: r[0] ?? "", payload: r[1])
        }
            + rows.rows.map { r in
                SyncChange(
                    changeID: "", kind: r[5] ?? "", gid: r[0] ?? "", op: r[1] ?? "", hlc: Int64(r[2] ?? "") ?? 0, baseHLC: 0, device: r[3] ?? "",
                    payload: r[4])
            }
    }

    /// The kind of a device's note of how many of its changes wait because the trip was closed
    /// elsewhere (`pushHeldStatus`). Not a row: a device that does not know it skips it.
    static let heldKind = SyncChange.heldKind

    /// Tells the other devices that `count` changes of `device` wait for the trip to be reopened
    /// (0: none any more). Appended like any change; each device's latest one counts.
    func pushHeldStatus(_ count: Int, device: String, hlc: Int64) throws(SharingError) {
        let status = SyncChange(
            changeID: GlobalID.make(), kind: ChangeLog.heldKind, gid: "held:\(tripGID):\(device)", op: "put", hlc: hlc, baseHLC: 0,
            device: device, payload: "{\"count\":\(count)}", seq: 0, author: "")
        _ = try push([status], device: device, pulled: -1)
    }

    /// The other devices whose latest note says changes of theirs wait for a reopen: the role that
    /// pushed it and how many, by role.
    func heldElsewhere(than device: String) throws(SharingError) -> [(role: String, count: Int)] {
        let rows = try connection.query(
            """
            SELECT author, count FROM (
              SELECT DISTINCT ON (device) device, author, trip_ledger.json_field(payload, 'count') AS count
              FROM trip_ledger.read_log($1, 0, NULL, ARRAY[$2::text]) ORDER BY device, seq DESC) latest
            WHERE device <> $3 AND count ~ '^[1-9][0-9]{0,8}$' ORDER BY author, device
            """, [tripGID, ChangeLog.heldKind, device])
        return rows.rows.map { (role: $0[0] ?? "", count: Int($0[1] ?? "") ?? 0) }
    }

    /// The changes after `seq`, in order, at most one batch; empty when there are none.
    func pull(after seq: Int64) throws(SharingError) -> [SyncChange] {
        changes(
            try connection.query(
                """
                SELECT seq, change_id, kind, gid, op, hlc, base_hlc, device, author, payload,
                  (extract(epoch FROM committed_at) * 1000)::bigint AS committed_ms
                FROM trip_ledger.read_log($1, $2::bigint, $3::int) ORDER BY seq
                """, [tripGID, String(seq), String(ChangeLog.batchSize)]))
    }

    /// The trip's first version in the log (what `trip join` creates the trip from, before the
    /// pull brings the rest), or `nil` when the log has none.
    func firstTripVersion() throws(SharingError) -> SyncChange? {
        changes(
            try connection.query(
                """
                SELECT seq, change_id, kind, gid, op, hlc, base_hlc, device, author, payload,
                  (extract(epoch FROM committed_at) * 1000)::bigint AS committed_ms
                FROM trip_ledger.read_log($1, 0, NULL, ARRAY['trip']) WHERE payload IS NOT NULL ORDER BY seq LIMIT 1
                """, [tripGID])
        ).first
    }

    private func changes(_ rows: PostgresRows) -> [SyncChange] {
        rows.rows.map { r in
            var c = SyncChange(
                changeID: r[1] ?? "", kind: r[2] ?? "", gid: r[3] ?? "", op: r[4] ?? "", hlc: Int64(r[5] ?? "") ?? 0,
                baseHLC: Int64(r[6] ?? "") ?? 0, device: r[7] ?? "", payload: r[9], seq: Int64(r[0] ?? "") ?? 0,
                author: r[8] ?? "")
            c.committedAt = r.count > 10 ? Int64(r[10] ?? "") ?? 0 : 0
            c.takeWireVersion()
            return c
        }
    }

    /// The last sequence number of the log, or `nil` when this role cannot see the trip (never
    /// granted, or its grant was taken back).
    func lastSeq() throws(SharingError) -> Int64? {
        let rows = try connection.query("SELECT trip_ledger.last_seq($1) AS last_seq", [tripGID])
        return rows.rows.first?[0].flatMap { Int64($0) }
    }

    /// The changes as `push` takes them: a JSON array of objects, every value a string but the
    /// clocks, payloads (JSON themselves) as strings, byte for byte.
    static func batch(_ changes: [SyncChange]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(changes.reduce(2) { $0 + ($1.payload?.utf8.count ?? 0) + 200 })
        let hex = Array("0123456789abcdef".utf8)
        func string(_ text: String) {
            out.append(UInt8(ascii: "\""))
            var text = text
            text.withUTF8 { bytes in
                // Runs with nothing to escape (most values are one) are copied whole.
                var start = 0
                for i in 0..<bytes.count where bytes[i] < 0x20 || bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "\\") {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                    let b = bytes[i]
                    if b < 0x20 {
                        out.append(contentsOf: Array("\\u00".utf8))
                        out.append(hex[Int(b >> 4)])
                        out.append(hex[Int(b & 0x0F)])
                    } else {
                        out.append(UInt8(ascii: "\\"))
                        out.append(b)
                    }
                    start = i + 1
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            }
            out.append(UInt8(ascii: "\""))
        }
        func field(_ name: String, _ first: Bool = false) {
            if !first { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: Array("\"\(name)\":".utf8))
        }
        out.append(UInt8(ascii: "["))
        for (i, c) in changes.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "{"))
            field("change_id", true)
            string(c.changeID)
            field("kind")
            string(c.kind)
            field("gid")
            string(c.gid)
            field("op")
            string(c.op)
            field("hlc")
            out.append(contentsOf: String(c.hlc).utf8)
            field("base_hlc")
            out.append(contentsOf: String(c.baseHLC).utf8)
            field("payload")
            if let payload = c.wirePayload { string(payload) } else { out.append(contentsOf: Array("null".utf8)) }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }
}
