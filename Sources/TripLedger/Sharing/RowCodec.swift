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

    /// The row `id` of `table` as a JSON object of every column, or `nil` when there is none.
    func read(_ table: Table, id: Int64) throws -> String? {
        let key = "read|\(db.path)|\(table.rawValue)"
        let sql: String
        if let known = RowCodec.statements.withLock({ $0[key] }) {
            sql = known
        } else {
            let pairs = try columns(table).map { "'\($0)', \"\($0)\"" }.joined(separator: ", ")
            // sql-built: the table and column names come from the schema (pragma_table_info), not from input.
            sql = "SELECT json_object(\(pairs)) FROM \"\(table.rawValue)\" WHERE id = ?"
            RowCodec.statements.withLock { $0[key] = sql }
        }
        return try db.prepare(sql).first([.integer(id)]) { $0.text(0) }
    }

    /// Writes `payload`'s columns (those this schema has, except `id` and `fixed`'s) and `fixed`'s
    /// values to row `id`: inserted, or updated in place when it exists (never deleted and
    /// re-inserted, so rows referring to it stay valid).
    func write(_ table: Table, id: Int64, payload: String, fixed: [(String, SQLValue)]) throws {
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
            let updates = all.dropFirst().map { "\"\($0)\" = excluded.\"\($0)\"" }
            let quoted = all.map { "\"\($0)\"" }.joined(separator: ", ")
            let conflict = updates.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + updates.joined(separator: ", ")
            // Column names are kept only when the payload names them too; every value is bound.
            // sql-built: the table and column names come from the schema (pragma_table_info), not from input.
            sql = """
                INSERT INTO "\(table.rawValue)" (\(quoted)) VALUES (\(values.joined(separator: ", "))) ON CONFLICT (id) \(conflict)
                """
            RowCodec.statements.withLock { $0[memoKey] = sql }
        }
        try db.run(sql, [.integer(id), .text(payload)] + fixed.map(\.1))
    }

    /// Built statements, per ledger file, table and key list (a schema does not change under a
    /// running command).
    static let statements = Mutex<[String: String]>([:])
}
