import Storage
import TripCore
import TripModel

extension Ledger {
    /// Inserts `purchase` (computed by its caller, for generating large ledgers: `TripBench`) as it
    /// is, without `addPurchase`'s checks, rate lookup or id bookkeeping: for filling a new ledger
    /// fast, inside `inOneTransaction`. The row is written through `PurchaseRow`, so a generated
    /// ledger has every column a real one has.
    public func insertGenerated(_ purchase: PurchaseValues) throws {
        try purchaseStore.insert(PurchaseRow(purchase), id: nil, now: clock.now, createdAt: clock.now)
    }
}
