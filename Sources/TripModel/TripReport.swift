import TripCore

/// A trip's totals in its home currency, computed with SQL sums over per-purchase rounded home
/// amounts, so every line adds up to the total exactly.
///
/// gross = net + discounts − service − added tax − tip (per purchase, then summed); included tax is
/// shown as "of which" and not added. Unconverted purchases are counted but not in any home sum.
public struct TripReport: Sendable {
    public struct Totals: Sendable, Equatable {
        /// Home minor units.
        public var gross: Int64 = 0
        public var discounts: Int64 = 0
        public var service: Int64 = 0
        public var taxAdded: Int64 = 0
        public var taxIncluded: Int64 = 0
        public var tip: Int64 = 0
        /// Money back (refunds and credits), as a positive amount; already taken off `net` and
        /// every breakdown line.
        public var refunds: Int64 = 0
        public var net: Int64 = 0

        public init(
            gross: Int64 = 0, discounts: Int64 = 0, service: Int64 = 0, taxAdded: Int64 = 0, taxIncluded: Int64 = 0, tip: Int64 = 0,
            refunds: Int64 = 0, net: Int64 = 0
        ) {
            self.gross = gross
            self.discounts = discounts
            self.service = service
            self.taxAdded = taxAdded
            self.taxIncluded = taxIncluded
            self.tip = tip
            self.refunds = refunds
            self.net = net
        }
    }

    public struct Line: Sendable, Equatable {
        public let key: String
        public let count: Int
        /// Home minor units (converted purchases only).
        public let home: Int64
        /// Original-currency minor units, for per-currency lines.
        public let original: Int64?
        /// Purchases in this line with no rate (counted in `count`, not in `home`).
        public var unconverted = 0
        /// `--by member`: what the member paid, in home minor units (their share is `home`).
        public var paid: Int64?

        public init(key: String, count: Int, home: Int64, original: Int64?, unconverted: Int = 0, paid: Int64? = nil) {
            self.key = key
            self.count = count
            self.home = home
            self.original = original
            self.unconverted = unconverted
            self.paid = paid
        }
        /// Every purchase of the line is unconverted (an empty line is not).
        public var isUnconverted: Bool { count > 0 && unconverted == count }
    }

    /// How many purchases, and how much, each kind of rate converted.
    public struct Provenance: Sendable, Equatable {
        public let source: RateSource
        public let provisional: Bool
        public let count: Int
        public let home: Int64
        /// The currency these purchases' cross rates went through; nil for direct rates.
        public let via: String?

        public init(source: RateSource, provisional: Bool, count: Int, home: Int64, via: String? = nil) {
            self.via = via
            self.source = source
            self.provisional = provisional
            self.count = count
            self.home = home
        }
    }

    public let trip: Trip
    /// Rows of kind purchase.
    public let purchaseCount: Int
    public let totals: Totals
    public let byCategory: [Line]
    public let byCurrency: [Line]
    public let provenance: [Provenance]
    /// Purchases with no rate at all, per currency (original minor units).
    public let unconverted: [Line]
    public let provisionalCount: Int
    public let firstDate: CivilDate?
    public let lastDate: CivilDate?

    /// The currency every home amount is in: the trip's home, or `--home`.
    public var home: Currency = Currency(code: "USD", minorUnits: 2, name: "US Dollar")
    /// `--member NAME`: the report is that member's shares only.
    public var member: String?
    /// True when `--home` re-expressed the report in a currency other than the trip's home.
    public var reexpressed = false
    public var grouping: ReportGrouping = .category
    /// The breakdown by `grouping` (empty for `.none`).
    public var groups: [Line] = []
    /// Spend per purchase date (key `YYYY-MM-DD`), oldest first.
    public var byDay: [Line] = []
    /// Days the average is taken over: the trip's days so far (start … min(today, end)), else
    /// first … last purchase date.
    public var days = 0
    /// net / days, rounded half-up to home minor units.
    public var averagePerDay: Int64 = 0
    public var budget: Budget?
    /// The purchases themselves, with `--lines` (and for csv); empty for a member's report, whose
    /// lines are `memberLines`.
    public var lines: [Purchase] = []
    /// `--member NAME` with `--lines` (and for csv): the member's part of each purchase they share.
    public var memberLines: [MemberLine] = []
    public var since: CivilDate?
    public var until: CivilDate?
    /// Rows of kind refund or credit (each breakdown line's `count` includes them).
    public var refundCount = 0

    public init(
        trip: Trip, purchaseCount: Int, totals: Totals, byCategory: [Line], byCurrency: [Line], provenance: [Provenance], unconverted: [Line],
        provisionalCount: Int, firstDate: CivilDate?, lastDate: CivilDate?, home: Currency = Currency(code: "USD", minorUnits: 2, name: "US Dollar"),
        member: String? = nil, reexpressed: Bool = false, grouping: ReportGrouping = .category, groups: [Line] = [], byDay: [Line] = [],
        days: Int = 0, averagePerDay: Int64 = 0, budget: Budget? = nil, lines: [Purchase] = [], memberLines: [MemberLine] = [],
        since: CivilDate? = nil, until: CivilDate? = nil, refundCount: Int = 0
    ) {
        self.trip = trip
        self.purchaseCount = purchaseCount
        self.totals = totals
        self.byCategory = byCategory
        self.byCurrency = byCurrency
        self.provenance = provenance
        self.unconverted = unconverted
        self.provisionalCount = provisionalCount
        self.firstDate = firstDate
        self.lastDate = lastDate
        self.home = home
        self.member = member
        self.reexpressed = reexpressed
        self.grouping = grouping
        self.groups = groups
        self.byDay = byDay
        self.days = days
        self.averagePerDay = averagePerDay
        self.budget = budget
        self.lines = lines
        self.memberLines = memberLines
        self.since = since
        self.until = until
        self.refundCount = refundCount
    }

    public var unconvertedCount: Int { unconverted.reduce(0) { $0 + $1.count } }

    /// The trip's budget against what was spent, in home minor units.
    public struct Budget: Sendable, Equatable {
        public let amount: Int64
        public let spent: Int64
        public var remaining: Int64 { amount - spent }
        /// Days from today to the trip's end, inclusive (`nil` without an end date).
        public let daysLeft: Int?
        /// remaining / daysLeft, floored, so following it never overspends (`nil` when no days are left).
        public let dailyAllowance: Int64?

        public init(amount: Int64, spent: Int64, daysLeft: Int?, dailyAllowance: Int64?) {
            self.amount = amount
            self.spent = spent
            self.daysLeft = daysLeft
            self.dailyAllowance = dailyAllowance
        }
    }
}

/// One purchase in a member's own report: the member's part of it, divided exactly like the
/// split (largest remainder), so the parts of every member add up to the purchase and a member's
/// `homeShare`s add up to their report's net total.
public struct MemberLine: Sendable, Equatable {
    public let purchaseID: Int64
    public let tripName: String
    public let date: String
    public let note: String
    public let category: String?
    /// Money back (a refund or credit): every amount below is negative.
    public let kind: PurchaseKind
    public let currency: Currency
    /// The whole purchase's total, in `currency`.
    public let total: Int64
    /// The member's weight over all the sharers' weights.
    public let portion: Rational
    /// The member's part of `total`.
    public let share: Int64
    /// The report's currency (the trip's home, or `--home`).
    public let homeCurrency: Currency
    /// The whole purchase, and the member's part, in `homeCurrency`; `nil` when unconverted.
    public let home: Int64?
    public let homeShare: Int64?
    public let source: RateSource
    public let provisional: Bool

    public init(
        purchaseID: Int64, tripName: String, date: String, note: String, category: String?, kind: PurchaseKind, currency: Currency, total: Int64,
        portion: Rational, share: Int64, homeCurrency: Currency, home: Int64?, homeShare: Int64?, source: RateSource, provisional: Bool
    ) {
        self.purchaseID = purchaseID
        self.tripName = tripName
        self.date = date
        self.note = note
        self.category = category
        self.kind = kind
        self.currency = currency
        self.total = total
        self.portion = portion
        self.share = share
        self.homeCurrency = homeCurrency
        self.home = home
        self.homeShare = homeShare
        self.source = source
        self.provisional = provisional
    }
}

/// What `trip report` breaks totals down by.
public enum ReportGrouping: String, Sendable, CaseIterable {
    case category, day, currency, payment, member, none
}
