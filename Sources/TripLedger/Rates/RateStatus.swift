import Storage
import TripCore
import TripModel

extension Ledger {
    /// `trip rates status`: per currency, the newest observation, its age and provider, and how
    /// many purchases still wait for a final rate.
    public func rateStatus() throws -> [RateStatusLine] {
        let latest = try rateStore.newestObservations()
        let provisional = try purchaseStore.provisionalCounts()
        let used = try purchaseStore.purchaseAndHomeCurrencies()
        let codes = used.union(latest.keys).sorted()
        return codes.map { code in
            let l = latest[code]
            let date = l.flatMap { CivilDate(iso: $0.date) }
            return RateStatusLine(
                currency: code, latest: date, provider: l?.provider,
                ageDays: date.map { clock.today.daysSinceEpoch - $0.daysSinceEpoch },
                provisional: provisional[code] ?? 0)
        }
    }
}
