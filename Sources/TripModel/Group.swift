import TripCore

/// A member of a group trip. Members keep the order in which they joined (`joined_at`, then id:
/// the order of one `member add`; on a shared trip, then their global ids, `MemberStore.members`),
/// and that order breaks every tie of a split or a settle-up. Not the id alone: on a shared trip
/// each device numbers members as they reach it.
public struct Member: Sendable, Equatable {
    public let id: Int64
    public let tripID: Int64
    public let name: String
    public let joinedAt: String

    public init(id: Int64, tripID: Int64, name: String, joinedAt: String) {
        self.id = id
        self.tripID = tripID
        self.name = name
        self.joinedAt = joinedAt
    }
}

/// A payment between two members of a group trip (Ben pays Ana back), converted into the trip's
/// home currency like a purchase, with the same provenance.
public struct Transfer: Sendable, Equatable {
    public let id: Int64
    public let tripName: String
    public let from: String
    public let to: String
    public let date: CivilDate
    public let amount: Money
    public let conversion: Conversion
    public let note: String
    /// On a shared trip, the transfer's shared id (`t-3mf2a`, `SharedID`): `nil` before its first sync.
    public var sharedID: String?
    /// Whether the transfer is on a shared trip (its JSON then has `shared_id`).
    public var onSharedTrip = false

    public init(id: Int64, tripName: String, from: String, to: String, date: CivilDate, amount: Money, conversion: Conversion, note: String) {
        self.id = id
        self.tripName = tripName
        self.from = from
        self.to = to
        self.date = date
        self.amount = amount
        self.conversion = conversion
        self.note = note
    }
}

extension Transfer {
    /// How a transfer is named to people: `T3`, never a bare number, so that it is never taken for
    /// a purchase's id (`trip rm 5` removes purchase 5; `trip rm T5` removes transfer 5).
    public var ref: String { Transfer.ref(id) }

    public static func ref(_ id: Int64) -> String { "T\(id)" }

    /// The id in `T3` or `t3`; `nil` for anything else (a purchase's id included).
    public static func id(fromRef text: String) -> Int64? {
        guard let first = text.first, first == "T" || first == "t", let id = Int64(text.dropFirst()), id > 0 else { return nil }
        return id
    }
}

/// `trip transfer edit T3 …`: the fields to change, as typed; `nil` keeps the field.
public struct TransferEdit: Sendable, Equatable {
    public var from: String?
    public var to: String?
    public var amount: String?
    public var currency: String?
    public var date: String?
    public var note: String?

    public init(from: String? = nil, to: String? = nil, amount: String? = nil, currency: String? = nil, date: String? = nil, note: String? = nil) {
        self.from = from
        self.to = to
        self.amount = amount
        self.currency = currency
        self.date = date
        self.note = note
    }

    public var isEmpty: Bool { self == TransferEdit() }
}

/// What `trip rm ID` removed: a purchase (to the trash) or, for a `T…` id, a transfer.
public enum Removal: Sendable {
    case purchase(Purchase)
    case transfer(Transfer)
}

/// Who paid one purchase and who shares it: weights per member, as stored. Amounts come from
/// `amounts(total:home:)`, divided exactly by the largest-remainder method.
public struct PurchaseSplit: Sendable, Equatable {
    public struct Part: Sendable, Equatable {
        public let member: Member
        public let weight: Rational

        public init(member: Member, weight: Rational) {
            self.member = member
            self.weight = weight
        }
    }

    public let payers: [Part]
    public let shares: [Part]

    public init(payers: [Part], shares: [Part]) {
        self.payers = payers
        self.shares = shares
    }

    /// One participant's part of an amount, in the purchase's currency and in the home currency
    /// (`nil` when the purchase has no rate).
    public struct Amounts: Sendable, Equatable {
        public let member: Member
        public let weight: Rational
        public let amount: Int64
        public let home: Int64?

        public init(member: Member, weight: Rational, amount: Int64, home: Int64?) {
            self.member = member
            self.weight = weight
            self.amount = amount
            self.home = home
        }
    }

    /// The payers' and the sharers' parts of `total` and of `home`; each list adds up to them.
    public func amounts(total: Int64, home: Int64?) -> (paid: [Amounts], shares: [Amounts]) {
        func divide(_ parts: [Part]) -> [Amounts] {
            let weights = parts.map(\.weight)
            let t = (try? Allocation.largestRemainder(total, weights: weights)) ?? parts.map { _ in 0 }
            let h = home.map { (try? Allocation.largestRemainder($0, weights: weights)) ?? parts.map { _ in 0 } }
            return parts.indices.map { Amounts(member: parts[$0].member, weight: parts[$0].weight, amount: t[$0], home: h?[$0]) }
        }
        return (divide(payers), divide(shares))
    }
}

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

        public init(member: Member, paid: Int64 = 0, share: Int64 = 0, sent: Int64 = 0, received: Int64 = 0) {
            self.member = member
            self.paid = paid
            self.share = share
            self.sent = sent
            self.received = received
        }
        public var balance: Int64 { paid - share + sent - received }
    }

    /// Purchases or transfers with no rate, per currency: never converted 1:1, so they are in no
    /// balance above; the amounts are in their own currency.
    public struct Unconverted: Sendable, Equatable {
        public let currency: Currency
        public var purchases = 0
        public var transfers = 0
        public var amount: Int64 = 0

        public init(currency: Currency, purchases: Int = 0, transfers: Int = 0, amount: Int64 = 0) {
            self.currency = currency
            self.purchases = purchases
            self.transfers = transfers
            self.amount = amount
        }
    }

    public let trip: Trip
    /// In the trip's home currency, or in `currency` for one currency of `--by-currency`.
    public let currency: Currency
    public var rows: [Row]
    public var unconverted: [Unconverted]
    /// Purchases with no split (logged before the trip had members): in no balance.
    public var unsplit: Int

    public init(trip: Trip, currency: Currency, rows: [Row], unconverted: [Unconverted], unsplit: Int) {
        self.trip = trip
        self.currency = currency
        self.rows = rows
        self.unconverted = unconverted
        self.unsplit = unsplit
    }

    /// The settle-up: transfers that bring every balance to zero, fewest first (see `SettleUp`).
    public var settlement: [(from: Member, to: Member, amount: Int64)] {
        SettleUp.plan(balances: rows.map(\.balance)).map { (rows[$0.from].member, rows[$0.to].member, $0.amount) }
    }
}

/// What `trip import FILE --splitwise` did.
public struct SplitwiseImportResult: Sendable {
    public let trip: String
    public let purchases: Int
    public let transfers: Int
    public let membersAdded: [String]
    /// The `Total balance` rows checked against the balances the import produced, per currency.
    public let checkedCurrencies: [String]
    /// Rows already in the trip (an export imported before, or an overlapping one): not added again.
    public var skipped = 0
    /// What the `Total balance` rows were compared with: the trip's balances when it holds only
    /// the file's rows, else what the import changed; `nil` when nothing could be compared.
    public var compared: String?
    /// Lines for standard error: expenses dated outside the trip.
    public var warnings: [String] = []

    public init(trip: String, purchases: Int, transfers: Int, membersAdded: [String], checkedCurrencies: [String]) {
        self.trip = trip
        self.purchases = purchases
        self.transfers = transfers
        self.membersAdded = membersAdded
        self.checkedCurrencies = checkedCurrencies
    }
}

/// A transfer as the exports write it: its members with their ids (a journal posts to each
/// member's account), its amount and, when it has a rate, its home amount and quote.
public struct ExportTransfer: Sendable {
    public let id: Int64
    public let tripID: Int64
    public let tripName: String
    public let from: Member
    public let to: Member
    public let date: CivilDate
    public let amount: Money
    public let homeCurrency: Currency
    /// `nil`: no rate, so in no balance.
    public let home: Int64?
    public let quote: RateQuote?
    public let note: String

    public init(
        id: Int64, tripID: Int64, tripName: String, from: Member, to: Member, date: CivilDate, amount: Money,
        homeCurrency: Currency, home: Int64?, quote: RateQuote?, note: String
    ) {
        self.id = id
        self.tripID = tripID
        self.tripName = tripName
        self.from = from
        self.to = to
        self.date = date
        self.amount = amount
        self.homeCurrency = homeCurrency
        self.home = home
        self.quote = quote
        self.note = note
    }
}
