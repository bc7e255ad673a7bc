import Rendering
import Storage
import TripCore
import TripLedger
import TripModel

extension Ledger {
    /// `trip export`: writes the purchases of one trip (`name`, else the current trip), or of every
    /// trip when `all`, ordered by trip, date and id, in `format`.
    ///
    /// Streams: each purchase is written through `write` as its row is read, so memory does not
    /// grow with the number of purchases (the order is the `purchases_by_trip_date` index's, so
    /// SQLite does not sort either). Journals first read their header facts with one grouped query.
    @discardableResult
    public func export(
        _ format: ExportFormat, trip name: String?, all: Bool,
        write: (String) throws -> Void
    ) throws -> ExportSummary {
        try withoutActuallyEscaping(write) { write in
            try export(format, trip: name, all: all, to: ExportSink(write: write))
        }
    }

    /// The same export, each row written straight into `out`'s buffer (no `String` per row).
    @discardableResult
    public func export(_ format: ExportFormat, trip name: String?, all: Bool, to out: BufferedOutput) throws -> ExportSummary {
        try export(format, trip: name, all: all, to: ExportSink(output: out))
    }

    private func export(_ format: ExportFormat, trip name: String?, all: Bool, to sink: ExportSink) throws -> ExportSummary {
        let write = sink.write
        let trips = all ? try self.trips() : [try resolveTrip(name)]
        try database.preferStreaming()
        let tripID = all ? nil : trips[0].id
        var summary = ExportSummary()
        switch format {
        case .csv:
            let group = try GroupExport(ledger: self, trips: trips)
            // A group trip's members, in join order, go on its first row, so an import adds them in that order.
            var named: Set<Int64> = []
            func members(_ tripID: Int64) -> String {
                guard let list = group.members[tripID], named.insert(tripID).inserted else { return "" }
                return list.map(\.name).joined(separator: ",")
            }
            // Each trip's facts go on its first row too, so an import into a ledger without it creates it.
            let byID = Dictionary(uniqueKeysWithValues: trips.map { ($0.id, $0) })
            var described: Set<Int64> = []
            func facts(_ tripID: Int64, to out: inout [UInt8]) {
                let cells =
                    described.insert(tripID).inserted
                    ? byID[tripID].map(PurchaseCSV.tripFields) ?? PurchaseCSV.noTripFields : PurchaseCSV.noTripFields
                out.append(UInt8(ascii: ","))
                PurchaseCSV.append(cells[...], to: &out)
            }
            try write(PurchaseCSV.record(PurchaseCSV.exportColumns))
            if group.isEmpty {
                try purchaseStore.forEachExported(trip: tripID) { p in
                    summary.add(p)
                    try sink.append { out in
                        PurchaseCSV.append(PurchaseCSV.fields(p)[...], to: &out)
                        facts(p.tripID, to: &out)
                        PurchaseCSV.appendTexts(p, to: &out)
                        PurchaseCSV.appendLineEnd(to: &out)
                    }
                }
            } else {
                // Each purchase's split comes with it from a scan of the splits in step with the
                // purchases' (not a lookup per row), and its cells go from the stored bytes to the output's.
                var lastTrip: Int64?
                var cells = group.cellWriter()
                try splitStore.withCursor { splits in
                    try purchaseStore.forEachExportedWithSplit(trip: tripID, splits: splits) { p, split in
                        summary.add(p)
                        // A trip's purchases are one run of rows: only its first can take the members.
                        let membersCell = p.tripID == lastTrip ? "" : members(p.tripID)
                        lastTrip = p.tripID
                        try sink.append { out in
                            PurchaseCSV.append(PurchaseCSV.fields(p)[..<PurchaseCSV.paidByColumn], to: &out)
                            try cells.append(trip: p.tripID, purchase: p.id, stored: split, to: &out)
                            out.append(UInt8(ascii: ","))
                            PurchaseCSV.appendField(membersCell, to: &out)
                            facts(p.tripID, to: &out)
                            PurchaseCSV.appendTexts(p, to: &out)
                            PurchaseCSV.appendLineEnd(to: &out)
                        }
                    }
                }
            }
            for t in try group.transfers(ledger: self, trips: trips) {
                var out: [UInt8] = []
                PurchaseCSV.append(PurchaseCSV.fields(t, members: members(t.tripID))[...], to: &out)
                facts(t.tripID, to: &out)
                PurchaseCSV.appendTexts(nil, to: &out)
                PurchaseCSV.appendLineEnd(to: &out)
                try write(String(decoding: out, as: UTF8.self))
            }
        case .json:
            // Each purchase object with its `paid_by` and `split`, written by `PurchaseStream`
            // (the same bytes as `Purchase.json(split:)`); its first columns are `Purchase.columns`.
            let splits = SplitPositions { [self] in try members(ofTripID: $0) }
            let stream = PurchaseStream(members: splits.members(trip:))
            try write(PurchaseStream.Document.opening)
            try purchaseStore.forEachExportedStreamed(trip: tripID, splits: splits) { row, purchase in
                try sink.append { bytes in
                    bytes.append(contentsOf: PurchaseStream.Document.export.separator(first: summary.purchases == 0).utf8)
                    try stream.writeJSON(row, to: &bytes)
                }
                summary.add(purchase)
            }
            try write(PurchaseStream.Document.export.closing)
        case .ledger, .beancount:
            let journal: any JournalWriter = format == .ledger ? LedgerJournal() : BeancountJournal()
            let group = try GroupExport(ledger: self, trips: trips)
            let transfers = try group.transfers(ledger: self, trips: trips)
            var scope = try exportScope(trips: trips, all: all)
            if !group.isEmpty, let first = ([scope.firstDate].compactMap { $0 } + transfers.map(\.date)).min() {
                scope.memberAccounts = Set(group.accounts.values).sorted().map { ($0, first) }
            }
            try write(journal.header(scope))
            try purchaseStore.forEachExported(trip: tripID) { p in
                summary.add(p)
                try write(journal.entry(p, members: try group.postings(of: p)))
            }
            for t in transfers {
                if let home = t.home {
                    try write(journal.transfer(t, home: home, from: group.accounts[t.from.id]!, to: group.accounts[t.to.id]!))
                } else {
                    try write(journal.unconvertedTransfer(t))
                }
            }
            try write(journal.trailer(summary, scope))
        }
        return summary
    }
}

/// Where an export writes: a `BufferedOutput`, whose buffer takes each row's bytes as they are
/// written, or a closure of text (tests, a terminal's escaping), given each row as one `String`.
final class ExportSink {
    private let text: ((String) throws -> Void)?
    private let output: BufferedOutput?
    private var row: [UInt8] = []

    init(write: @escaping (String) throws -> Void) {
        text = write
        output = nil
    }

    init(output: BufferedOutput) {
        text = nil
        self.output = output
    }

    func write(_ chunk: String) throws {
        if let output { try output.write(chunk) } else { try text?(chunk) }
    }

    /// Lets `body` append one row's bytes.
    func append(_ body: (inout [UInt8]) throws -> Void) throws {
        if let output { return try output.append(body) }
        row.removeAll(keepingCapacity: true)
        try body(&row)
        try text?(String(decoding: row, as: UTF8.self))
    }
}
