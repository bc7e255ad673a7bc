import Rendering
import Storage
import TripCore
import TripLedger
import TripModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `trip import` was told: the target trip and, for a card statement, its column mapping.
public struct ImportOptions: Sendable {
    /// `--trip`: every row goes there. `nil`: a row's `trip` column when it names an existing trip,
    /// else the current trip.
    public var trip: String?
    /// `nil`: the file is in the export format (`PurchaseCSV.columns`).
    public var statement: StatementMapping?
    /// `--delimiter`: the field separator, `,` by default.
    public var delimiter: UInt8 = 0x2C
    /// Off: every export-format row is read by `ExportRowImporter.row` (tests compare the two paths).
    var fastPath = true
    /// A card statement's profile, sign, currency and rows to skip (see `StatementImport.swift`).
    public var statementOptions = StatementOptions()

    public init(trip: String? = nil, statement: StatementMapping? = nil) {
        self.trip = trip
        self.statement = statement
    }
}

/// How a card statement's columns map to a purchase. Column names are matched exactly (after
/// trimming spaces) against the header.
public struct StatementMapping: Sendable {
    public var date: String
    public var amount: String
    /// `nil`: every row is in the trip's local currency (else its home currency), as with `trip add`.
    public var currency: String?
    public var note: String?
    public var category: String?
    /// The amount the card charged in the trip's home currency; it wins over any rate.
    public var charged: String?
    /// `--date-format`; `nil`: the profile's, else the first known pattern that reads every date.
    public var dateFormat: DatePattern?

    public init(
        date: String, amount: String, currency: String? = nil, note: String? = nil, category: String? = nil,
        charged: String? = nil, dateFormat: DatePattern? = nil
    ) {
        self.date = date
        self.amount = amount
        self.currency = currency
        self.note = note
        self.category = category
        self.charged = charged
        self.dateFormat = dateFormat
    }
}

/// What an import did.
public struct ImportResult: Sendable, Equatable {
    /// Purchases inserted.
    public let imported: Int
    /// Rows whose import key was already in the ledger: not inserted again.
    public let skipped: Int
    /// The trips rows went into, in order of first use.
    public let trips: [String]
    /// Transfers between members inserted (rows of kind `transfer`); a duplicate one counts in `skipped`.
    public var transfers = 0
    /// A card statement's layout as recognised or chosen (`Revolut`); `nil` for the export format and a plain mapping.
    public var profile: String?
    /// A card statement's rows that are not spending (top-ups, transfers, pending rows), by what they are.
    public var notImported: [String: Int] = [:]
    /// Rows of an export-format file the fast path read (`ExportRowFastPath.swift`); the others
    /// took the general path. `TRIP_IMPORT_REPORT_PATH=1` prints both counts (tests of the fast path).
    public var fastRows = 0
    /// Lines for standard error: rows dated outside the trip, rows refused under --skip-bad-rows.
    public var warnings: [String] = []
    /// Whether a card statement was read (its JSON then has `profile`, `not_imported` and `refunds_linked`).
    public var isStatement = false
    /// A card statement's money-back rows linked as refunds of their purchases (the others are credits).
    public var refundsLinked = 0
    /// A card statement's rows as reconciled with the trip's purchases (`StatementPlan`).
    public var plan: StatementPlan?
    /// The mapping inference decided, in one line (`StatementLayout.summary`); `nil` when a profile or the options gave it.
    public var inferred: String?
    /// Where `--save-profile` wrote the inferred mapping.
    public var savedProfile: String?

    private var statementJSON: [String: JSONValue] {
        guard isStatement else { return [:] }
        return [
            "profile": profile.map { .string($0) } ?? .null, "not_imported": .object(notImported.mapValues { .int(Int64($0)) }),
            "refunds_linked": .int(Int64(refundsLinked)), "reconcile": plan?.json ?? .null,
            "inferred": inferred.map { .string($0) } ?? .null, "saved_profile": savedProfile.map { .string($0) } ?? .null,
        ]
    }

    public init(imported: Int, skipped: Int, trips: [String], transfers: Int = 0) {
        self.imported = imported
        self.skipped = skipped
        self.trips = trips
        self.transfers = transfers
    }

    /// `{"imported":498,"skipped":2,"transfers":0,"trip":"Japan 2026","trips":["Japan 2026"]}`; `trip` is `null`
    /// when rows went into several trips (or the file had no rows and no trip was resolved).
    public var json: JSONValue {
        .object(
            [
                "imported": .int(Int64(imported)), "skipped": .int(Int64(skipped)),
                "trip": trips.count == 1 ? .string(trips[0]) : .null, "trips": .array(trips.map { .string($0) }),
                "transfers": .int(Int64(transfers)),
            ].merging(statementJSON) { a, _ in a })
    }

    /// `imported 498 purchases into "Japan 2026" (2 duplicates skipped)`.
    public var text: String {
        let into = trips.isEmpty ? "" : " into " + trips.map { "\"\($0)\"" }.joined(separator: ", ")
        let noun = imported == 1 ? "purchase" : "purchases"
        let dup = skipped == 1 ? "duplicate" : "duplicates"
        let moved = transfers == 0 ? "" : " and \(transfers) transfer\(transfers == 1 ? "" : "s")"
        let read =
            (profile.map { "read as \(EnglishArticle.indefinite(before: $0)) \($0) statement\n" } ?? "") + (inferred.map { "read as: \($0)\n" } ?? "")
            + (savedProfile.map { "saved the mapping as \($0)\n" } ?? "")
        if let plan, plan.reconciledAny || plan.dryRun {
            let linked = refundsLinked == 0 ? "" : "\nlinked \(refundsLinked) refund\(refundsLinked == 1 ? "" : "s")"
            return read + plan.text(notImported: notImported) + linked
        }
        let total = notImported.values.reduce(0, +)
        let kinds = notImported.sorted { $0.key < $1.key }.map { label, n in
            "\(n) \(label)\(n == 1 || label == "pending" || label.hasSuffix("s") ? "" : "s")"
        }
        let notSpending = total == 0 ? "" : "\nskipped \(total) row\(total == 1 ? "" : "s"): \(kinds.joined(separator: ", "))"
        let linked =
            refundsLinked == 0
            ? "" : "\nlinked \(refundsLinked) refund\(refundsLinked == 1 ? "" : "s") to \(refundsLinked == 1 ? "its purchase" : "their purchases")"
        return "\(read)imported \(imported) \(noun)\(moved)\(into) (\(skipped) \(dup) skipped)\(linked)\(notSpending)"
    }
}

extension Ledger {
    /// Moves the ids of the rows just imported (those above `lastID`) past `highWater` when a
    /// removed purchase had an id above `lastID`: the batch INSERTs let SQLite number the rows from
    /// `lastID + 1`, which would hand out a removed purchase's id again (m0006). Only then, which
    /// is rare (the newest purchases were removed), does it cost two UPDATEs of the imported rows;
    /// through negative ids, so no row ever takes an id another row still holds.
    func shiftIDs(after lastID: Int64, pastHighWater highWater: Int64) throws {
        guard highWater > lastID else { return }
        try purchaseStore.shiftIDs(after: lastID, by: highWater - lastID)
    }

    /// `trip import FILE`: reads every row, validates it and inserts it, all in one transaction:
    /// on any error nothing is written. Rows whose import key is already stored are skipped.
    ///
    /// Row numbers in errors count data rows: 1 is the first record after the header.
    /// `progress` is called with the number of rows read every `progressEvery` rows.
    public func importPurchases(
        from reader: CSVReader, options: ImportOptions, progressEvery: Int = 10_000,
        bulkThreshold: Int = 50_000, progress: (Int) -> Void = { _ in }
    ) throws -> ImportResult {
        let header: [String]
        do {
            guard let h = try reader.next() else {
                throw TripError.badText(field: "import", reason: "the file is empty; the first line must be a header row")
            }
            header = h.map(\.trimmingSpaces)
        } catch let f as CSVReader.Failure {
            if f.encoding != nil { throw f }
            throw TripError.badText(field: "import", reason: "header: \(f.reason)")
        }
        var seen: Set<String> = []
        for name in header where !seen.insert(name).inserted {
            throw TripError.badText(field: "import", reason: "the header names column \(quoted(name)) twice")
        }
        // Card statements never come here: `importPurchases(path:)` sends them to `importStatement`.
        var importer: any RowImporter = try ExportRowImporter(ledger: self, header: header, trip: options.trip)

        // Foreign keys are checked once per trip at the end (`verifyTrips`); see `bulkLoad`.
        let (result, bulk) = try database.bulkLoad {
            try transaction {
                let lastID = try purchaseStore.maxID()
                let removedAbove = try highWater(.purchases)
                let sink = try ImportSink(
                    store: purchaseStore, databasePath: database.path, bulkThreshold: bulkThreshold, progressEvery: progressEvery)
                let now = clock.now
                let summary: ParseSummary
                if var export = importer as? ExportRowImporter {
                    // Trip names resolve from this snapshot, never from the database: the reading
                    // thread must not touch the connection, and the fast path needs it in any case.
                    export.directory = try TripDirectory(ledger: self)
                    export.fastPathEnabled = options.fastPath
                    // Into a ledger with no current trip (a fresh one), the trips the file names are
                    // created as it goes, which only the connection's thread may do: no pipeline.
                    export.createsTrips = options.trip == nil && export.directory?.current == nil
                    importer = export
                }
                if ImportPipeline.isAvailable, var export = importer as? ExportRowImporter, !export.createsTrips {
                    summary = try ImportPipeline.run(
                        produce: { deliver in
                            try Self.parseRows(reader, &export, now: now, batchRows: ImportPipeline.rowsPerBatch, deliver: deliver)
                        }, consume: { try sink.take($0, progress: progress) })
                } else {
                    summary = try Self.parseRows(reader, &importer, now: now, batchRows: 1) { batch in
                        try sink.take(batch, progress: progress)
                        return true
                    }
                }
                if summary.rows == 0 && summary.group.transfers.isEmpty {
                    throw TripError.badText(field: "import", reason: "the file has a header but no rows; nothing to import")
                }
                try sink.finish()
                try shiftIDs(after: lastID, pastHighWater: removedAbove)
                try verifyTrips(summary.tripIDs)
                let transfers = try storeGroupRows(summary.group, lastID: lastID)
                try storeRefundLinks(summary.links, lastID: lastID)
                var result = ImportResult(
                    imported: sink.added, skipped: summary.rows - sink.added + transfers.skipped, trips: summary.trips,
                    transfers: transfers.added)
                result.fastRows = summary.fastRows
                let trips = try summary.tripIDs.sorted().compactMap { try trip(id: $0) }
                if let outside = try outsideTripDatesWarning(after: lastID, trips: trips) { result.warnings.append(outside) }
                return (result, sink.isBulk)
            }
        }
        if bulk {
            // A bulk import leaves a WAL as large as the table. Checkpointed at the commit, but
            // still indexed, so every later read would look each page up there and read it with a
            // system call instead of through the memory map: much slower reports after a
            // large import (`make bench`, one-trip report). Truncating is SQLite's own checkpoint;
            // if a reader holds the WAL it is skipped, not an error.
            _ = try? database.checkpoint()
        }
        return result
    }

    /// Reads every data row, validates it and keys it, handing rows to `deliver` `batchRows` at a
    /// time; stops early when `deliver` returns `false`. Touches the database only through
    /// `importer` (an `ExportRowImporter` with a `TripDirectory` does not).
    static func parseRows<R: RowImporter>(
        _ reader: CSVReader, _ importer: inout R, now: String, batchRows: Int,
        deliver: (ParsedBatch) throws -> Bool
    ) throws -> ParseSummary {
        var summary = ParseSummary()
        var keys = ImportKeys()
        var batch = ParsedBatch()
        var record = CSVRecord()
        var lastTrip: Int64?
        let textBytes = batchRows * 256
        batch.values.reserve(cells: batchRows * ParsedBatch.width, textBytes: textBytes)
        var number = 0
        func use(_ trip: Trip) {
            if lastTrip != trip.id {
                lastTrip = trip.id
                if !summary.trips.contains(trip.name) { summary.trips.append(trip.name) }
                summary.tripIDs.insert(trip.id)
            }
        }
        while true {
            do {
                guard try reader.next(into: &record) else { break }
            } catch {
                if error.encoding != nil { throw error }
                throw TripError.badText(field: "import", reason: "row \(error.record - 1): \(error.reason)")
            }
            number += 1
            if let trip = try importer.holdAside(record, number: number) {
                use(trip)
                continue
            }
            summary.rows += 1
            let (trip, baseKey) = try importer.append(record, number: number, to: &batch.values, now: now)
            let key = keys.key(for: baseKey)
            if let split = importer.takeSplit() { summary.group.splits.append((key, split)) }
            summary.links.add(id: importer.fileID(record), key: key, row: number)
            if let of = importer.takeRefundOf() {
                summary.links.add(RefundLinks.Refund(row: number, key: key, of: of.id, cell: of.cell))
            }
            batch.values.appendInteger(Int64(bitPattern: key))
            batch.keys.append(key)
            use(trip)
            if batch.keys.count >= batchRows {
                guard try deliver(batch) else { return summary }
                batch = ParsedBatch()
                batch.values.reserve(cells: batchRows * ParsedBatch.width, textBytes: textBytes)
                batch.keys.reserveCapacity(batchRows)
            }
        }
        if !batch.keys.isEmpty { _ = try deliver(batch) }
        let splits = summary.group.splits
        summary.group = importer.group
        summary.group.splits = splits
        summary.fastRows = (importer as? ExportRowImporter)?.parsed.fastRows ?? 0
        return summary
    }

    /// One warning line for the purchases an import added (ids above `lastID`) that are dated
    /// outside their trip's start…end, or `nil`. They are imported all the same, as `trip add`
    /// accepts them (a deposit paid before leaving): only a typo is worth a second look, and one
    /// line for the file, not one per row. Asks nothing of the database when no trip has dates.
    func outsideTripDatesWarning(after lastID: Int64, trips: [Trip]) throws -> String? {
        guard trips.contains(where: { $0.start != nil || $0.end != nil }) else { return nil }
        let counts = try purchaseStore.outsideTripDates(after: lastID)
        let total = counts.reduce(0) { $0 + $1.count }
        guard total > 0 else { return nil }
        func span(_ c: (trip: String, start: String?, end: String?, count: Int)) -> String {
            "\(c.trip) (\([c.start.map { "from \($0)" }, c.end.map { "to \($0)" }].compactMap { $0 }.joined(separator: " ")))"
        }
        let where_ =
            counts.count == 1
            ? span(counts[0]) : "their trip: " + counts.map { "\($0.count) \(span($0))" }.joined(separator: ", ")
        return "warning: \(total) row\(total == 1 ? " is" : "s are") dated outside \(where_); imported all the same"
    }

    /// What the foreign key on `purchases.trip_id` would have checked row by row: every trip the
    /// rows went into still exists (inside the import's transaction, so none can go away later).
    func verifyTrips(_ ids: Set<Int64>) throws {
        for id in ids where try !tripStore.exists(id) {
            throw TripError.badText(field: "import", reason: "trip \(id) was deleted while importing; nothing was imported")
        }
    }

    /// `--paid-by` and `--split` say who paid a card statement's rows: an export-format file names
    /// each row's own, so they are refused there rather than ignored.
    static func refuseStatementSplit(_ options: ImportOptions) throws {
        guard !options.statementOptions.split.isEmpty else { return }
        throw TripError.usage("import: --paid-by and --split are for a card statement; an export file has each row's paid_by and split")
    }

    /// Opens `path` (`-`: standard input) and imports it.
    public func importPurchases(
        path: String, options: ImportOptions, progressEvery: Int = 10_000,
        bulkThreshold: Int = 50_000, progress: (Int) -> Void = { _ in }
    ) throws -> ImportResult {
        let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
        guard fd >= 0 else {
            throw TripError.usage("import: cannot open \(quoted(path)): \(String(cString: strerror(errno)))")
        }
        defer { if fd != 0 { close(fd) } }
        do {
            // The first line says which kind of file it is: the export format names `home_total`;
            // anything else is a card statement, small enough to be read whole (its header may
            // come after a preamble, and its delimiter may have to be found).
            let prefix = try CSVReader.firstLine(of: fd)
            if options.statement != nil || options.statementOptions.profile != nil
                || !prefix.containsASCII("home_total")
            {
                let bytes = try prefix + CSVReader.rest(of: fd)
                if let r = try importStatement(bytes: bytes, options: options) { return r }
                try Self.refuseStatementSplit(options)
                return try importPurchases(
                    from: CSVReader(bytes: bytes, delimiter: options.delimiter), options: options,
                    progressEvery: progressEvery, bulkThreshold: bulkThreshold, progress: progress)
            }
            try Self.refuseStatementSplit(options)
            return try importPurchases(
                from: CSVReader(fileDescriptor: fd, delimiter: options.delimiter, prefix: prefix), options: options,
                progressEvery: progressEvery, bulkThreshold: bulkThreshold, progress: progress)
        } catch let f as CSVReader.Failure {
            // Only an encoding failure escapes `importPurchases(from:)`: it names the file, not a row.
            let name = path == "-" ? "standard input" : path
            let file = path == "-" ? "FILE" : path
            let stem = file.hasSuffix(".csv") ? String(file.dropLast(4)) : file
            throw TripError.badText(
                field: "import",
                reason: """
                    \(name) is not UTF-8 (looks like \(f.encoding ?? "another encoding")); convert it with \
                    iconv -f \((f.encoding ?? "WINDOWS-1252").uppercased()) -t UTF-8 \(file) > \(stem)-utf8.csv
                    """)
        }
    }
}

/// The inserting side of an import: recognises duplicates, switches to bulk mode, inserts.
/// Only this touches the database while rows are read.
final class ImportSink {
    private let store: PurchaseStore
    private let databasePath: String
    private let insert: BatchInsert
    private let storedKeys: ImportKeyLookup?
    private let bulkAfter: Int
    private let progressEvery: Int
    // Duplicates are recognised here, not by `ON CONFLICT … DO NOTHING`: SQLite's upsert
    // path costs several times a plain insert. A key is new when no earlier row of this
    // file had it and the ledger does not hold it (looked up only if it holds any key).
    private var fileKeys = KeyTable()
    private var bulk: BulkIndexes?
    /// In bulk mode: the WAL, which the table's pages spill into, flushed to disk in the background
    /// so that the commit's checkpoint finds it already written.
    private var writeback: WALWriteback?
    private var rows = 0
    var added: Int { insert.added }
    /// Whether bulk mode was used.
    var isBulk: Bool { bulk != nil }

    init(store: PurchaseStore, databasePath: String, bulkThreshold: Int, progressEvery: Int) throws {
        self.store = store
        self.databasePath = databasePath
        insert = store.importBatches()
        storedKeys = try store.hasImportKeys() ? try store.importKeyLookup() : nil
        // A large import switches to bulk mode: see `BulkIndexes`.
        bulkAfter = max(bulkThreshold, Int(try store.maxID()) / 2)
        self.progressEvery = max(progressEvery, 1)
    }

    /// Inserts the new rows of `batch`; `progress` gets the rows taken so far every `progressEvery`.
    func take(_ batch: ParsedBatch, progress: (Int) -> Void) throws {
        let width = ParsedBatch.width
        // New rows are inserted in runs, straight from the batch.
        var runStart = 0
        for (i, key) in batch.keys.enumerated() {
            rows += 1
            if bulk == nil && rows > bulkAfter {
                try insert.insert(batch.values, width: width, rows: runStart..<i)
                runStart = i
                bulk = try BulkIndexes.suspend(store)
                writeback = WALWriteback(databasePath: databasePath)
                fileKeys = KeyTable()
            }
            let isNew: Bool
            if bulk != nil {
                isNew = bulk!.known.insert(key)
            } else {
                let stored = try storedKeys?.contains(key) ?? false
                isNew = fileKeys.insert(key) && !stored
            }
            if !isNew {
                try insert.insert(batch.values, width: width, rows: runStart..<i)
                runStart = i + 1
            }
            if rows % progressEvery == 0 { progress(rows) }
        }
        try insert.insert(batch.values, width: width, rows: runStart..<batch.keys.count)
    }

    /// Rebuilds the indexes bulk mode dropped.
    func finish() throws {
        try bulk?.restore(store)
        writeback?.stop()
    }

    deinit { writeback?.stop() }
}

/// Bulk mode of a large import. Inserting into the indexes of `purchases` row by row costs more than
/// the rows themselves (the covering report index, and the import-key index whose keys are random),
/// so after `bulkThreshold` rows (or half the ledger's size, whichever is more) the import reads
/// every stored import key into memory, drops the table's indexes, inserts without them (checking
/// duplicate keys in memory), and recreates each index from its stored `CREATE INDEX` text before
/// the commit. All of it is inside the import's transaction: an error restores the indexes too.
struct BulkIndexes {
    var known = KeyTable()
    private(set) var indexes: [(name: String, sql: String)] = []

    static func suspend(_ store: PurchaseStore) throws -> BulkIndexes {
        var b = BulkIndexes()
        try store.forEachImportKey { _ = b.known.insert($0) }
        b.indexes = try store.indexes()
        for index in b.indexes { try store.dropIndex(named: index.name) }
        return b
    }

    func restore(_ store: PurchaseStore) throws {
        try store.recreateIndexes(indexes)
    }
}

/// Turns one data row into a purchase row, its trip, and the key that recognises it again.
protocol RowImporter {
    mutating func row(_ fields: [String], number: Int) throws -> (PurchaseRow, Trip, UInt64)
    /// `row`, with the row's `PurchaseRow.insertColumns` values appended to `values` (`now` is the
    /// created and updated time); nothing is appended when it throws.
    mutating func append(_ record: CSVRecord, number: Int, to values: inout PackedValues, now: String) throws -> (Trip, UInt64)
    /// A row that is not a purchase (a transfer), kept for after the inserts: its trip, or `nil`
    /// for a purchase row.
    mutating func holdAside(_ record: CSVRecord, number: Int) throws -> Trip?
    /// The split of the row `append` just took, if it has one (asked once per row).
    mutating func takeSplit() -> GroupImport.Split?
    /// The `refund_of` of the row `append` just took, if it is a linked refund (asked once per row).
    mutating func takeRefundOf() -> (id: Int64, cell: String)?
    /// The row's `id` cell: the id the exporting ledger gave it, which a refund's `refund_of` names.
    func fileID(_ record: CSVRecord) -> Int64?
    /// What was kept for after the inserts (`members` cells, transfers).
    var group: GroupImport { get }
}

extension RowImporter {
    mutating func holdAside(_ record: CSVRecord, number: Int) throws -> Trip? { nil }
    mutating func takeSplit() -> GroupImport.Split? { nil }
    mutating func takeRefundOf() -> (id: Int64, cell: String)? { nil }
    func fileID(_ record: CSVRecord) -> Int64? { nil }
    var group: GroupImport { GroupImport() }

    mutating func append(_ record: CSVRecord, number: Int, to values: inout PackedValues, now: String) throws -> (Trip, UInt64) {
        let (row, trip, key) = try row((0..<record.count).map { record.string($0) }, number: number)
        for v in row.values(now: now, createdAt: now) { values.append(v) }
        return (trip, key)
    }
}

/// The import keys of one file: the row's own key combined with how many times that key has
/// already occurred in this file, so two identical purchases (the same coffee twice a day) are
/// both imported and a second import of the file skips both.
struct ImportKeys {
    private var occurrences = KeyTable()

    mutating func key(for base: UInt64) -> UInt64 {
        let n = occurrences.increment(base)
        var h = FNV1a()
        h.add(base)
        h.add(UInt64(n))
        return h.value
    }
}

/// FNV-1a, 64 bits: a small, stable, non-cryptographic hash (the same on every platform and run,
/// unlike `Hasher`). Fields are separated by a 0x1F byte so that ("ab", "c") ≠ ("a", "bc").
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func addByte(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    mutating func add(_ text: String) {
        var t = text
        t.withUTF8 { for b in $0 { addByte(b) } }
        addByte(0x1F)
    }

    mutating func add(_ v: UInt64) {
        var x = v
        for _ in 0..<8 { addByte(UInt8(truncatingIfNeeded: x)); x >>= 8 }
        addByte(0x1F)
    }

    mutating func add(_ v: Int64) { add(UInt64(bitPattern: v)) }
}

extension TripError {
    /// This error as a row error in `column`: the value and reason of a field error, else its
    /// whole message as the reason.
    func inRow(_ row: Int, column: String, cell: String) -> TripError {
        switch self {
        case let .badAmount(_, value, reason), let .badPercent(_, value, reason), let .badRate(_, value, reason):
            return .badRow(row: row, column: column, value: value, reason: reason)
        case let .ambiguousAmount(_, value, readings, suggestions):
            return .badRow(
                row: row, column: column, value: value,
                reason: "is ambiguous: \(readings.joined(separator: ", ")); write \(suggestions.joined(separator: " or ")) instead")
        case let .badDate(_, value):
            return .badRow(row: row, column: column, value: value, reason: "is not a valid date")
        case let .unknownCurrency(code, suggestions):
            let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", "))?"
            return .badRow(row: row, column: column, value: code, reason: "is not an ISO 4217 currency code\(hint)")
        case let .badChoice(_, value, allowed):
            return .badRow(row: row, column: column, value: value, reason: "is not one of \(allowed.joined(separator: ", "))")
        case let .adjustmentExceedsPrice(_, value, price):
            return .badRow(row: row, column: column, value: value, reason: "is more than the price \(price)")
        case let .badText(_, reason):
            return .badRow(row: row, column: column, value: cell, reason: reason)
        case let .badTextValue(_, value, reason):
            return .badRow(row: row, column: column, value: value, reason: reason)
        case .badRow:
            return self
        default:
            return .badRow(row: row, column: column, value: cell, reason: "is rejected: \(description)")
        }
    }
}
