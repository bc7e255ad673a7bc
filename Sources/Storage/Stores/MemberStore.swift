import TripCore
import TripModel

/// The `members` table's SQL: every statement whose table is `members`, and the mapping between its
/// columns and `Member`.
package struct MemberStore {
    let db: Database
}

extension Member {
    package static let columns = Column.sqlList

    /// The result columns of `columns`, in order.
    enum Column: Int32, ColumnList {
        case id, tripID, name, joinedAt

        package var sql: StaticString {
            switch self {
            case .id: "id"
            case .tripID: "trip_id"
            case .name: "name"
            case .joinedAt: "joined_at"
            }
        }
    }

    init(row: ResultRow<Column>) {
        self.init(id: row.int(.id), tripID: row.int(.tripID), name: row.text(.name), joinedAt: row.text(.joinedAt))
    }
}

extension MemberStore {
    /// Trip `id`'s members in join order. Members who joined in the same second are in id order,
    /// except on a shared trip, where each device numbers members as they reach it: there they are
    /// in the order of their global ids (made of their names), so every device lists them alike
    /// and breaks ties of splits and settle-ups alike.
    package func members(trip id: Int64) throws -> [Member] {
        var out: [Member] = []
        try db.prepare(
            """
            SELECT \(Member.columns) FROM members WHERE trip_id = ?
            ORDER BY joined_at, coalesce((SELECT gid FROM sync_rows r WHERE r.kind = 'member' AND r.local_id = members.id), ''), id
            """
        ).forEach([.integer(id)]) {
            out.append(Member(row: $0.row()))
        }
        return out
    }

    /// Inserts a member under an id it had before (a removed member of a shared trip, added again).
    package func insert(id: Int64, trip tripID: Int64, name: String, joinedAt: String) throws {
        try db.run(
            "INSERT INTO members (id, trip_id, name, joined_at) VALUES (?, ?, ?, ?)",
            [.integer(id), .integer(tripID), .text(name), .text(joinedAt)])
    }

    package func insert(trip id: Int64, name: String, joinedAt: String) throws {
        try db.run("INSERT INTO members (trip_id, name, joined_at) VALUES (?, ?, ?)", [.integer(id), .text(name), .text(joinedAt)])
    }

    package func rename(_ id: Int64, to name: String) throws {
        try db.run("UPDATE members SET name = ? WHERE id = ?", [.text(name), .integer(id)])
    }

    /// A member by id, looked up and deleted (also by a shared trip's sync, whatever the table).
    static let existsByID = "SELECT 1 FROM members WHERE id = ?"
    static let deleteByID = "DELETE FROM members WHERE id = ?"

    package func delete(_ id: Int64) throws { try db.run(Self.deleteByID, [.integer(id)]) }

    package func name(of id: Int64) throws -> String? { try db.scalarText("SELECT name FROM members WHERE id = ?", [.integer(id)]) }

    /// The member of trip `tripID` named as the JSON object `payload`'s `name`, if any.
    /// The member of trip `tripID` named `name` (names compare without case), if any.
    package func id(trip tripID: Int64, named name: String) throws -> Int64? {
        try db.scalarInt("SELECT id FROM members WHERE trip_id = ? AND name = ?", [.integer(tripID), .text(name)])
    }

    package func id(trip tripID: Int64, namedIn payload: String) throws -> Int64? {
        try db.scalarInt("SELECT id FROM members WHERE trip_id = ? AND name = json_extract(?, '$.name')", [.integer(tripID), .text(payload)])
    }

    /// The largest id present or ever handed out (AUTOINCREMENT's `sqlite_sequence`).
    package func highestIDEverUsed() throws -> Int64 {
        max(
            try db.scalarInt("SELECT max(id) FROM members") ?? 0,
            try db.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = 'members'") ?? 0)
    }
}
