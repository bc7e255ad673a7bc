import Synchronization
import TripCore
import TripModel

/// A row of a table that travels between devices, as one JSON object of its columns by name.
///
/// The columns are those the wire format declares (`WireFormat`), travelling or local-only, in the
/// table's order: a column a later migration adds does not travel until it is declared there. A
/// payload's fields this release does not declare are kept beside the row (`keepUnknownFields`,
/// m0025), never written to a column; the columns a payload leaves out keep their defaults.
package struct RowCodec {
    package enum Table: String, CaseIterable {
        case trips, members, purchases, transfers
    }

    let db: Database

    /// The wire format's declaration of the rows of `table`.
    static func declaration(_ table: Table) -> WirePayload {
        switch table {
        case .trips: WireFormat.trip
        case .members: WireFormat.member
        case .purchases: WireFormat.purchase
        case .transfers: WireFormat.transfer
        }
    }

    /// The declared columns of `table` (travelling and local-only), in the table's order.
    package func columns(_ table: Table) -> [String] {
        RowCodec.declaration(table).columnNames
    }

    /// Every column the table has now (`pragma_table_info`): what a copy of a whole row kept on
    /// this device (the trash) holds. Never what travels.
    func storedColumns(_ table: Table) throws -> [String] {
        let key = "\(db.path)|\(table.rawValue)"
        if let known = RowCodec.stored.withLock({ $0[key] }) { return known }
        var names: [String] = []
        try db.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid").forEach([.text(table.rawValue)]) { names.append($0.text(0)) }
        RowCodec.stored.withLock { $0[key] = names }
        return names
    }

    /// Which rows a read takes; `?1` is its one parameter. What follows `FROM` and the table.
    package enum Selection: String {
        /// The row whose id is `?1`.
        case row = "WHERE id = ?1"
        /// The purchases of trip `?1` whose changes wait in the outbox to be prepared (found by id:
        /// `+trip_id` keeps SQLite from scanning the trip's index instead).
        case waitingPurchases = """
            WHERE id IN (SELECT local_id FROM sync_outbox WHERE trip_id = ?1 AND change_id IS NULL AND kind = 'purchase') AND +trip_id = ?1
            """
        /// Every purchase of trip `?1`, in id order, with its version (`r`), that of the purchase it
        /// refunds (`rg`) and its split (`s`).
        case tripPurchasesWithVersions = """
            JOIN sync_rows r ON r.kind = 'purchase' AND r.local_id = purchases.id
            LEFT JOIN sync_rows rg ON rg.kind = 'purchase' AND rg.local_id = purchases.refund_of
            LEFT JOIN purchase_splits s ON s.purchase_id = purchases.id AND s.trip_id = ?1
            WHERE purchases.trip_id = ?1 ORDER BY purchases.id
            """
    }

    /// How a read gives a row: a JSON object of its columns by name, or a JSON array of their
    /// values in the order of `columns(_:without:)`.
    package enum Shape: String {
        case object = "json_object"
        case array = "json_array"
    }

    /// The declared columns of `table` but `without`, in the table's order (the order of
    /// `Shape.array`).
    package func columns(_ table: Table, without: Set<String>) -> [String] {
        columns(table).filter { !without.contains($0) }
    }

    /// The row `id` of `table` as a JSON object of its declared columns but `without`, or `nil`
    /// when there is none. `stored`: every column it has, declared or not (a copy kept on this
    /// device, never one that travels).
    package func read(_ table: Table, id: Int64, without: Set<String> = [], stored: Bool = false) throws -> String? {
        var found: String?
        let names = stored ? try storedColumns(table).filter { !without.contains($0) } : columns(table, without: without)
        let sql = select(table, .row, names: names, shape: .object, then: "")
        try db.prepare(sql).forEach([.integer(id)]) { found = $0.text(1) }
        return found
    }

    /// Each row of `table` that `selection` takes, with its id, as `read` gives it: one statement
    /// for them all (a first share reads every purchase of its trip).
    package func forEach(
        _ table: Table, _ selection: Selection, _ parameter: SQLValue, without: Set<String>, shape: Shape = .object,
        _ body: (Int64, String) throws -> Void
    ) throws {
        let sql = select(table, selection, names: columns(table, without: without), shape: shape, then: "")
        try db.prepare(sql).forEach([parameter]) { try body($0.int(0), $0.text(1)) }
    }

    /// `forEach` with the columns of `C` (over the tables `selection` joins) after the row's, and
    /// the row's JSON as bytes, valid only inside `body`: a first share copies each purchase's JSON
    /// straight into its snapshot.
    package func forEach<C: ColumnList>(
        _ table: Table, _ selection: Selection, _ parameter: SQLValue, without: Set<String>, shape: Shape, with: C.Type,
        _ body: (Int64, UnsafeBufferPointer<UInt8>, ResultRow<C>) throws -> Void
    ) throws {
        let sql = select(table, selection, names: columns(table, without: without), shape: shape, then: ", " + C.sqlList)
        try db.prepare(sql).forEach([parameter]) { statement in
            try statement.withBytes(1) { try body(statement.int(0), $0, ResultRow(statement, base: 2)) }
        }
    }

    /// The statement of `forEach`: the id, the row as `shape` gives it, then `extra`.
    private func select(_ table: Table, _ selection: Selection, names: [String], shape: Shape, then extra: String) -> String {
        let key = "read|\(db.path)|\(table.rawValue)|\(selection)|\(shape)|\(names.joined(separator: ","))|\(extra)"
        if let known = RowCodec.statements.withLock({ $0[key] }) { return known }
        // Columns are named with their table: a selection may join others.
        let arguments = names.map { shape == .object ? "'\($0)', \"\(table.rawValue)\".\"\($0)\"" : "\"\(table.rawValue)\".\"\($0)\"" }
        // sql-built: the table and column names come from the wire format's declaration or the schema (pragma_table_info), the selection, shape and extra columns are our constants; not input.
        let sql = """
            SELECT "\(table.rawValue)".id, \(shape.rawValue)(\(arguments.joined(separator: ", ")))\(extra) FROM "\(table.rawValue)" \(selection.rawValue)
            """
        RowCodec.statements.withLock { $0[key] = sql }
        return sql
    }

    /// Writes `payload`'s columns (those this schema has, except `id` and `fixed`'s) and `fixed`'s
    /// values to row `id`: inserted, or updated in place when it exists (never deleted and
    /// re-inserted, so rows referring to it stay valid).
    ///
    /// The payload's fields this release does not declare are kept beside the row, as they came
    /// (`keepUnknownFields`); a payload without any clears what the row kept (a version wins whole).
    package func write(_ table: Table, id: Int64, payload: String, fixed: [(String, SQLValue)]) throws {
        if let fields = FlatJSON.fields(payload) {
            try write(table, id: id, fields: fields, fixed: fixed)
            try keepUnknownFields(table, id: id, try unknownFields(table, fields))
            return
        }
        // Every row of a pull has the same keys: the statement is built once per key list.
        let keys = try db.scalarText("SELECT group_concat(key, ',') FROM json_each(?)", [.text(payload)]) ?? ""
        let fixedNames = fixed.map(\.0)
        let memoKey = "write|\(db.path)|\(table.rawValue)|\(fixedNames.joined(separator: ","))|\(keys)"
        let sql: String
        if let known = RowCodec.statements.withLock({ $0[memoKey] }) {
            sql = known
        } else {
            let present = Set(keys.split(separator: ",").map(String.init))
            let names = RowCodec.writtenColumns(table).filter { present.contains($0) && !fixedNames.contains($0) }
            let all = ["id"] + fixedNames + names
            let values = ["?1"] + fixed.indices.map { "?\($0 + 3)" } + names.map { "json_extract(?2, '$.\"\($0)\"')" }
            // Declared column names are kept only when the payload names them too; every value is bound.
            sql = RowCodec.upsert(table, columns: all, values: values)
            RowCodec.statements.withLock { $0[memoKey] = sql }
        }
        try db.run(sql, [.integer(id), .text(payload)] + fixed.map(\.1))
    }

    /// `write` with the payload already read: its values are bound, not extracted by SQLite.
    private func write(_ table: Table, id: Int64, fields: [(String, SQLValue)], fixed: [(String, SQLValue)]) throws {
        let fixedNames = fixed.map(\.0)
        var keys = ""
        for (name, _) in fields {
            keys += name
            keys += ","
        }
        let statement = try boundWrite(table, names: fields.map(\.0), memoKey: keys, fixed: fixedNames)
        var values: [SQLValue] = [.integer(id)] + fixed.map(\.1)
        for i in statement.kept { values.append(fields[i].1) }
        try db.run(statement.sql, values)
    }

    /// The statement that writes a row from values for `names` (bound as `?1` the id, then `fixed`'s,
    /// then those of `names` this schema has, but `id` and `fixed`'s): its SQL, and the positions in
    /// `names` it binds. `memoKey` stands for `names` (a pull's rows share one key list).
    private func boundWrite(_ table: Table, names: [String], memoKey: String, fixed fixedNames: [String]) throws -> (sql: String, kept: [Int]) {
        let memoKey = "\(db.path)|\(table.rawValue)|\(fixedNames.joined(separator: ","))|\(memoKey)"
        if let known = RowCodec.boundStatements.withLock({ $0[memoKey] }) { return known }
        let kept = try keptColumns(table, names: names, fixed: fixedNames)
        let all = ["id"] + fixedNames + kept.map { names[$0] }
        let statement = (RowCodec.upsert(table, columns: all, values: all.indices.map { "?\($0 + 1)" }), kept)
        RowCodec.boundStatements.withLock { $0[memoKey] = statement }
        return statement
    }

    /// A write of many new rows at once (a join's snapshot): a `BatchInsert` of rows of the
    /// id, `fixed`'s values, then those of the columns of `names` this schema has, and the
    /// positions in `names` it binds.
    package func batchInsert(_ table: Table, names: [String], fixed fixedNames: [String]) throws -> (insert: BatchInsert, kept: [Int]) {
        let kept = try keptColumns(table, names: names, fixed: fixedNames)
        let all = ["id"] + fixedNames + kept.map { names[$0] }
        let row = "(" + Array(repeating: "?", count: all.count).joined(separator: ", ") + ")"
        return (BatchInsert(db: db, prefix: RowCodec.insertPrefix(table, columns: all, orFail: true), row: row), kept)
    }

    /// The positions in `names` of the columns a payload writes (`writtenColumns`), but `fixed`'s.
    private func keptColumns(_ table: Table, names: [String], fixed fixedNames: [String]) throws -> [Int] {
        let columns = Set(RowCodec.writtenColumns(table))
        return names.indices.filter { i in
            let name = names[i]
            return columns.contains(name) && !fixedNames.contains(name)
        }
    }

    /// The columns a payload's fields are written to: the declared fields stored as they travel
    /// (a reference's local id is the caller's, in `fixed`).
    static func writtenColumns(_ table: Table) -> [String] {
        declaration(table).columns.compactMap {
            guard case .field(let f) = $0, f.storage == .column else { return nil }
            return f.name
        }
    }

    // MARK: fields this release does not declare

    /// The fields of a pulled payload that `table`'s rows do not declare (nor are columns of it
    /// here), as one JSON object; `nil` when there are none.
    func unknownFields(_ table: Table, _ fields: [(String, SQLValue)]) throws -> String? {
        let declared = RowCodec.declaration(table)
        guard declared.hasUndeclaredField(fields) else { return nil }
        let local = Set(try storedColumns(table)).union(declared.columnNames)
        return WireFormat.unknownFields(kind: table.kind, fields.filter { !local.contains($0.0) })
    }

    /// Keeps `unknown` (`unknownFields`) beside row `id`, or forgets what it kept when `nil`.
    package func keepUnknownFields(_ table: Table, id: Int64, _ unknown: String?) throws {
        if let unknown {
            db.transactionFacts.remove(RowCodec.nothingKept)
            try db.run(
                "INSERT INTO sync_unknown_fields (kind, local_id, fields) VALUES (?, ?, ?) ON CONFLICT (kind, local_id) DO UPDATE SET fields = excluded.fields",
                [.text(table.kind), .integer(id), .text(unknown)])
        } else if try !nothingKept() {
            try db.run("DELETE FROM sync_unknown_fields WHERE kind = ? AND local_id = ?", [.text(table.kind), .integer(id)])
        }
    }

    /// The fact (`Database.transactionFacts`) that no row keeps unknown fields.
    private static let nothingKept = "sync_unknown_fields is empty"

    /// Whether no row keeps unknown fields, learned once per transaction: until a newer release
    /// writes fields this one does not know, nothing is kept, and a pull of 5,000 rows would
    /// otherwise run 5,000 DELETEs that find nothing (about 5% of such a pull).
    private func nothingKept() throws -> Bool {
        guard db.inTransaction else { return false }
        if db.transactionFacts.contains(RowCodec.nothingKept) { return true }
        guard try db.scalarInt("SELECT NOT EXISTS (SELECT 1 FROM sync_unknown_fields)") == 1 else { return false }
        db.transactionFacts.insert(RowCodec.nothingKept)
        return true
    }

    /// The fields row `id` keeps that this release does not declare (a JSON object), or `nil`.
    package func keptUnknownFields(_ table: Table, id: Int64) throws -> String? {
        try db.scalarText("SELECT fields FROM sync_unknown_fields WHERE kind = ? AND local_id = ?", [.text(table.kind), .integer(id)])
    }

    /// `keptUnknownFields` of the purchases of trip `trip` waiting in the outbox, by local id.
    package func keptUnknownFieldsOfWaitingPurchases(trip: Int64) throws -> [Int64: String] {
        var out: [Int64: String] = [:]
        try db.prepare(
            """
            SELECT local_id, fields FROM sync_unknown_fields WHERE kind = 'purchase'
            AND local_id IN (SELECT local_id FROM sync_outbox WHERE trip_id = ?1 AND change_id IS NULL AND kind = 'purchase')
            """
        ).forEach([.integer(trip)]) { out[$0.int(0)] = $0.text(1) }
        return out
    }

    /// Inserts row `id` with `values` (SQL expressions of bound parameters) for `columns`, or
    /// updates it in place when it exists.
    private static func upsert(_ table: Table, columns: [String], values: [String]) -> String {
        let updates = columns.dropFirst().map { "\"\($0)\" = excluded.\"\($0)\"" }
        let conflict = updates.isEmpty ? " ON CONFLICT (id) DO NOTHING" : " ON CONFLICT (id) DO UPDATE SET " + updates.joined(separator: ", ")
        return insertPrefix(table, columns: columns, orFail: false) + "(" + values.joined(separator: ", ") + ")" + conflict
    }

    /// `INSERT [OR FAIL] INTO "table" ("column", …) VALUES `.
    private static func insertPrefix(_ table: Table, columns: [String], orFail: Bool) -> String {
        let quoted = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        // sql-built: the table and column names come from the wire format's declaration, not from input.
        return "INSERT \(orFail ? "OR FAIL " : "")INTO \"\(table.rawValue)\" (\(quoted)) VALUES "
    }

    /// Statements for payloads read in Swift, with the positions of the payload's fields each binds.
    static let boundStatements = Mutex<[String: (sql: String, kept: [Int])]>([:])

    /// Built statements, per ledger file, table and key list (a schema does not change under a
    /// running command).
    package static let statements = Mutex<[String: String]>([:])

    /// `storedColumns`, per ledger file and table.
    package static let stored = Mutex<[String: [String]]>([:])
}
