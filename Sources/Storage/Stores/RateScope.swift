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
package struct RateScope {
    /// 0: this device's own rates only; else the local id of the shared trip.
    package let trip: Int64
    /// The shared trip's currencies (`RateStore.currencyCodes(ofTrip:)`).
    package let codes: Set<String>

    package init(trip: Int64, codes: Set<String>) {
        self.trip = trip
        self.codes = codes
    }

    /// This device's own rates: a trip never shared, `trip convert`, `trip rates` outside a shared trip.
    package static let own = RateScope(trip: 0, codes: [])

    /// The currencies as the store reads them: a JSON array.
    package var currencies: String { JSONValue.array(codes.sorted().map { .string($0) }).serialized }

    /// The scope of one conversion: its two currencies count as the trip's, as they will once the
    /// purchase being converted is stored (its rate travels with it).
    package func converting(_ from: String, _ to: String) -> RateScope {
        trip == 0 ? self : RateScope(trip: trip, codes: codes.union([from, to]))
    }
}
