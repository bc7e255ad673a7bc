import TripCore
import TripModel

/// What every report format says the same way: labels, shares, warnings, money in the report's
/// currency. The renderers only lay these out.
extension TripReport {
    func money(_ v: Int64) -> String { Money.group(Money(minorUnits: v, currency: home).plainText) }

    /// `part` as a percentage of the net total, one decimal, half-up ("38.8%"); empty when net is 0.
    func share(_ part: Int64) -> String {
        guard totals.net != 0, let r = try? Rational(Int128(part) * 100, Int128(totals.net)) else { return "" }
        return r.decimalText(fractionDigits: 1, rounding: .halfUp) + "%"
    }

    /// The totals rows in display order: label and signed amount (discounts negative).
    var totalRows: [(String, Int64)] {
        var rows: [(String, Int64)] = [("gross", totals.gross)]
        if totals.discounts != 0 { rows.append(("discounts saved", -totals.discounts)) }
        if totals.service != 0 { rows.append(("service", totals.service)) }
        if totals.taxAdded != 0 { rows.append(("tax added", totals.taxAdded)) }
        if totals.tip != 0 { rows.append(("tip", totals.tip)) }
        if totals.refunds != 0 { rows.append(("refunds", -totals.refunds)) }
        rows.append(("net total", totals.net))
        return rows
    }

    /// A line's note as the Markdown and HTML reports show it: money back says what it is, as in
    /// `trip list` ("refund of #3 jacket", "credit tax-free").
    static func lineNote(_ p: Purchase) -> String {
        switch p.kind {
        case .purchase: p.note
        case .refund: "refund of #\(p.refundOf.map(String.init) ?? "?") \(p.note)"
        case .credit: "credit \(p.note)"
        }
    }

    /// A line's amount in the report's currency, signed (money back is negative) and grouped, so
    /// a report's lines add up to its net total in every format; "unconverted" without a rate.
    static func lineHome(_ p: Purchase) -> String {
        p.signedHome.map { Money.group(Money(minorUnits: $0, currency: p.conversion.homeCurrency).plainText) } ?? "unconverted"
    }

    /// A member's part of a line in the report's currency, grouped like `lineHome`.
    static func memberLineHome(_ l: MemberLine) -> String {
        l.homeShare.map { Money.group(Money(minorUnits: $0, currency: l.homeCurrency).plainText) } ?? "unconverted"
    }

    var groupTitle: String {
        switch grouping {
        case .category: "By category"
        case .day: "By day"
        case .currency: "By currency paid"
        case .payment: "By payment method"
        case .member: "By member (share, then what they paid)"
        case .none: ""
        }
    }

    /// A group line's key as shown: currency lines also show the amount paid.
    func groupLabel(_ l: Line) -> String {
        if grouping == .currency, let o = l.original, let c = CurrencyTable.shared.lookup(l.key) {
            return Money(minorUnits: o, currency: c).formatted
        }
        return l.key
    }

    static func provenanceLabel(_ p: Provenance) -> String {
        directLabel(p) + (p.via.map { " via \($0)" } ?? "")
    }

    private static func directLabel(_ p: Provenance) -> String {
        switch (p.source, p.provisional) {
        case (.identity, _): "home currency, no conversion"
        case (.provider, false): "provider rate, final"
        case (.provider, true): "provider rate, provisional or stale"
        case (.fallback, false): "fallback table, irrevocable"
        case (.fallback, true): "fallback table, provisional"
        case (.manual, _): "manual rate"
        case (.charged, _): "card's charged amount"
        case (.none, _): "no rate, unconverted"
        }
    }

    /// Lines that must not be missed: anything not final.
    var warnings: [String] {
        var out: [String] = []
        let provisional = provisionalCount - unconvertedCount
        if provisional > 0, let closed = trip.closedAt {
            // Sync skips closed trips, so telling the user to sync would not help.
            out.append(
                "\(provisional) purchase\(provisional == 1 ? " keeps its" : "s keep their") provisional rate\(provisional == 1 ? "" : "s"): the trip was closed on \(closed.prefix(10)); `trip reopen` and `trip rates sync` to replace \(provisional == 1 ? "it" : "them")"
            )
        } else if provisional > 0 {
            out.append(
                "\(provisional) purchase\(provisional == 1 ? " is" : "s are") converted at provisional rates; run `trip rates sync` when online")
        }
        if unconvertedCount > 0 {
            let what = unconverted.compactMap { l in
                CurrencyTable.shared.lookup(l.key).map { Money(minorUnits: l.original ?? 0, currency: $0).formatted }
            }
            out.append(
                "\(unconvertedCount) purchase\(unconvertedCount == 1 ? " is" : "s are") unconverted (no rate) and not in the totals: \(what.joined(separator: ", "))"
            )
        }
        return out
    }

    /// A count as the report writes every number for people: digits grouped (`13,008`).
    static func count(_ n: Int) -> String { Money.group(String(n)) }

    /// "2026-03-02 … 2026-03-08 · 12 purchases · closed 2026-03-10"
    var subtitle: String {
        var parts: [String] = ["\(Money.group(String(purchaseCount))) purchase\(purchaseCount == 1 ? "" : "s")"]
        if let member { parts.insert("\(member)'s shares", at: 0) }
        if refundCount > 0 {
            parts.append("\(Money.group(String(refundCount))) refund\(refundCount == 1 ? "" : "s") or credit\(refundCount == 1 ? "" : "s")")
        }
        if let f = firstDate, let l = lastDate { parts.append("\(f) … \(l)") }
        if since != nil || until != nil { parts.append("filtered \(since?.description ?? "…") to \(until?.description ?? "…")") }
        if let closed = trip.closedAt { parts.append("closed \(closed.prefix(10))") }
        return parts.joined(separator: " · ")
    }

    var currencyNote: String {
        reexpressed
            ? "Totals in \(home.code), re-expressed at the rate of each purchase's date (stored amounts are in \(trip.homeCurrency.code))"
            : "Totals in \(home.code)"
    }

    var budgetText: String? {
        guard let b = budget else { return nil }
        var parts = ["spent \(money(b.spent))", b.remaining >= 0 ? "remaining \(money(b.remaining))" : "over by \(money(-b.remaining))"]
        if let d = b.daysLeft { parts.append("\(d) day\(d == 1 ? "" : "s") left") }
        if let a = b.dailyAllowance, b.remaining > 0 { parts.append("\(money(a)) a day") }
        return "budget \(money(b.amount)): " + parts.joined(separator: " · ")
    }
}
