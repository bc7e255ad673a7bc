import Storage
import TripCore
import TripLedger
import TripModel

/// What an export-format file says about refunds: each row's `id` (the exporting ledger's id) with
/// its import key, and each refund row's `refund_of`, an id of that same file.
///
/// The file's ids are not this ledger's, so a link is restored after the inserts, through the rows'
/// import keys (which find the purchases just inserted, or already in the ledger); the whole import
/// is still one transaction. A refund naming a row the file does not hold is refused.
struct RefundLinks {
    struct Refund {
        let row: Int
        let key: UInt64
        /// The file's id of the purchase it refunds, and the cell as written (for an error).
        let of: Int64
        let cell: String
    }

    /// Every row's file id, import key and row number, in file order (cheap to collect, looked at
    /// only when the file has refunds).
    private(set) var rows: [(id: Int64, key: UInt64, row: Int)] = []
    private(set) var refunds: [Refund] = []

    mutating func add(id: Int64?, key: UInt64, row: Int) {
        if let id { rows.append((id, key, row)) }
    }

    mutating func add(_ refund: Refund) { refunds.append(refund) }

    /// The import key of the row `refund` names, `nil` when the file has no row of that id. A file
    /// of several exports joined together may hold an id more than once: each refund then takes
    /// the nearest row of its id before it (else the nearest after), the purchase of its own export.
    func target(of refund: Refund, in named: [Int64: [Int]]) -> UInt64? {
        guard let at = named[refund.of] else { return nil }
        let before = at.last { rows[$0].row < refund.row }
        return rows[before ?? at[0]].key
    }

    /// The positions in `rows` of each id a refund names.
    func namedRows() -> [Int64: [Int]] {
        let wanted = Set(refunds.map(\.of))
        var out: [Int64: [Int]] = [:]
        for (i, r) in rows.enumerated() where wanted.contains(r.id) { out[r.id, default: []].append(i) }
        return out
    }
}

extension Ledger {
    /// Links each refund of `links` to its purchase, inside the import's transaction, after the
    /// rows are inserted (those with an id above `lastID`; a duplicate row is found by its import
    /// key). A refund already linked (imported before) is left alone. The purchase must be a
    /// purchase of the same trip and currency, and its refunds may not add up to more than its
    /// total: the rules `trip refund` keeps.
    func storeRefundLinks(_ links: RefundLinks, lastID: Int64) throws {
        guard !links.refunds.isEmpty else { return }
        let named = links.namedRows()
        let inserted = try purchaseStore.importedIDs(after: lastID)
        func id(_ key: UInt64) throws -> Int64? {
            if let id = inserted[key] { return id }
            return try purchaseStore.id(importKey: key)
        }
        var linked: [Int64: RefundLinks.Refund] = [:]
        for r in links.refunds {
            func bad(_ reason: String) -> TripError { .badRow(row: r.row, column: "refund_of", value: r.cell, reason: reason) }
            guard let targetKey = links.target(of: r, in: named) else {
                throw bad("names row id \(r.of), which is not in this file; export the purchase with its refund")
            }
            guard let refundID = try id(r.key), let targetID = try id(targetKey) else { continue }
            let refund = try purchase(id: refundID)
            guard refund.kind == .refund, refund.refundOf == nil else { continue }
            let target = try purchase(id: targetID)
            guard target.kind == .purchase else {
                throw bad("names row id \(r.of), a \(target.kind.rawValue), not a purchase; a refund refunds a purchase")
            }
            guard target.tripID == refund.tripID, target.currency == refund.currency else {
                throw bad("names row id \(r.of), which is not in the trip and currency of this refund")
            }
            try purchaseStore.setRefundOf(refundID, to: targetID)
            linked[targetID] = r
        }
        for (targetID, r) in linked {
            let target = try purchase(id: targetID)
            let refunded = try purchaseStore.refundedTotal(of: targetID)
            if refunded > target.breakdown.total {
                let money = { (v: Int64) in "\(Money(minorUnits: v, currency: target.currency).plainText) \(target.currency.code)" }
                throw TripError.badRow(
                    row: r.row, column: "refund_of", value: r.cell,
                    reason:
                        "names row id \(r.of), whose refunds would add up to \(money(refunded)), more than its total \(money(target.breakdown.total))"
                )
            }
        }
    }
}
