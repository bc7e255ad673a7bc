import Storage
import TripCore
import TripModel

extension Ledger {
    /// The id for a new row of `table` (`purchases` or `trips`): above every id present and every
    /// id ever deleted (`id_high_water`, kept by m0006's triggers), so no id is handed out twice.
    package func nextID(_ table: IDStore.Table) throws -> Int64 {
        let present: Int64
        switch table {
        case .purchases: present = try purchaseStore.maxID()
        case .trips: present = try tripStore.maxID()
        }
        return max(present, try highWater(table)) + 1
    }

    /// The largest id ever deleted from `table`.
    package func highWater(_ table: IDStore.Table) throws -> Int64 {
        try idStore.highWater(table)
    }

    /// `trip rm ID`: moves the purchase to the trash (`removed_purchases`), whole and under its id,
    /// and returns it. `trip restore ID` undoes it. A purchase with refunds is refused, naming them:
    /// remove the refunds first.
    public func removePurchase(_ idText: String) throws -> Purchase {
        let id = try purchaseID(idText)
        return try transaction {
            let p = try purchase(id: id)
            try requireOpen(try trip(id: p.tripID)!)
            // A purchase with refunds is refused, naming them, so no refund points at nothing.
            let refunds = try purchaseStore.refundIDs(of: id)
            if !refunds.isEmpty {
                let list = refunds.map { "#\($0)" }.joined(separator: ", ")
                throw TripError.badTextValue(
                    field: "id", value: idText,
                    reason: """
                        has refund\(refunds.count == 1 ? "" : "s") \(list); remove \(refunds.count == 1 ? "it" : "them") first
                        """)
            }
            try purchaseStore.moveToTrash(id: id, removedAt: clock.now)
            return try withSharedID(p)
        }
    }

    /// `trip restore ID`: brings a removed purchase back from the trash with its id and every stored
    /// value as it was (its rate included). Its trip must still be open.
    public func restorePurchase(_ idText: String) throws -> Purchase {
        let id = try purchaseID(idText)
        return try transaction {
            guard let tripID = try purchaseStore.trashedTrip(of: id) else {
                throw TripError.badText(field: "id", reason: "no removed purchase #\(id) in the trash")
            }
            guard let trip = try trip(id: tripID) else { throw TripError.badText(field: "id", reason: "no removed purchase #\(id) in the trash") }
            try requireOpen(trip)
            if let target = try purchaseStore.trashedRefundTargetGone(of: id) {
                throw TripError.badText(
                    field: "id", reason: "#\(id) refunds #\(target), which is removed too: restore #\(target) first (trip restore \(target))")
            }
            try purchaseStore.restoreFromTrash(id: id)
            return try withSharedID(try purchase(id: id))
        }
    }
}
