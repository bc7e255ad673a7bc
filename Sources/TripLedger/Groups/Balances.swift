import Storage
import TripCore
import TripModel

extension Ledger {
    /// `trip balances [--trip T]`, in the home currency.
    public func balances(trip name: String?) throws -> GroupBalances {
        let trip = try resolveTrip(name)
        return try balances(of: trip, members: try requireMembers(trip), inCurrency: nil)
    }

    /// `trip balances --by-currency`: one table per currency paid, with no conversion at all.
    public func balancesByCurrency(trip name: String?) throws -> [GroupBalances] {
        let trip = try resolveTrip(name)
        let members = try requireMembers(trip)
        return try purchaseStore.currenciesPaid(trip: trip.id).map { try balances(of: trip, members: members, inCurrency: Currency.stored($0)) }
    }

    func requireMembers(_ trip: Trip) throws -> [Member] {
        let members = try members(of: trip)
        guard !members.isEmpty else {
            throw TripError.usage("balances: \(quoted(trip.name)) has no members; add them with `trip member add NAME…`")
        }
        return members
    }

    /// One pass over the trip's purchases with their splits and one over its transfers. With
    /// `inCurrency`, only that currency's purchases and transfers, in it.
    package func balances(of trip: Trip, members: [Member], inCurrency: Currency?) throws -> GroupBalances {
        let index = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.id, $0) })
        var result = GroupBalances(
            trip: trip, currency: inCurrency ?? trip.homeCurrency,
            rows: members.map { GroupBalances.Row(member: $0) }, unconverted: [], unsplit: 0)
        var unconverted: [String: GroupBalances.Unconverted] = [:]
        var broken = 0
        let unsplit = try scanSplits(trip: trip, members: members, currency: inCurrency?.code) { p in
            // Both lists or neither, so every purchase adds as much paid as shared.
            guard !p.payers.isEmpty && !p.sharers.isEmpty else {
                broken += 1
                return
            }
            guard let amount = inCurrency == nil ? p.home : p.total else {
                unconverted[p.currency, default: .init(currency: .stored(p.currency))].purchases += 1
                unconverted[p.currency]!.amount += p.total
                return
            }
            Allocation.divide(amount, among: p.payers) { k, part in result.rows[p.payers[k].index].paid += part }
            Allocation.divide(amount, among: p.sharers) { k, part in result.rows[p.sharers[k].index].share += part }
        }
        result.unsplit = unsplit + broken
        try transferStore.forEachBalanceTransfer(trip: trip.id, currency: inCurrency?.code) { t in
            guard let from = index[t.from], let to = index[t.to] else { return }
            guard let value = inCurrency == nil ? t.home : t.amount else {
                unconverted[t.currency, default: .init(currency: .stored(t.currency))].transfers += 1
                unconverted[t.currency]!.amount += t.amount
                return
            }
            result.rows[from].sent += value
            result.rows[to].received += value
        }
        result.unconverted = unconverted.keys.sorted().map { unconverted[$0]! }
        return result
    }
}
