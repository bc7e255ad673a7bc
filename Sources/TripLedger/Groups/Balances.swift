import TripCore

/// `trip balances`: per member, in the trip's home currency, what they paid, their share,
/// transfers sent and received, and the balance (paid − share + sent − received). The balances
/// add up to exactly zero, because every purchase's home amount is divided exactly twice (among
/// its payers and among its sharers) and every transfer adds to one member what it takes from
/// another.
public struct GroupBalances: Sendable {
    public struct Row: Sendable, Equatable {
        public let member: Member
        public var paid: Int64 = 0
        public var share: Int64 = 0
        public var sent: Int64 = 0
        public var received: Int64 = 0
        public var balance: Int64 { paid - share + sent - received }
    }

    /// Purchases or transfers with no rate, per currency: never converted 1:1, so they are in no
    /// balance above; the amounts are in their own currency.
    public struct Unconverted: Sendable, Equatable {
        public let currency: Currency
        public var purchases = 0
        public var transfers = 0
        public var amount: Int64 = 0
    }

    public let trip: Trip
    /// In the trip's home currency, or in `currency` for one currency of `--by-currency`.
    public let currency: Currency
    public var rows: [Row]
    public var unconverted: [Unconverted]
    /// Purchases with no split (logged before the trip had members): in no balance.
    public var unsplit: Int

    /// The settle-up: transfers that bring every balance to zero, fewest first (see `SettleUp`).
    public var settlement: [(from: Member, to: Member, amount: Int64)] {
        SettleUp.plan(balances: rows.map(\.balance)).map { (rows[$0.from].member, rows[$0.to].member, $0.amount) }
    }
}

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
    func balances(of trip: Trip, members: [Member], inCurrency: Currency?) throws -> GroupBalances {
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
            SplitRow.divide(amount, among: p.payers) { k, part in result.rows[p.payers[k].index].paid += part }
            SplitRow.divide(amount, among: p.sharers) { k, part in result.rows[p.sharers[k].index].share += part }
        }
        result.unsplit = unsplit + broken
        try db.prepare(
            """
            SELECT \(BalanceTransferColumn.sqlList) FROM transfers
            WHERE trip_id = ?1 AND (?2 IS NULL OR currency = ?2) ORDER BY id
            """
        ).forEach([.integer(trip.id), SQLValue(inCurrency?.code)]) { statement in
            let s = ResultRow<BalanceTransferColumn>(statement)
            guard let from = index[s.int(.from)], let to = index[s.int(.to)] else { return }
            guard let value = inCurrency == nil ? s.optionalInt(.home) : s.int(.amount) else {
                let code = s.text(.currency)
                unconverted[code, default: .init(currency: .stored(code))].transfers += 1
                unconverted[code]!.amount += s.int(.amount)
                return
            }
            result.rows[from].sent += value
            result.rows[to].received += value
        }
        result.unconverted = unconverted.keys.sorted().map { unconverted[$0]! }
        return result
    }
}

/// The columns of `transfers` a balance reads.
enum BalanceTransferColumn: Int32, ColumnList {
    case from, to, currency, amount, home

    var sql: StaticString {
        switch self {
        case .from: "from_member"
        case .to: "to_member"
        case .currency: "currency"
        case .amount: "amount_minor"
        case .home: "home_minor"
        }
    }
}
