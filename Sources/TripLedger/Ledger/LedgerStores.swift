import Storage

/// The ledger's stores, each over the one connection `LedgerDatabase` keeps inside the Storage
/// module: code here asks a store and cannot reach the connection itself.
extension Ledger {
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
