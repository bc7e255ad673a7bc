import TripCore
import TripModel

/// The `trips` table's SQL: every statement whose table is `trips`, and the mapping between its
/// columns and `Trip`.
package struct TripStore {
    let db: Database
}

extension Trip {
    package static let columns = Column.sqlList

    /// The result columns of `columns`, in order.
    package enum Column: Int32, ColumnList {
        case id, name, localCurrency, homeCurrency, start, end, presets, budget, createdAt, closedAt

        package var sql: StaticString {
            switch self {
            case .id: "id"
            case .name: "name"
            case .localCurrency: "local_currency"
            case .homeCurrency: "home_currency"
            case .start: "start_date"
            case .end: "end_date"
            case .presets: "preset"
            case .budget: "budget_minor"
            case .createdAt: "created_at"
            case .closedAt: "closed_at"
            }
        }
    }

    init(row: ResultRow<Column>) {
        self.init(
            id: row.int(.id), name: row.text(.name),
            localCurrency: row.optionalText(.localCurrency).flatMap { CurrencyTable.shared.lookup($0) },
            homeCurrency: .stored(row.text(.homeCurrency)), start: row.optionalText(.start).flatMap { CivilDate(iso: $0) },
            end: row.optionalText(.end).flatMap { CivilDate(iso: $0) },
            presets: (row.optionalText(.presets) ?? "").split(separator: ",").map(String.init), budgetMinor: row.optionalInt(.budget),
            createdAt: row.text(.createdAt), closedAt: row.optionalText(.closedAt))
    }
}

extension TripStore {
    /// Inserts a trip under `id` (never one a deleted trip had: `Ledger.nextID`).
    package func insert(
        id: Int64, name: String, local: Currency?, home: Currency, start: CivilDate?, end: CivilDate?, presets: String?,
        budget: Int64?, createdAt: String
    ) throws {
        // Every column `Trip` reads, so a new one needs its value here too.
        try db.run(
            "INSERT INTO trips (\(Trip.columns)) VALUES (\(Trip.Column.placeholders))",
            Trip.Column.allCases.map { column -> SQLValue in
                switch column {
                case .id: .integer(id)
                case .name: .text(name)
                case .localCurrency: SQLValue(local?.code)
                case .homeCurrency: .text(home.code)
                case .start: SQLValue(start?.description)
                case .end: SQLValue(end?.description)
                case .presets: SQLValue(presets)
                case .budget: SQLValue(budget)
                case .createdAt: .text(createdAt)
                case .closedAt: .null
                }
            })
    }

    package func trip(id: Int64) throws -> Trip? {
        try db.prepare("SELECT \(Trip.columns) FROM trips WHERE id = ?").first([.integer(id)], { Trip(row: $0.row()) })
    }

    /// The trip named exactly `name`, or nil.
    package func trip(named name: String) throws -> Trip? {
        try db.prepare("SELECT \(Trip.columns) FROM trips WHERE name = ?").first([.text(name)], { Trip(row: $0.row()) })
    }

    /// All trips, oldest first.
    package func all() throws -> [Trip] {
        var out: [Trip] = []
        try db.prepare("SELECT \(Trip.columns) FROM trips ORDER BY id").forEach { out.append(Trip(row: $0.row())) }
        return out
    }

    /// A trip by id, looked up and deleted (also by a shared trip's sync, whatever the table).
    static let existsByID = "SELECT 1 FROM trips WHERE id = ?"
    static let deleteByID = "DELETE FROM trips WHERE id = ?"

    package func exists(_ id: Int64) throws -> Bool { try db.scalarInt(Self.existsByID, [.integer(id)]) != nil }

    /// The largest id present (0 for none).
    package func maxID() throws -> Int64 { try db.scalarInt("SELECT max(id) FROM trips") ?? 0 }

    package func setPresets(_ presets: String?, trip id: Int64) throws {
        try db.run("UPDATE trips SET preset = ? WHERE id = ?", [SQLValue(presets), .integer(id)])
    }

    package func rename(_ id: Int64, to name: String) throws {
        try db.run("UPDATE trips SET name = ? WHERE id = ?", [.text(name), .integer(id)])
    }

    /// Closes trip `id` at `time`; a closed trip keeps the first date.
    package func close(_ id: Int64, at time: String) throws {
        try db.run("UPDATE trips SET closed_at = coalesce(closed_at, ?) WHERE id = ?", [.text(time), .integer(id)])
    }

    package func reopen(_ id: Int64) throws { try db.run("UPDATE trips SET closed_at = NULL WHERE id = ?", [.integer(id)]) }

    /// Deletes trip `id`; its purchases, members and splits go with it (foreign keys).
    package func delete(_ id: Int64) throws { try db.run(Self.deleteByID, [.integer(id)]) }
}
