import TripCore
import TripModel

/// Which stored rates a conversion reads (README, "Shared trips"): this device's own, or, for a
/// shared trip's purchases, the trip's.
///
/// A shared trip's rates are those pulled from its log and this device's own that travel into it
/// (`RateStore.manualRates(travellingTo:)`, `forEachUnsentObservation`): manual rates of two of its
/// currencies or set while it was the current trip, provider rates into its currencies. Every
/// device of the trip reads the same set, so all convert its purchases alike; a rate pulled from
/// it reaches no other trip, and no other trip's rate reaches it.
struct RateScope {
    /// 0: this device's own rates only; else the local id of the shared trip.
    let trip: Int64
    /// The shared trip's currencies (`RateStore.currencyCodes(ofTrip:)`).
    let codes: Set<String>

    /// This device's own rates: a trip never shared, `trip convert`, `trip rates` outside a shared trip.
    static let own = RateScope(trip: 0, codes: [])

    /// The currencies as the store reads them: a JSON array.
    var currencies: String { JSONValue.array(codes.sorted().map { .string($0) }).serialized }

    /// The scope of one conversion: its two currencies count as the trip's, as they will once the
    /// purchase being converted is stored (its rate travels with it).
    func converting(_ from: String, _ to: String) -> RateScope {
        trip == 0 ? self : RateScope(trip: trip, codes: codes.union([from, to]))
    }
}

extension Ledger {
    /// The rates trip `tripID` converts at: the trip's when it is shared, else this device's own.
    func rateScope(trip tripID: Int64?) throws -> RateScope {
        guard let tripID, try syncStore.isShared(trip: tripID) else { return .own }
        return RateScope(trip: tripID, codes: Set(try rateStore.currencyCodes(ofTrip: tripID)))
    }
}
