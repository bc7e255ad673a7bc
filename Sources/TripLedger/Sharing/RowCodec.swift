import Synchronization
import TripCore

/// A row of a table that travels between devices, as one JSON object of its columns by name.
///
/// The columns come from the schema (`pragma_table_info`), so a column added by a later migration
/// travels without a change here; a payload from a device with fewer or more columns writes only
/// the columns both know, and the others keep their defaults.
struct RowCodec {
    enum Table: String, CaseIterable {
        case trips, members, purchases, transfers
    }

    let db: Database

    func columns(_ table: Table) throws -> [String] {
        var names: [String] = []
        try db.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid").forEach([.text(table.rawValue)]) { names.append($0.text(0)) }
        return names
    }

    /// Which rows a read takes; `?1` is its one parameter.
    enum Selection: String {
        /// The row whose id is `?1`.
        case row = "WHERE id = ?1"
        /// The purchases of trip `?1` whose changes wait in the outbox to be prepared.
        case waitingPurchases = "WHERE id IN (SELECT local_id FROM sync_outbox WHERE trip_id = ?1 AND change_id IS NULL AND kind = 'purchase')"
    }

    /// The row `id` of `table` as a JSON object of its columns but `without`, or `nil` when there
    /// is none.
    func read(_ table: Table, id: Int64, without: Set<String> = []) throws -> String? {
        var found: String?
        try forEach(table, .row, .integer(id), without: without) { found = $1 }
        return found
    }

    /// Each row of `table` that `selection` takes, with its id, as `read` gives it: one statement
    /// for them all (a first share reads every purchase of its trip).
    func forEach(_ table: Table, _ selection: Selection, _ parameter: SQLValue, without: Set<String>, _ body: (Int64, String) throws -> Void)
        throws
    {
        let key = "read|\(db.path)|\(table.rawValue)|\(selection)|\(without.sorted().joined(separator: ","))"
        let sql: String
        if let known = RowCodec.statements.withLock({ $0[key] }) {
            sql = known
        } else {
            let pairs = try columns(table).filter { !without.contains($0) }.map { "'\($0)', \"\($0)\"" }
            // sql-built: the table and column names come from the schema (pragma_table_info), the selection is one of our constants; not input.
            sql = "SELECT id, json_object(\(pairs.joined(separator: ", "))) FROM \"\(table.rawValue)\" \(selection.rawValue)"
            RowCodec.statements.withLock { $0[key] = sql }
        }
        try db.prepare(sql).forEach([parameter]) { try body($0.int(0), $0.text(1)) }
    }

    /// Writes `payload`'s columns (those this schema has, except `id` and `fixed`'s) and `fixed`'s
    /// values to row `id`: inserted, or updated in place when it exists (never deleted and
    /// re-inserted, so rows referring to it stay valid).
    func write(_ table: Table, id: Int64, payload: String, fixed: [(String, SQLValue)]) throws {
        if let fields = FlatJSON.fields(payload) {
            try write(table, id: id, fields: fields, fixed: fixed)
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
            let names = try columns(table).filter { $0 != "id" && present.contains($0) && !fixedNames.contains($0) }
            let all = ["id"] + fixedNames + names
            let values = ["?1"] + fixed.indices.map { "?\($0 + 3)" } + names.map { "json_extract(?2, '$.\"\($0)\"')" }
            // Column names are kept only when the payload names them too; every value is bound.
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
        let memoKey = "\(db.path)|\(table.rawValue)|\(fixedNames.joined(separator: ","))|\(keys)"
        let statement: (sql: String, kept: [Int])
        if let known = RowCodec.boundStatements.withLock({ $0[memoKey] }) {
            statement = known
        } else {
            let columns = Set(try self.columns(table))
            let kept = fields.indices.filter { i in
                let name = fields[i].0
                return name != "id" && columns.contains(name) && !fixedNames.contains(name)
            }
            let all = ["id"] + fixedNames + kept.map { fields[$0].0 }
            statement = (RowCodec.upsert(table, columns: all, values: all.indices.map { "?\($0 + 1)" }), kept)
            RowCodec.boundStatements.withLock { $0[memoKey] = statement }
        }
        var values: [SQLValue] = [.integer(id)] + fixed.map(\.1)
        for i in statement.kept { values.append(fields[i].1) }
        try db.run(statement.sql, values)
    }

    /// Inserts row `id` with `values` (SQL expressions of bound parameters) for `columns`, or
    /// updates it in place when it exists.
    private static func upsert(_ table: Table, columns: [String], values: [String]) -> String {
        let updates = columns.dropFirst().map { "\"\($0)\" = excluded.\"\($0)\"" }
        let quoted = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        let conflict = updates.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + updates.joined(separator: ", ")
        // sql-built: the table and column names come from the schema (pragma_table_info), not from input.
        return """
            INSERT INTO "\(table.rawValue)" (\(quoted)) VALUES (\(values.joined(separator: ", "))) ON CONFLICT (id) \(conflict)
            """
    }

    /// Statements for payloads read in Swift, with the positions of the payload's fields each binds.
    static let boundStatements = Mutex<[String: (sql: String, kept: [Int])]>([:])

    /// Built statements, per ledger file, table and key list (a schema does not change under a
    /// running command).
    static let statements = Mutex<[String: String]>([:])
}
