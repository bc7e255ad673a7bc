import TestSupport
import Testing

@testable import TripCore

/// `Reconcile.plan`, the one rule pairing a statement's rows with logged purchases (issue 37):
/// worked cases, then properties over seeded random trips and statements (SplitMix64). The seeds
/// are fixed (1...300), so every run replays the same draws; a failure names its seed.
@Suite("Reconcile: statement rows and logged purchases")
struct ReconcileTests {
    static func day(_ d: Int) -> CivilDate { CivilDate(year: 2025, month: 8, day: 1)!.adding(days: d)! }

    static func row(_ key: UInt64, _ amount: Int64, _ currency: String = "USD", day d: Int, charged: Int64? = nil) -> Reconcile.Row {
        Reconcile.Row(key: key, currency: currency, amount: amount, date: day(d), charged: charged)
    }

    static func purchase(
        _ id: Int64, _ total: Int64, _ currency: String = "USD", day d: Int, charged: Int64? = nil, source: Reconcile.Source = .none
    ) -> Reconcile.Purchase {
        Reconcile.Purchase(id: id, currency: currency, total: total, date: day(d), charged: charged, source: source)
    }

    // MARK: worked cases

    @Test func theIssuesCaseMatchesAndSetsTheChargedAmount() {
        let plan = Reconcile.plan(
            rows: [Self.row(1, 2000, day: 0, charged: 1505)], purchases: [Self.purchase(7, 2000, day: -1)], windowDays: 3)
        #expect(plan == [.matched(id: 7, setsCharged: true)])
    }

    @Test func noCandidateIsAddedAndOutsideTheWindowIsNoCandidate() {
        let purchases = [Self.purchase(1, 2000, day: -4), Self.purchase(2, 2000, "EUR", day: 0), Self.purchase(3, 2001, day: 0)]
        #expect(Reconcile.plan(rows: [Self.row(1, 2000, day: 0)], purchases: purchases, windowDays: 3) == [.added])
        #expect(Reconcile.plan(rows: [Self.row(1, 2000, day: 0)], purchases: purchases, windowDays: 4) == [.matched(id: 1, setsCharged: false)])
    }

    @Test func twoCandidatesAreAmbiguous() {
        let purchases = [Self.purchase(2, 3000, day: 1), Self.purchase(1, 3000, day: 2)]
        #expect(Reconcile.plan(rows: [Self.row(1, 3000, day: 1)], purchases: purchases, windowDays: 3) == [.ambiguous(candidates: [1, 2])])
    }

    /// An ambiguous row settled with `trip edit ID --charged`: the purchase charged its amount is its match.
    @Test func ofTwoCandidatesTheOneChargedTheRowsAmountByHandIsTheMatch() {
        let purchases = [Self.purchase(2, 3000, day: 1, charged: 2258, source: .byHand), Self.purchase(3, 3000, day: 2)]
        #expect(
            Reconcile.plan(rows: [Self.row(1, 3000, day: 1, charged: 2258)], purchases: purchases, windowDays: 3) == [
                .matched(id: 2, setsCharged: false)
            ])
    }

    /// One purchase two rows want: neither gets it, whichever comes first.
    @Test func aPurchaseWantedByTwoRowsIsGivenToNeither() {
        let rows = [Self.row(1, 3000, day: 0), Self.row(2, 3000, day: 1)]
        let expected: [Reconcile.Outcome] = [.ambiguous(candidates: [5]), .ambiguous(candidates: [5])]
        #expect(Reconcile.plan(rows: rows, purchases: [Self.purchase(5, 3000, day: 0)], windowDays: 3) == expected)
        #expect(Reconcile.plan(rows: rows.reversed(), purchases: [Self.purchase(5, 3000, day: 0)], windowDays: 3) == expected)
    }

    @Test func aChargedAmountTypedByHandIsADifferenceWhenTheStatementDisagrees() {
        let typed = Self.purchase(4, 2000, day: 0, charged: 1500, source: .byHand)
        #expect(
            Reconcile.plan(rows: [Self.row(1, 2000, day: 0, charged: 1505)], purchases: [typed], windowDays: 3) == [
                .difference(id: 4, logged: 1500)
            ])
        #expect(
            Reconcile.plan(rows: [Self.row(1, 2000, day: 0, charged: 1500)], purchases: [typed], windowDays: 3) == [
                .matched(id: 4, setsCharged: false)
            ])
    }

    /// The same statement again: its row finds the purchase it charged, and no other.
    @Test func aPurchaseChargedFromThisRowIsItsMatchAndNoOtherRowsCandidate() {
        let purchases = [Self.purchase(4, 2000, day: 0, charged: 1505, source: .statement(9)), Self.purchase(5, 2000, day: 9)]
        let rows = [Self.row(9, 2000, day: 0, charged: 1505), Self.row(10, 2000, day: 1, charged: 1505)]
        #expect(Reconcile.plan(rows: rows, purchases: purchases, windowDays: 3) == [.matched(id: 4, setsCharged: false), .added])
    }

    // MARK: properties

    /// A random trip and statement of few currencies, amounts and days, so that rows collide.
    static func draw(seed: UInt64) -> (rows: [Reconcile.Row], purchases: [Reconcile.Purchase], window: Int) {
        var g = SplitMix64(seed: seed)
        func below(_ n: Int) -> Int { Int(g.next() % UInt64(n)) }
        let currencies = ["USD", "EUR", "JPY"]
        let sources: [Reconcile.Source] = [.none, .none, .byHand, .statement(1000 + UInt64(below(5)))]
        let purchases = (0..<below(25)).map { i in
            let source = sources[below(sources.count)]
            return Self.purchase(
                Int64(i + 1), Int64(100 * (1 + below(6))), currencies[below(3)], day: below(15),
                charged: source == .none ? nil : Int64(50 + below(3)), source: source)
        }
        let rows = (0..<below(25)).map { i in
            Self.row(
                UInt64(1000 + i), Int64(100 * (1 + below(6))), currencies[below(3)], day: below(15),
                charged: below(4) == 0 ? nil : Int64(50 + below(3)))
        }
        return (rows, purchases, below(5))
    }

    static let seeds: [UInt64] = Array(1...300)

    @Test(arguments: seeds) func neverMatchesOnePurchaseTwiceNorAcrossCurrenciesNorOutsideTheWindow(seed: UInt64) {
        let (rows, purchases, window) = Self.draw(seed: seed)
        let plan = Reconcile.plan(rows: rows, purchases: purchases, windowDays: window)
        let byID = Dictionary(uniqueKeysWithValues: purchases.map { ($0.id, $0) })
        var taken: Set<Int64> = []
        for (row, outcome) in zip(rows, plan) {
            let id: Int64
            switch outcome {
            case .matched(let i, _), .difference(let i, _): id = i
            case .added, .ambiguous: continue
            }
            #expect(taken.insert(id).inserted, "seed \(seed): purchase #\(id) matched twice")
            let p = byID[id]!
            #expect(p.currency == row.currency && p.total == row.amount, "seed \(seed): row \(row.key) matched #\(id) of other money")
            if case .statement(let key) = p.source {
                #expect(key == row.key, "seed \(seed): #\(id) is statement row \(key)'s, given to row \(row.key)")
            } else {
                #expect(
                    abs(p.date.daysSinceEpoch - row.date.daysSinceEpoch) <= window,
                    "seed \(seed): row \(row.key) on \(row.date) matched #\(id) on \(p.date), window \(window)")
            }
        }
    }

    @Test(arguments: seeds) func theSameResultWhateverTheRowsOrder(seed: UInt64) {
        let (rows, purchases, window) = Self.draw(seed: seed)
        let plan = Reconcile.plan(rows: rows, purchases: purchases, windowDays: window)
        var g = SplitMix64(seed: seed ^ 0x5EED)
        let order = rows.indices.shuffled(using: &g)
        let shuffled = Reconcile.plan(rows: order.map { rows[$0] }, purchases: purchases.shuffled(using: &g), windowDays: window)
        #expect(order.map { plan[$0] } == shuffled, "seed \(seed): the outcome depends on the rows' order")
    }

    /// Every row that is not matched had a reason: no candidate (added) or more than one claim.
    @Test(arguments: seeds) func anAddedRowHadNoCandidate(seed: UInt64) {
        let (rows, purchases, window) = Self.draw(seed: seed)
        let plan = Reconcile.plan(rows: rows, purchases: purchases, windowDays: window)
        for (row, outcome) in zip(rows, plan) where outcome == .added {
            let fits = purchases.filter {
                $0.source.isOpen && $0.currency == row.currency && $0.total == row.amount
                    && abs($0.date.daysSinceEpoch - row.date.daysSinceEpoch) <= window
            }
            #expect(fits.isEmpty, "seed \(seed): row \(row.key) added though #\(fits.map(\.id)) fit")
        }
    }
}

extension Reconcile.Source {
    fileprivate var isOpen: Bool {
        if case .statement = self { false } else { true }
    }
}
