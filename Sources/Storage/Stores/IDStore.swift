/// The `id_high_water` table's SQL: the largest id ever deleted from `purchases` and from `trips`,
/// kept by m0006's triggers, so that no id is handed out twice.
package struct IDStore {
    let db: Database

    package enum Table: String {
        case purchases, trips
    }

    /// The largest id ever deleted from `table` (0 for none).
    package func highWater(_ table: Table) throws -> Int64 {
        try db.scalarInt("SELECT last_id FROM id_high_water WHERE name = ?", [.text(table.rawValue)]) ?? 0
    }
}
