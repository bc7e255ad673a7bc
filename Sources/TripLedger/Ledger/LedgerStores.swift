import Storage

extension Ledger {
    /// The connection, for the stores in this folder only (`StoreOwnershipTests` checks that no
    /// other file of the ledger uses it).
    package var db: Database { database.db }

    /// Runs `body` as one transaction: all of its writes, or none.
    package func transaction<T>(_ body: () throws -> T) throws -> T { try database.transaction(body) }

    /// The sharing tables of this ledger.
    package var syncStore: SyncStore { database.syncStore }

    /// The purchase_splits table of this ledger.
    package var splitStore: SplitStore { database.splitStore }

    /// The transfers table of this ledger.
    package var transferStore: TransferStore { database.transferStore }

    /// The id_high_water table of this ledger.
    package var idStore: IDStore { database.idStore }

    /// The ledger_settings table of this ledger.
    package var settingsStore: SettingsStore { database.settingsStore }

    /// The purchases table of this ledger.
    package var purchaseStore: PurchaseStore { database.purchaseStore }

    /// The trips table of this ledger.
    package var tripStore: TripStore { database.tripStore }

    /// The rate tables of this ledger.
    package var rateStore: RateStore { database.rateStore }

    /// The members table of this ledger.
    package var memberStore: MemberStore { database.memberStore }
}
