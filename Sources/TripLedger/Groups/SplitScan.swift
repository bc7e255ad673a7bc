import Storage
import TripCore
import TripModel

/// One purchase of a group trip: its stored amounts and the weights of its payers and sharers
/// (indices into the trip's members, in join order).
struct SplitRow {
    var id: Int64 = 0
    /// In `currency`'s minor units.
    var total: Int64 = 0
    /// Home minor units; `nil` when the purchase has no rate. Negative for money back.
    var home: Int64?
    /// A refund or a credit: its amounts are negative.
    var moneyBack = false
    var currency = ""
    var payers: [(index: Int, weight: Rational)] = []
    var sharers: [(index: Int, weight: Rational)] = []
    /// With `details` only: what a member's own report needs.
    var category: String?
    var source: RateSource = .none
    var provisional = false
    var taxIncluded = false
    var homeDiscount: Int64 = 0, homeService: Int64 = 0, homeTax: Int64 = 0, homeTip: Int64 = 0
    var date = ""
    var paidWith: String?
    var note = ""
    var kind = PurchaseKind.purchase
}

extension Ledger {
    /// Calls `body` with each purchase of `trip` that has a split, dated within `from…to` (and in
    /// `currency`, if given), in id order, with its payers and sharers; returns how many purchases
    /// in that range have no split (logged before the trip had members). One streamed query: the
    /// trip's splits are one range of `purchase_splits`' key, each joined to its purchase by rowid
    /// and parsed from its bytes. `details` also reads what a member's report needs.
    @discardableResult
    func scanSplits(
        trip: Trip, members: [Member], from: String = "0001-01-01", to: String = "9999-12-31",
        currency: String? = nil, details: Bool = false, _ body: (SplitRow) throws -> Void
    ) throws -> Int {
        let index = SplitWeights.Positions(members)
        var row = SplitRow()
        var split = 0
        // `details`: the note and kind only for a member's lines; balances read neither.
        try splitStore.forEachSplitPurchase(trip: trip.id, from: from, to: to, currency: currency, details: details) { s in
            split += 1
            row.id = s.int(.purchaseID)
            row.payers.removeAll(keepingCapacity: true)
            row.sharers.removeAll(keepingCapacity: true)
            let id = row.id
            try s.withBytes(.payers) { try SplitWeights.decode($0, index: index, into: &row.payers, purchase: id, field: "payers") }
            try s.withBytes(.shares) { try SplitWeights.decode($0, index: index, into: &row.sharers, purchase: id, field: "split") }
            // Money back (a refund, a credit) counts negative, and is divided like a purchase.
            let sign: Int64 = s.int(.isPurchase) == 1 ? 1 : -1
            row.moneyBack = sign < 0
            row.total = sign * (try Self.bounded(s.int(.total), purchase: id, field: "total"))
            row.home = try s.optionalInt(.home).map { sign * (try Self.bounded($0, purchase: id, field: "home amount")) }
            if row.home == nil || currency != nil || details { row.currency = s.text(.currency) }
            if details {
                row.category = s.optionalText(.category)
                row.source = RateSource(rawValue: s.text(.rateSource)) ?? .none
                row.provisional = s.int(.provisional) == 1
                row.taxIncluded = s.int(.taxIncluded) == 1
                row.homeDiscount = sign * (try Self.bounded(s.int(.homeDiscount), purchase: id, field: "home discount"))
                row.homeService = sign * (try Self.bounded(s.int(.homeService), purchase: id, field: "home service"))
                row.homeTax = sign * (try Self.bounded(s.int(.homeTax), purchase: id, field: "home tax"))
                row.homeTip = sign * (try Self.bounded(s.int(.homeTip), purchase: id, field: "home tip"))
                row.date = s.text(.date)
                row.paidWith = s.optionalText(.paidWith)
                row.note = s.text(.note)
                row.kind = PurchaseKind(rawValue: s.text(.kind)) ?? .purchase
            }
            try body(row)
        }
        let all = try purchaseStore.count(trip: trip.id, from: from, to: to, currency: currency)
        return all - split
    }

    /// A stored amount of purchase `id`, refused beyond `PurchaseBound` (which every write keeps):
    /// balances add thousands of them, and one near Int64's ends would overflow the sums.
    static func bounded(_ amount: Int64, purchase id: Int64, field: String) throws(TripError) -> Int64 {
        guard PurchaseBound.contains(amount) else {
            throw .badStoredValue(
                row: "purchase #\(id)", field: field, value: String(amount),
                reason: "is beyond the largest amount a purchase holds (\(PurchaseBound.maxMinorUnits) minor units)")
        }
        return amount
    }
}
