import TripCore

extension Ledger {
    /// The id for a new row of `table` (`purchases` or `trips`): above every id present and every
    /// id ever deleted (`id_high_water`, kept by m0006's triggers), so no id is handed out twice.
    func nextID(_ table: IDTable) throws -> Int64 {
        let present: Int64
        switch table {
        case .purchases: present = try db.scalarInt("SELECT max(id) FROM purchases") ?? 0
        case .trips: present = try db.scalarInt("SELECT max(id) FROM trips") ?? 0
        }
        return max(present, try highWater(table)) + 1
    }

    /// The largest id ever deleted from `table`.
    func highWater(_ table: IDTable) throws -> Int64 {
        try db.scalarInt("SELECT last_id FROM id_high_water WHERE name = ?", [.text(table.rawValue)]) ?? 0
    }

    enum IDTable: String {
        case purchases, trips
    }

    /// Every column of `purchases`, as the schema has it now (later migrations add columns).
    func purchaseColumnNames() throws -> [String] {
        var names: [String] = []
        try db.prepare("SELECT name FROM pragma_table_info('purchases') ORDER BY cid").forEach { names.append($0.text(0)) }
        return names
    }

    /// `trip rm ID`: moves the purchase to the trash (`removed_purchases`), whole and under its id,
    /// and returns it. `trip restore ID` undoes it. A purchase with refunds is refused, naming them:
    /// remove the refunds first.
    public func removePurchase(_ idText: String) throws -> Purchase {
        let id = try Ledger.parseID(idText)
        return try db.transaction {
            let p = try purchase(id: id)
            try requireOpen(try trip(id: p.tripID)!)
            // A purchase with refunds is refused, naming them, so no refund points at nothing.
            let refunds = try refundIDs(of: id)
            if !refunds.isEmpty {
                let list = refunds.map { "#\($0)" }.joined(separator: ", ")
                throw TripError.badTextValue(
                    field: "id", value: idText,
                    reason: """
                        has refund\(refunds.count == 1 ? "" : "s") \(list); remove \(refunds.count == 1 ? "it" : "them") first
                        """)
            }
            let pairs = try purchaseColumnNames().map { "'\($0)', \"\($0)\"" }.joined(separator: ", ")
            try db.run(
                // sql-built: the column names come from the schema (pragma_table_info), not from input.
                """
                INSERT INTO removed_purchases (id, trip_id, removed_at, row)
                SELECT id, trip_id, ?, json_object(\(pairs)) FROM purchases WHERE id = ?
                """, [.text(clock.now), .integer(id)])
            try db.run("DELETE FROM purchases WHERE id = ?", [.integer(id)])
            return p
        }
    }

    /// `trip restore ID`: brings a removed purchase back from the trash with its id and every stored
    /// value as it was (its rate included). Its trip must still be open.
    public func restorePurchase(_ idText: String) throws -> Purchase {
        let id = try Ledger.parseID(idText)
        return try db.transaction {
            guard let tripID = try db.scalarInt("SELECT trip_id FROM removed_purchases WHERE id = ?", [.integer(id)]) else {
                throw TripError.badText(field: "id", reason: "no removed purchase #\(id) in the trash")
            }
            guard let trip = try trip(id: tripID) else { throw TripError.badText(field: "id", reason: "no removed purchase #\(id) in the trash") }
            try requireOpen(trip)
            // A column added after the purchase was removed is left to its default.
            let columns = try purchaseColumnNames()
            let names = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            let values = columns.map { "json_extract(row, '$.\($0)')" }.joined(separator: ", ")
            try db.run(
                // sql-built: the column names come from the schema (pragma_table_info), not from input.
                """
                INSERT INTO purchases (\(names)) SELECT \(values) FROM removed_purchases
                WHERE id = ? AND json_type(row, '$.id') IS NOT NULL
                """, [.integer(id)])
            try db.run("DELETE FROM removed_purchases WHERE id = ?", [.integer(id)])
            return try purchase(id: id)
        }
    }
}
