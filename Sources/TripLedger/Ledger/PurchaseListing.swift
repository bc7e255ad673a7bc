import Rendering
import Storage
import TripCore
import TripModel

extension Ledger {
    /// The trip's purchases as `filter` selects them, each passed to `body` as it is read, so
    /// memory does not grow with the trip. Order: date, then id (`reverse`: newest first).
    /// Returns the trip.
    @discardableResult
    public func purchaseRows(_ filter: PurchaseFilter, _ body: (Purchase) throws -> Void) throws -> Trip {
        let q = try PurchaseQuery(filter, trip: try resolveTrip(filter.trip), clock: clock)
        try database.preferStreaming()
        try purchaseStore.forEachPurchase(q, body)
        return q.trip
    }

    /// `trip list`, streamed to `out`: the text table (`json` false) or
    /// `{"purchases":[…],"trip":NAME}` with each purchase object as `Purchase.json(split:)` has it
    /// (`paid_by` and `split` null when the purchase has no split). Each row goes from SQLite to
    /// `out`'s buffer as it is read (`PurchaseStream`), so memory does not grow with the trip.
    public func writeList(_ filter: PurchaseFilter, json: Bool, to out: BufferedOutput) throws {
        let q = try PurchaseQuery(filter, trip: try resolveTrip(filter.trip), clock: clock)
        let splits = SplitPositions { [self] in try members(ofTripID: $0) }
        let stream = PurchaseStream(members: splits.members(trip:))
        // A shared trip's rows carry their shared ids: one lookup by primary key a row.
        let shared = try syncStore.isShared(trip: q.trip.id)
        if json {
            // A trip without members has no split to read: no lookup per row.
            let hasMembers = try !splits.members(trip: q.trip.id).isEmpty
            try database.preferStreaming()
            let document = PurchaseStream.Document.list(trip: q.trip.name)
            try out.write(PurchaseStream.Document.opening)
            var first = true
            try purchaseStore.forEachStreamed(q, withSplits: hasMembers, splits: splits) { row in
                try out.append { buffer in
                    buffer.append(contentsOf: document.separator(first: first).utf8)
                    try stream.writeJSON(
                        row, sharedID: shared ? .some(try sharedID(.purchase, localID: row.int(.id))) : nil,
                        refundOfSharedID: shared ? try refundOfSharedID(row) : nil, to: &buffer)
                }
                first = false
            }
            try out.write(document.closing)
            return
        }
        var (trip, layout) = try listLayout(filter)
        // `#3 p-7kq4x`: a row before its first sync has its number alone.
        if shared { layout.idWidth += 1 + 2 + SharedID.shownLength }
        guard let header = TextFormat.listHeader(trip, layout) else {
            try out.write(TextFormat.listEmpty(trip, filter: try unmatchedFilter(filter, trip: trip)) + "\n")
            return
        }
        try out.write(header)
        // The text table shows no split: never joined.
        try purchaseStore.forEachStreamed(q, withSplits: false, splits: splits) { row in
            let code = shared ? try sharedID(.purchase, localID: row.int(.id)) : nil
            let refunded = shared ? try refundOfSharedID(row) : nil
            try out.append { stream.writeListRow(row, layout, sharedID: code, refundOfSharedID: refunded, to: &$0) }
        }
        if let footer = TextFormat.listFooter(layout) { try out.write(footer) }
    }

    /// The shared id of the purchase that refund `row` refunds; `nil` for any other row.
    private func refundOfSharedID(_ row: some PurchaseFields) throws -> String? {
        row.isNull(.refundOf) ? nil : try sharedID(.purchase, localID: row.int(.refundOf))
    }

    /// The column widths of `trip list`'s text table over exactly the rows `purchaseRows` reads.
    public func listLayout(_ filter: PurchaseFilter) throws -> (trip: Trip, layout: ListLayout) {
        let q = try PurchaseQuery(filter, trip: try resolveTrip(filter.trip), clock: clock)
        // Read like the rows themselves: through a small page cache, not a growing memory map.
        try database.preferStreaming()
        var layout = ListLayout(
            count: 0, idWidth: 2, amountWidth: 6, homeWidth: q.trip.homeCurrency.code.count,
            rateWidth: 4, anyProvisional: false)
        // The widest amount is that of the smallest or largest total of some currency. Every column
        // here is in the covering index `purchases_report`, so this reads the index, not the table
        // (home amounts are in the trip's home currency, as the header says).
        try purchaseStore.forEachListLayout(q) { s in
            let home = q.trip.homeCurrency
            guard let currency = CurrencyTable.shared.lookup(s.text(.currency)) else { return }
            layout.count += Int(s.int(.rows))
            layout.idWidth = max(layout.idWidth, 1 + String(s.int(.maxID)).count)
            for v in [s.int(.minTotal), s.int(.maxTotal)] {
                layout.amountWidth = max(layout.amountWidth, TextFormat.money(v, currency).count)
            }
            for v in [s.optionalInt(.minHome), s.optionalInt(.maxHome)] {
                let text = v.map { Money.group(Money(minorUnits: $0, currency: home).plainText) } ?? "—"
                layout.homeWidth = max(layout.homeWidth, text.count)
            }
            layout.rateWidth = max(layout.rateWidth, Int(s.int(.rateWidth)))
            layout.anyProvisional = layout.anyProvisional || s.int(.anyProvisional) != 0
        }
        return (q.trip, layout)
    }
}

extension Ledger {
    /// The filter options of `filter` as typed (`--category food`), when they left out every
    /// purchase of a trip that has some; empty when the trip has none (then that is the news).
    func unmatchedFilter(_ filter: PurchaseFilter, trip: Trip) throws -> [String] {
        let given = [("--category", filter.category), ("--since", filter.since), ("--until", filter.until)]
            .compactMap { name, value in value.map { "\(name) \($0)" } }
        guard !given.isEmpty, try purchaseStore.count(trip: trip.id, from: "0000-01-01", to: "9999-12-31", currency: nil) > 0 else {
            return []
        }
        return given
    }
}
