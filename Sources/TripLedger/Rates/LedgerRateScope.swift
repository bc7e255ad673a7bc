import Storage

extension Ledger {
    /// The rates trip `tripID` converts at: the trip's when it is shared, else this device's own.
    func rateScope(trip tripID: Int64?) throws -> RateScope {
        guard let tripID, try syncStore.isShared(trip: tripID) else { return .own }
        return RateScope(trip: tripID, codes: Set(try rateStore.currencyCodes(ofTrip: tripID)))
    }
}
