/// The one rule that pairs a card statement's spending rows with the purchases a trip already
/// holds (issue 37): which row is a purchase logged by hand, which is new, and which cannot be
/// told apart without a guess.
///
/// A row matches a purchase of the same currency and the same amount as paid, dated within
/// `windowDays` of it, that no other statement row has matched (of several, the ones already
/// charged the row's amount, if any: settled by hand). The rule never guesses: a row with
/// two or more candidates is ambiguous, and so is every row that wants a purchase another row of
/// the file wants too. Each row's outcome depends only on the rows and the purchases, never on
/// their order, so the same file reconciles the same way however its rows are sorted.
public enum Reconcile {
    /// One spending row of a statement, as the rule sees it.
    public struct Row: Sendable, Hashable {
        /// The row's import key: what a purchase it matched before remembers (`Source.statement`).
        public let key: UInt64
        /// The currency paid in: the original currency of a foreign row, else the account's.
        public let currency: String
        /// The amount paid, in minor units of `currency`, positive.
        public let amount: Int64
        public let date: CivilDate
        /// What the card charged in the trip's home currency, in minor units; `nil` when the row is
        /// in that currency already or the statement does not say.
        public let charged: Int64?

        public init(key: UInt64, currency: String, amount: Int64, date: CivilDate, charged: Int64?) {
            self.key = key
            self.currency = currency
            self.amount = amount
            self.date = date
            self.charged = charged
        }
    }

    /// Where a purchase's charged amount came from.
    public enum Source: Sendable, Hashable {
        /// No charged amount: the purchase is converted at a rate.
        case none
        /// Typed with `--charged` (or read from an export): a statement never overwrites it.
        case byHand
        /// Set by (or the purchase added from) the statement row with this import key.
        case statement(UInt64)
    }

    /// A purchase of the trip, as the rule sees it: money paid (not a refund or a credit).
    public struct Purchase: Sendable, Hashable {
        public let id: Int64
        public let currency: String
        /// The total paid, in minor units of `currency`.
        public let total: Int64
        public let date: CivilDate
        public let charged: Int64?
        public let source: Source

        public init(id: Int64, currency: String, total: Int64, date: CivilDate, charged: Int64?, source: Source) {
            self.id = id
            self.currency = currency
            self.total = total
            self.date = date
            self.charged = charged
            self.source = source
        }
    }

    /// What becomes of one row.
    public enum Outcome: Sendable, Hashable {
        /// The row is purchase `id`. `setsCharged`: the row's charged amount is to be written on
        /// it (`false` when the purchase holds it already, or the row has none).
        case matched(id: Int64, setsCharged: Bool)
        /// No purchase fits: the row is a purchase of its own.
        case added
        /// Two or more purchases fit, or the one that fits is wanted by another row too: not
        /// guessed. The candidates by id, ascending.
        case ambiguous(candidates: [Int64])
        /// The row is purchase `id`, whose charged amount was typed by hand as `logged` and
        /// differs from the statement's: kept, and shown.
        case difference(id: Int64, logged: Int64)
    }

    /// The outcome of each row of `rows`, in their order.
    public static func plan(rows: [Row], purchases: [Purchase], windowDays: Int) -> [Outcome] {
        // A purchase a row of this file matched before is that row's, whatever else fits.
        var claimedBy: [UInt64: Purchase] = [:]
        var open: [Bucket: [Purchase]] = [:]
        for p in purchases {
            switch p.source {
            // Two purchases naming one row (a copy restored from the trash): the lower id, whatever the order.
            case .statement(let key): if claimedBy[key].map({ $0.id > p.id }) ?? true { claimedBy[key] = p }
            case .none, .byHand: open[Bucket(currency: p.currency, amount: p.total), default: []].append(p)
            }
        }
        // Still the same money: a purchase edited since is no longer the row's.
        func claim(_ row: Row) -> Purchase? {
            claimedBy[row.key].flatMap { $0.currency == row.currency && $0.total == row.amount ? $0 : nil }
        }
        let candidates: [[Int64]] = rows.map { row in
            if claim(row) != nil { return [] }
            let day = row.date.daysSinceEpoch
            let fits = (open[Bucket(currency: row.currency, amount: row.amount)] ?? [])
                .filter { abs($0.date.daysSinceEpoch - day) <= windowDays }
            // Those already charged exactly the row's amount were settled by hand (`trip edit ID
            // --charged`, as an ambiguous row asks): they are the row's candidates.
            let settled = row.charged.map { c in fits.filter { $0.charged == c } } ?? []
            return (settled.isEmpty ? fits : settled).map(\.id).sorted()
        }
        // How many rows want each purchase: one wanted twice is given to neither.
        var wanted: [Int64: Int] = [:]
        for ids in candidates { for id in ids { wanted[id, default: 0] += 1 } }
        let byID = Dictionary(purchases.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return zip(rows, candidates).map { row, ids in
            if let p = claim(row) { return .matched(id: p.id, setsCharged: false) }
            guard let first = ids.first else { return .added }
            guard ids.count == 1, wanted[first] == 1, let p = byID[first] else { return .ambiguous(candidates: ids) }
            return outcome(row, p)
        }
    }

    /// A row and the one purchase it is: what is written, or why nothing is.
    static func outcome(_ row: Row, _ p: Purchase) -> Outcome {
        guard let charged = row.charged, p.charged != charged else { return .matched(id: p.id, setsCharged: false) }
        if p.source == .byHand, let logged = p.charged { return .difference(id: p.id, logged: logged) }
        return .matched(id: p.id, setsCharged: true)
    }

    private struct Bucket: Hashable {
        let currency: String
        let amount: Int64
    }
}

extension Reconcile.Outcome {
    /// `matched`, `added`, `ambiguous`, `difference`: the name the JSON and the plan print.
    public var name: String {
        switch self {
        case .matched: "matched"
        case .added: "added"
        case .ambiguous: "ambiguous"
        case .difference: "difference"
        }
    }
}
