import TripCore

extension Ledger {
    /// `trip report --member NAME`: one row per purchase the member shares, each amount (home
    /// total, discount, service, tax, tip, and the total in the purchase's currency) being the
    /// member's part of it, divided exactly like the split. Folded like any report, so its lines
    /// add up to its total, and the members' reports add up to the trip's.
    func memberRows(trip: Trip, member name: String, from: String, to: String) throws -> [ReportRow] {
        let members = try requireMembers(trip)
        let member = try Ledger.member(name, in: members, trip: trip)
        let me = members.firstIndex { $0.id == member.id }!
        var rows: [ReportRow] = []
        try scanSplits(trip: trip, members: members, from: from, to: to, details: true) { p in
            guard let k = p.sharers.firstIndex(where: { $0.index == me }) else { return }
            func part(_ amount: Int64) -> Int64 { SplitRow.divide(amount, among: p.sharers)[k] }
            let converted = p.home != nil
            let total = part(p.total)
            rows.append(ReportRow(
                category: p.category ?? "uncategorized", currency: p.currency, source: p.source, provisional: p.provisional,
                taxIncluded: p.taxIncluded, count: 1, home: p.home.map(part) ?? 0, discount: converted ? part(p.homeDiscount) : 0,
                service: converted ? part(p.homeService) : 0, tax: converted ? part(p.homeTax) : 0,
                tip: converted ? part(p.homeTip) : 0, total: total,
                refunds: p.moneyBack ? -(p.home.map(part) ?? 0) : 0, refundCount: p.moneyBack ? 1 : 0, unconverted: converted ? 0 : 1,
                unconvertedTotal: converted ? 0 : total, first: p.date, last: p.date, date: p.date, payment: p.paidWith))
        }
        return rows
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
            for (k, v) in SplitRow.divide(home, among: p.sharers).enumerated() { share[p.sharers[k].index] += v }
            for (k, v) in SplitRow.divide(home, among: p.payers).enumerated() { paid[p.payers[k].index] += v }
        }
        return members.indices.map { i in
            var line = TripReport.Line(key: members[i].name, count: count[i], home: share[i], original: nil)
            line.unconverted = unconverted[i]
            line.paid = paid[i]
            return line
        }
    }
}
