import TripCore

/// One of the journal formats: a header from the scope, one entry per purchase, a trailer.
protocol JournalWriter {
    func header(_ scope: ExportScope) -> String
    func entry(_ p: Purchase) -> String
    func trailer(_ summary: ExportSummary, _ scope: ExportScope) -> String
}

extension Ledger {
    /// `trip export`: writes the purchases of one trip (`name`, else the current trip), or of every
    /// trip when `all`, ordered by trip, date and id, in `format`.
    ///
    /// Streams: each purchase is written through `write` as its row is read, so memory does not
    /// grow with the number of purchases (the order is the `purchases_by_trip_date` index's, so
    /// SQLite does not sort either). Journals first read their header facts with one grouped query.
    @discardableResult
    public func export(_ format: ExportFormat, trip name: String?, all: Bool,
                       write: (String) throws -> Void) throws -> ExportSummary {
        let trips = all ? try self.trips() : [try resolveTrip(name)]
        try db.preferStreaming()
        var sql = "SELECT \(Purchase.columns) \(Purchase.from)"
        if !all { sql += " WHERE p.trip_id = ?" }
        sql += " ORDER BY p.trip_id, p.date, p.id"
        let values: [SQLValue] = all ? [] : [.integer(trips[0].id)]
        var summary = ExportSummary()
        switch format {
        case .csv:
            try write(PurchaseCSV.record(PurchaseCSV.columns))
            try db.prepare(sql).forEach(values) { row in
                let p = Purchase(row: row)
                summary.add(p)
                try write(PurchaseCSV.record(PurchaseCSV.fields(p)))
            }
        case .json:
            // Each purchase object with its `paid_by` and `split`, written by `PurchaseStream`
            // (the same bytes as `Purchase.json(split:)`); its first columns are `Purchase.columns`.
            var streamSQL = "SELECT \(PurchaseStream.columns) \(PurchaseStream.from)"
            if !all { streamSQL += " WHERE p.trip_id = ?" }
            streamSQL += " ORDER BY p.trip_id, p.date, p.id"
            let stream = PurchaseStream { [self] in try members(ofTripID: $0) }
            var bytes: [UInt8] = []
            try write("{\"purchases\":[")
            try db.prepare(streamSQL).forEach(values) { row in
                bytes.removeAll(keepingCapacity: true)
                bytes.append(contentsOf: (summary.purchases == 0 ? "\n" : ",\n").utf8)
                try stream.writeJSON(row, to: &bytes)
                try write(String(decoding: bytes, as: UTF8.self))
                summary.add(Purchase(row: row))
            }
            try write("\n]}\n")
        case .ledger, .beancount:
            let journal: any JournalWriter = format == .ledger ? LedgerJournal() : BeancountJournal()
            let scope = try exportScope(trips: trips, all: all)
            try write(journal.header(scope))
            try db.prepare(sql).forEach(values) { row in
                let p = Purchase(row: row)
                summary.add(p)
                try write(journal.entry(p))
            }
            try write(journal.trailer(summary, scope))
        }
        return summary
    }
}
