import TripCore
import TripModel

/// The `transfers` table's SQL: every statement whose table is `transfers`.
package struct TransferStore {
    let db: Database
}

/// A transfer as stored, for the exports: member ids, not names.
package struct StoredTransfer {
    package let id: Int64
    package let tripID: Int64
    package let from: Int64
    package let to: Int64
    package let date: String
    package let currency: String
    package let amount: Int64
    package let homeCurrency: String
    /// `nil`: no rate, so in no balance.
    package let home: Int64?
    package let quote: RateQuote?
    package let note: String
}

/// What makes two transfers the same one: trip, members, date, amount and note.
package struct TransferIdentity: Hashable {
    package let tripID: Int64
    package let from: Int64
    package let to: Int64
    package let date: CivilDate
    package let amount: Money
    package let note: String

    package init(tripID: Int64, from: Int64, to: Int64, date: CivilDate, amount: Money, note: String) {
        self.tripID = tripID
        self.from = from
        self.to = to
        self.date = date
        self.amount = amount
        self.note = note
    }
}

/// A transfer that re-rating converts again.
package struct RerateTransfer {
    package let id: Int64
    package let currency: Currency
    package let home: Currency
    package let date: CivilDate
    package let amount: Int64
}

extension TransferStore {
    /// Inserts a transfer with its conversion; returns its id.
    package func insert(
        trip: Trip, from: Int64, to: Int64, date: CivilDate, amount: Money, conversion: Conversion, note: String, createdAt: String
    ) throws -> Int64 {
        let q = conversion.quote
        try db.run(
            """
            INSERT INTO transfers (trip_id, from_member, to_member, date, currency, amount_minor, home_currency, home_minor,
                                   rate, rate_date, rate_source, rate_provider, provisional, note, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(trip.id), .integer(from), .integer(to), .text(date.description), .text(amount.currency.code),
                .integer(amount.minorUnits), .text(trip.homeCurrency.code), SQLValue(conversion.home), SQLValue(q?.rate),
                SQLValue(q?.date?.description), .text(conversion.source.rawValue), SQLValue(q?.provider),
                SQLValue(conversion.provisional), .text(note), .text(createdAt),
            ])
        return db.lastInsertRowID
    }

    /// The transfers of open trips (or trip `tripID`) whose rate is provisional, missing, manual or
    /// fallback.
    package func toRerate(trip tripID: Int64?, includingClosed: Bool = false) throws -> [RerateTransfer] {
        var rows: [RerateTransfer] = []
        try db.prepare(
            """
            SELECT \(RerateTransferColumn.sqlList) FROM transfers x JOIN trips t ON t.id = x.trip_id
            WHERE (t.closed_at IS NULL OR ?2) AND (?1 IS NULL OR x.trip_id = ?1)
              AND (x.provisional = 1 OR x.rate_source IN ('none', 'manual', 'fallback'))
            """
        ).forEach([SQLValue(tripID), .integer(includingClosed ? 1 : 0)]) { statement in
            let s = ResultRow<RerateTransferColumn>(statement)
            guard let date = CivilDate(iso: s.text(.date)) else { return }
            rows.append(
                RerateTransfer(
                    id: s.int(.id), currency: .stored(s.text(.currency)), home: .stored(s.text(.homeCurrency)), date: date,
                    amount: s.int(.amount)))
        }
        return rows
    }

    /// Writes transfer `id`'s new members, date, amount, conversion and note (`trip transfer edit`).
    package func update(id: Int64, from: Int64, to: Int64, date: CivilDate, amount: Money, conversion c: Conversion, note: String) throws {
        let q = c.quote
        try db.run(
            """
            UPDATE transfers SET from_member = ?, to_member = ?, date = ?, currency = ?, amount_minor = ?, home_minor = ?,
                   rate = ?, rate_date = ?, rate_source = ?, rate_provider = ?, provisional = ?, note = ?
            WHERE id = ?
            """,
            [
                .integer(from), .integer(to), .text(date.description), .text(amount.currency.code), .integer(amount.minorUnits),
                SQLValue(c.home), SQLValue(q?.rate), SQLValue(q?.date?.description), .text(c.source.rawValue),
                SQLValue(q?.provider), SQLValue(c.provisional), .text(note), .integer(id),
            ])
    }

    /// Writes transfer `id`'s new conversion (its home currency stays).
    package func updateConversion(id: Int64, _ c: Conversion) throws {
        let q = c.quote
        try db.run(
            """
            UPDATE transfers SET home_minor = ?, rate = ?, rate_date = ?, rate_source = ?, rate_provider = ?, provisional = ?
            WHERE id = ?
            """,
            [
                SQLValue(c.home), SQLValue(q?.rate), SQLValue(q?.date?.description), .text(c.source.rawValue),
                SQLValue(q?.provider), SQLValue(c.provisional), .integer(id),
            ])
    }

    /// Trip `tripID`'s transfers in id order (only those in `currency`, if given): who sent, who
    /// received, the amount and its home amount.
    package func forEachBalanceTransfer(
        trip tripID: Int64, currency: String?, _ body: ((from: Int64, to: Int64, currency: String, amount: Int64, home: Int64?)) throws -> Void
    ) throws {
        try db.prepare(
            """
            SELECT \(BalanceTransferColumn.sqlList) FROM transfers
            WHERE trip_id = ?1 AND (?2 IS NULL OR currency = ?2) ORDER BY id
            """
        ).forEach([.integer(tripID), SQLValue(currency)]) { statement in
            let s = ResultRow<BalanceTransferColumn>(statement)
            try body((s.int(.from), s.int(.to), s.text(.currency), s.int(.amount), s.optionalInt(.home)))
        }
    }

    /// Every transfer (or trip `tripID`'s, or the one with id `id`), ordered by trip, date and id.
    package func forEachTransfer(trip tripID: Int64? = nil, id: Int64? = nil, _ body: (StoredTransfer) throws -> Void) throws {
        try db.prepare(
            """
            SELECT \(ExportTransferColumn.sqlList) FROM transfers
            WHERE (?1 IS NULL OR trip_id = ?1) AND (?2 IS NULL OR id = ?2) ORDER BY trip_id, date, id
            """
        ).forEach([SQLValue(tripID), SQLValue(id)]) { statement in
            let s = ResultRow<ExportTransferColumn>(statement)
            let source = RateSource(rawValue: s.text(.rateSource)) ?? .none
            let quote = s.optionalText(.rate).map {
                RateQuote(
                    rate: $0, date: s.optionalText(.rateDate).flatMap { CivilDate(iso: $0) }, source: source,
                    provider: s.optionalText(.rateProvider), fetchedAt: nil, provisional: s.int(.provisional) == 1)
            }
            try body(
                StoredTransfer(
                    id: s.int(.id), tripID: s.int(.tripID), from: s.int(.from), to: s.int(.to), date: s.text(.date),
                    currency: s.text(.currency), amount: s.int(.amount), homeCurrency: s.text(.homeCurrency), home: s.optionalInt(.home),
                    quote: quote, note: s.text(.note)))
        }
    }

    /// A transfer by id, looked up and deleted (also by a shared trip's sync, whatever the table).
    static let existsByID = "SELECT 1 FROM transfers WHERE id = ?"
    static let deleteByID = "DELETE FROM transfers WHERE id = ?"

    package func delete(id: Int64) throws { try db.run(TransferStore.deleteByID, [.integer(id)]) }

    /// Who sends and who receives transfer `id`.
    package func ends(of id: Int64) throws -> (from: Int64, to: Int64)? {
        try db.prepare("SELECT from_member, to_member FROM transfers WHERE id = ?").first([.integer(id)]) { ($0.int(0), $0.int(1)) }
    }

    /// The largest id present or ever handed out (AUTOINCREMENT's `sqlite_sequence`).
    package func highestIDEverUsed() throws -> Int64 {
        max(
            try db.scalarInt("SELECT max(id) FROM transfers") ?? 0,
            try db.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = 'transfers'") ?? 0)
    }

    /// The transfers member `id` sends or receives, by id.
    package func ids(involving id: Int64) throws -> [Int64] {
        var out: [Int64] = []
        try db.prepare("SELECT id FROM transfers WHERE from_member = ?1 OR to_member = ?1 ORDER BY id").forEach([.integer(id)]) {
            out.append($0.int(0))
        }
        return out
    }

    /// How many transfers trip `tripID` has.
    package func count(trip tripID: Int64) throws -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM transfers WHERE trip_id = ?", [.integer(tripID)]) ?? 0)
    }

    /// How many stored transfers are `same` (an import recognises the ones it already has).
    package func count(_ same: TransferIdentity) throws -> Int64 {
        try db.scalarInt(
            """
            SELECT count(*) FROM transfers
            WHERE trip_id = ? AND from_member = ? AND to_member = ? AND date = ? AND currency = ? AND amount_minor = ? AND note = ?
            """,
            [
                .integer(same.tripID), .integer(same.from), .integer(same.to), .text(same.date.description),
                .text(same.amount.currency.code), .integer(same.amount.minorUnits), .text(same.note),
            ]) ?? 0
    }
}

/// The columns of `transfers x` that re-rating a transfer reads.
enum RerateTransferColumn: Int32, ColumnList {
    case id, currency, homeCurrency, date, amount

    package var sql: StaticString {
        switch self {
        case .id: "x.id"
        case .currency: "x.currency"
        case .homeCurrency: "x.home_currency"
        case .date: "x.date"
        case .amount: "x.amount_minor"
        }
    }
}

/// The columns of `transfers` a balance reads.
enum BalanceTransferColumn: Int32, ColumnList {
    case from, to, currency, amount, home

    package var sql: StaticString {
        switch self {
        case .from: "from_member"
        case .to: "to_member"
        case .currency: "currency"
        case .amount: "amount_minor"
        case .home: "home_minor"
        }
    }
}

/// The columns of `transfers` the exports read.
enum ExportTransferColumn: Int32, ColumnList {
    case id, tripID, from, to, date, currency, amount, homeCurrency, home, rate, rateDate, rateSource, rateProvider
    case provisional, note

    package var sql: StaticString {
        switch self {
        case .id: "id"
        case .tripID: "trip_id"
        case .from: "from_member"
        case .to: "to_member"
        case .date: "date"
        case .currency: "currency"
        case .amount: "amount_minor"
        case .homeCurrency: "home_currency"
        case .home: "home_minor"
        case .rate: "rate"
        case .rateDate: "rate_date"
        case .rateSource: "rate_source"
        case .rateProvider: "rate_provider"
        case .provisional: "provisional"
        case .note: "note"
        }
    }
}
