import Storage
import TripCore
import TripModel

extension Ledger {
    /// `trip report --member NAME`: one row per purchase the member shares, each amount (home
    /// total, discount, service, tax, tip, and the total in the purchase's currency) being the
    /// member's part of it, divided exactly like the split. Folded like any report, so its lines
    /// add up to its total, and the members' reports add up to the trip's. The same parts, one
    /// `MemberLine` per purchase, are the report's lines.
    ///
    /// `reexpressed` (`--home`): each purchase's amounts converted again into `home`, by purchase
    /// id, divided instead of the stored ones.
    func memberRows(
        trip: Trip, member name: String, from: String, to: String, reexpressed: [Int64: ReportRow]? = nil,
        home: Currency
    ) throws -> (rows: [ReportRow], lines: [MemberLine]) {
        // Not a member is one mistake with one answer (65), whether the trip has members or not.
        let members = try members(of: trip)
        let member = try Ledger.member(name, in: members, trip: trip)
        let me = members.firstIndex { $0.id == member.id }!
        var rows: [ReportRow] = []
        var lines: [MemberLine] = []
        try scanSplits(trip: trip, members: members, from: from, to: to, details: true) { p in
            guard let k = p.sharers.firstIndex(where: { $0.index == me }) else { return }
            func part(_ amount: Int64) -> Int64 { Allocation.divide(amount, among: p.sharers)[k] }
            // The stored conversion, or the one `--home` made (both signed like the purchase).
            var amounts = (
                home: p.home, discount: p.homeDiscount, service: p.homeService, tax: p.homeTax, tip: p.homeTip,
                source: p.source, provisional: p.provisional
            )
            if let again = reexpressed?[p.id] {
                let converted = again.unconverted == 0
                amounts = (
                    converted ? again.home : nil, again.discount, again.service, again.tax, again.tip, again.source,
                    again.provisional
                )
            }
            let converted = amounts.home != nil
            let total = part(p.total)
            let homeShare = amounts.home.map(part)
            rows.append(
                ReportRow(
                    category: p.category ?? "uncategorized", currency: p.currency, source: amounts.source,
                    provisional: amounts.provisional, taxIncluded: p.taxIncluded, count: 1, home: homeShare ?? 0,
                    discount: converted ? part(amounts.discount) : 0, service: converted ? part(amounts.service) : 0,
                    tax: converted ? part(amounts.tax) : 0, tip: converted ? part(amounts.tip) : 0, total: total,
                    refunds: p.moneyBack ? -(homeShare ?? 0) : 0, refundCount: p.moneyBack ? 1 : 0, unconverted: converted ? 0 : 1,
                    unconvertedTotal: converted ? 0 : total, first: p.date, last: p.date, date: p.date, payment: p.paidWith))
            let weights = p.sharers.reduce(Rational.zero) { (try? $0 + $1.weight) ?? $0 }
            lines.append(
                MemberLine(
                    purchaseID: p.id, tripName: trip.name, date: p.date, note: p.note, category: p.category,
                    kind: p.kind, currency: .stored(p.currency), total: p.total,
                    portion: (try? p.sharers[k].weight / weights) ?? .zero, share: total, homeCurrency: home, home: amounts.home,
                    homeShare: homeShare, source: amounts.source, provisional: amounts.provisional))
        }
        return (rows, lines)
    }

    /// `trip report --by member`: per member, in join order, their share of the home amounts
    /// (`home`, adding up to the report's net over split purchases) and what they paid (`paid`).
    func memberLines(trip: Trip, from: String, to: String) throws -> [TripReport.Line] {
        let members = try requireMembers(trip)
        var share = [Int64](repeating: 0, count: members.count), paid = share
        var count = [Int](repeating: 0, count: members.count), unconverted = count
        try scanSplits(trip: trip, members: members, from: from, to: to) { p in
            for s in p.sharers {
                count[s.index] += 1
                if p.home == nil { unconverted[s.index] += 1 }
            }
            guard let home = p.home else { return }
            for (k, v) in Allocation.divide(home, among: p.sharers).enumerated() { share[p.sharers[k].index] += v }
            for (k, v) in Allocation.divide(home, among: p.payers).enumerated() { paid[p.payers[k].index] += v }
        }
        return members.indices.map { i in
            var line = TripReport.Line(key: members[i].name, count: count[i], home: share[i], original: nil)
            line.unconverted = unconverted[i]
            line.paid = paid[i]
            return line
        }
    }
}
