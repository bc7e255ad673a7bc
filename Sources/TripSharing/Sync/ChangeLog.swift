import TripLedger

/// One trip's change log on the server: pushing appends, pulling reads in order.
struct ChangeLog {
    let connection: PostgresConnection
    let tripGID: String

    /// How many changes one PostgreSQL transaction carries (and one pull batch reads).
    static let batchSize = 5_000

    /// Appends the changes the log does not hold yet, numbered after its last, in one
    /// transaction: the trip's row is locked first, so two devices pushing at once are numbered
    /// one after the other, in commit order, with no gaps; a change id already present (a push
    /// repeated after a kill or a lost reply) is skipped. Returns how many were new.
    func push(_ changes: [SyncChange], device: String) throws(SharingError) -> Int {
        var added = 0
        var start = 0
        while start < changes.count {
            let batch = Array(changes[start..<min(start + ChangeLog.batchSize, changes.count)])
            start += batch.count
            try connection.query("BEGIN")
            do throws(SharingError) {
                let locked = try connection.query("SELECT last_seq FROM trip_ledger.trips WHERE gid = $1 FOR UPDATE", [tripGID])
                guard let last = locked.rows.first?[0].flatMap({ Int64($0) }) else {
                    throw SharingError.permission(
                        server: connection.displayName,
                        reason: "this role was not granted the trip (or it is no longer on the server)")
                }
                let inserted = try connection.query(
                    """
                    WITH incoming AS (
                      SELECT t.*, row_number() OVER (ORDER BY t.ord) AS n
                      FROM ROWS FROM (jsonb_to_recordset($2::jsonb)
                        AS (change_id text, kind text, gid text, op text, hlc bigint, base_hlc bigint, payload text)) WITH ORDINALITY
                        AS t(change_id, kind, gid, op, hlc, base_hlc, payload, ord)
                      WHERE NOT EXISTS (SELECT 1 FROM trip_ledger.changes c WHERE c.trip_gid = $1 AND c.change_id = t.change_id)),
                    added AS (
                      INSERT INTO trip_ledger.changes (trip_gid, seq, change_id, kind, gid, op, hlc, base_hlc, device, payload)
                      SELECT $1, $3::bigint + n, change_id, kind, gid, op, hlc, base_hlc, $4, payload FROM incoming
                      RETURNING seq)
                    SELECT count(*) AS added FROM added
                    """, [tripGID, ChangeLog.json(batch), String(last), device])
                let n = Int(inserted.value(0, "added") ?? "0") ?? 0
                if n > 0 {
                    try connection.query("UPDATE trip_ledger.trips SET last_seq = last_seq + $2::bigint WHERE gid = $1", [tripGID, String(n)])
                }
                try connection.query("COMMIT")
                added += n
            } catch {
                _ = try? connection.query("ROLLBACK")
                throw error
            }
        }
        return added
    }

    /// The changes after `seq`, in order, at most one batch; empty when there are none.
    func pull(after seq: Int64) throws(SharingError) -> [SyncChange] {
        let rows = try connection.query(
            """
            SELECT seq, change_id, kind, gid, op, hlc, base_hlc, device, author, payload FROM trip_ledger.changes
            WHERE trip_gid = $1 AND seq > $2::bigint ORDER BY seq LIMIT $3::int
            """, [tripGID, String(seq), String(ChangeLog.batchSize)])
        return rows.rows.map { r in
            SyncChange(
                changeID: r[1] ?? "", kind: r[2] ?? "", gid: r[3] ?? "", op: r[4] ?? "", hlc: Int64(r[5] ?? "") ?? 0,
                baseHLC: Int64(r[6] ?? "") ?? 0, device: r[7] ?? "", payload: r[9], seq: Int64(r[0] ?? "") ?? 0,
                author: r[8] ?? "")
        }
    }

    /// The last sequence number of the log.
    func lastSeq() throws(SharingError) -> Int64 {
        let rows = try connection.query("SELECT last_seq FROM trip_ledger.trips WHERE gid = $1", [tripGID])
        return rows.rows.first?[0].flatMap { Int64($0) } ?? 0
    }

    /// The changes as one JSON array parameter (one round trip however many there are).
    static func json(_ changes: [SyncChange]) -> String {
        JSONValue.array(
            changes.map { c in
                .object([
                    "change_id": .string(c.changeID), "kind": .string(c.kind), "gid": .string(c.gid), "op": .string(c.op),
                    "hlc": .int(c.hlc), "base_hlc": .int(c.baseHLC), "payload": JSONValue(c.payload),
                ])
            }
        ).serialized
    }
}
