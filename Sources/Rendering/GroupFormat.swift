import TripCore
import TripModel

// Text and `--format json` of group trips: members, splits, balances, settle-up, transfers.
// The JSON keys are part of the contract in README.md ("JSON output").

extension TextFormat {
    /// `trip add` / `trip edit` on a group trip: the breakdown, then who paid and who shares it.
    public static func purchase(_ p: Purchase, verb: Verb, split: PurchaseSplit?) -> String {
        guard let split else { return purchase(p, verb: verb) }
        let (paid, shares) = split.amounts(total: p.breakdown.total, home: p.conversion.home)
        func list(_ parts: [PurchaseSplit.Amounts]) -> String {
            parts.map { "\(safe($0.member.name)) \(Money.group(Money(minorUnits: $0.amount, currency: p.currency).plainText))" }
                .joined(separator: ", ")
        }
        // Lined up with the breakdown's labels.
        return purchase(p, verb: verb, more: [("paid by", list(paid)), ("split", list(shares))])
    }

    /// `trip members`.
    public static func members(_ trip: Trip, _ members: [Member], whoami: String?) -> String {
        guard !members.isEmpty else {
            return "\(safe(trip.name)) has no members. Add them with `trip member add NAME…`."
        }
        let me = whoami.flatMap { SplitSpec.memberIndex($0, in: members.map(\.name)) }
        return "Members of \(safe(trip.name)), in the order they joined:\n"
            + members.enumerated().map { i, m in
                "  \(safe(m.name))\(i == me ? " (you)" : "")"
            }.joined(separator: "\n")
    }

    /// `trip balances`.
    public static func balances(_ b: GroupBalances) -> String {
        let c = b.currency
        var rows: [[String]] = [["member", "paid", "share", "sent", "received", "balance"]]
        for r in b.rows {
            let balance = Money(minorUnits: r.balance, currency: c).plainText
            rows.append([
                safe(r.member.name), Money.group(Money(minorUnits: r.paid, currency: c).plainText),
                Money.group(Money(minorUnits: r.share, currency: c).plainText),
                Money.group(Money(minorUnits: r.sent, currency: c).plainText),
                Money.group(Money(minorUnits: r.received, currency: c).plainText),
                (r.balance > 0 ? "+" : "") + Money.group(balance),
            ])
        }
        let widths = (0..<6).map { i in rows.map { $0[i].count }.max() ?? 0 }
        var out = ["Balances of \(safe(b.trip.name)) in \(c.code) (+ is owed, - owes):"]
        for r in rows { out.append("  " + (0..<6).map { pad(r[$0], widths[$0], right: $0 > 0) }.joined(separator: "  ")) }
        for u in b.unconverted {
            var what: [String] = []
            if u.purchases > 0 { what.append("\(u.purchases) purchase\(u.purchases == 1 ? "" : "s")") }
            if u.transfers > 0 { what.append("\(u.transfers) transfer\(u.transfers == 1 ? "" : "s")") }
            out.append(
                "not in the balances: \(what.joined(separator: " and ")) in \(u.currency.code) with no rate "
                    + "(\(money(u.amount, u.currency))); set one with `trip rates set \(u.currency.code) RATE`")
        }
        if b.unsplit > 0 {
            out.append(
                "not in the balances: \(b.unsplit) purchase\(b.unsplit == 1 ? "" : "s") with no split "
                    + "(logged before the trip had members); `trip edit ID --split all` shares one")
        }
        return out.joined(separator: "\n")
    }

    /// `trip settle`.
    public static func settlement(_ b: GroupBalances, recorded: Bool) -> String {
        let plan = b.settlement
        guard !plan.isEmpty else { return "\(safe(b.trip.name)) is settled: every balance is zero." }
        var out = [
            recorded
                ? "Recorded \(plan.count) transfer\(plan.count == 1 ? "" : "s") that settle \(safe(b.trip.name)):"
                : "To settle \(safe(b.trip.name)) (\(plan.count) transfer\(plan.count == 1 ? "" : "s")):"
        ]
        for t in plan { out.append("  \(safe(t.from.name)) pays \(safe(t.to.name)) \(money(t.amount, b.currency))") }
        if !recorded { out.append("`trip settle --record` records them as transfers dated today.") }
        return out.joined(separator: "\n")
    }

    /// `trip transfer` (`verb`: Recorded, Changed, Removed).
    public static func transfer(_ t: Transfer, verb: String = "Recorded") -> String {
        var line =
            "\(verb) transfer \(t.ref)\(t.sharedID.map { " \($0)" } ?? "") in \(safe(t.tripName)) · \(t.date): \(safe(t.from)) paid \(safe(t.to)) \(t.amount.formatted)"
        let c = t.conversion
        if let h = c.home, c.source != .identity {
            line += " = \(money(h, c.homeCurrency)) \(provenance(c))"
        } else if c.home == nil {
            line += " (unconverted: no \(t.amount.currency.code)→\(c.homeCurrency.code) rate; not in the balances until one is set)"
        }
        return line
    }
}

extension TextFormat {
    /// `trip transfers`: one line each, oldest first, with its `T…` id and its home amount.
    public static func transfers(_ trip: Trip, _ list: [Transfer]) -> String {
        guard !list.isEmpty else { return "\(safe(trip.name)) has no transfers. `trip transfer FROM TO AMOUNT` records one." }
        var rows: [[String]] = [["id", "date", "from", "to", "amount", "home", "note"]]
        var total: Int64 = 0
        var unconverted = 0
        for t in list {
            let c = t.conversion
            if let h = c.home { total += h } else { unconverted += 1 }
            rows.append([
                t.ref + (t.sharedID.map { " " + $0 } ?? ""), t.date.description, safe(t.from), safe(t.to), t.amount.formatted,
                c.home.map { money($0, c.homeCurrency) } ?? "no rate", safe(t.note),
            ])
        }
        let widths = (0..<7).map { i in rows.map { $0[i].count }.max() ?? 0 }
        var out = ["Transfers of \(safe(trip.name)):"]
        for r in rows {
            let cells = (0..<7).map { pad(r[$0], widths[$0], right: $0 == 4 || $0 == 5) }
            let line = "  " + cells.joined(separator: "  ")
            out.append(String(line.reversed().drop { $0 == " " }.reversed()))
        }
        var footer = "\(list.count) transfer\(list.count == 1 ? "" : "s"), \(money(total, trip.homeCurrency)) in all"
        if unconverted > 0 { footer += " (\(unconverted) with no rate not counted)" }
        out.append(footer)
        return out.joined(separator: "\n")
    }

    /// `trip import FILE --splitwise`.
    public static func splitwiseImport(_ r: SplitwiseImportResult) -> String {
        var line =
            "imported \(r.purchases) expense\(r.purchases == 1 ? "" : "s") and \(r.transfers) payment\(r.transfers == 1 ? "" : "s")"
            + " from Splitwise into \(safe(r.trip))"
        if !r.membersAdded.isEmpty { line += "; new members: \(r.membersAdded.map { safe($0) }.joined(separator: ", "))" }
        if r.skipped > 0 { line += " (\(r.skipped) already imported)" }
        if !r.checkedCurrencies.isEmpty {
            let what = r.compared.map { "\($0) equal" } ?? "balances equal"
            line += "; \(what) Splitwise's totals (\(r.checkedCurrencies.joined(separator: ", ")))"
        } else if r.compared == nil && r.skipped > 0 {
            line += "; Splitwise's totals were not compared: the trip holds other expenses too"
        }
        return line
    }
}

extension SplitwiseImportResult {
    public var json: JSONValue {
        .object([
            "trip": .string(trip), "imported": .int(Int64(purchases)), "transfers": .int(Int64(transfers)),
            "members_added": .array(membersAdded.map { .string($0) }),
            "checked_currencies": .array(checkedCurrencies.map { .string($0) }), "skipped": .int(Int64(skipped)),
        ])
    }
}

extension Member {
    public var json: JSONValue { .object(["id": .int(id), "name": .string(name), "joined_at": .string(joinedAt)]) }
}

extension Purchase {
    /// The purchase object with `paid_by` and `split` (null on a purchase with no split): each
    /// participant's name, weight, amount in the purchase's currency and home amount.
    public func json(split: PurchaseSplit?) -> JSONValue {
        guard case .object(var o) = json else { return json }
        guard let split else {
            o["paid_by"] = .null
            o["split"] = .null
            return .object(o)
        }
        let (paid, shares) = split.amounts(total: breakdown.total, home: conversion.home)
        func parts(_ list: [PurchaseSplit.Amounts], _ key: String) -> JSONValue {
            .array(
                list.map { a in
                    .object([
                        "name": .string(a.member.name), "weight": .string(a.weight.exactDecimalText() ?? a.weight.description),
                        key: .string(Money(minorUnits: a.amount, currency: currency).plainText),
                        "home_" + key: JSONValue(a.home.map { Money(minorUnits: $0, currency: conversion.homeCurrency).plainText }),
                    ])
                })
        }
        o["paid_by"] = parts(paid, "paid")
        o["split"] = parts(shares, "share")
        return .object(o)
    }
}

extension GroupBalances {
    public var json: JSONValue {
        func money(_ v: Int64) -> JSONValue { .string(Money(minorUnits: v, currency: currency).plainText) }
        return .object([
            "trip": .string(trip.name), "currency": .string(currency.code),
            "members": .array(
                rows.map { r in
                    .object([
                        "name": .string(r.member.name), "paid": money(r.paid), "share": money(r.share),
                        "sent": money(r.sent), "received": money(r.received), "balance": money(r.balance),
                    ])
                }),
            "unconverted": .array(
                unconverted.map { u in
                    .object([
                        "currency": .string(u.currency.code), "purchases": .int(Int64(u.purchases)),
                        "transfers": .int(Int64(u.transfers)),
                        "amount": .string(Money(minorUnits: u.amount, currency: u.currency).plainText),
                    ])
                }),
            "unsplit_purchases": .int(Int64(unsplit)),
        ])
    }

    public var settlementJSON: JSONValue {
        .object([
            "trip": .string(trip.name), "currency": .string(currency.code),
            "transfers": .array(
                settlement.map { t in
                    .object([
                        "from": .string(t.from.name), "to": .string(t.to.name),
                        "amount": .string(Money(minorUnits: t.amount, currency: currency).plainText),
                    ])
                }),
        ])
    }
}

extension Transfer {
    /// `trip transfers --format json`.
    public static func json(_ trip: Trip, _ list: [Transfer]) -> JSONValue {
        .object(["trip": .string(trip.name), "transfers": .array(list.map(\.json))])
    }

    public var json: JSONValue {
        let c = conversion, q = conversion.quote
        var fields: [String: JSONValue] = [
            "id": .int(id), "ref": .string(ref), "trip": .string(tripName), "from": .string(from), "to": .string(to),
            "date": .string(date.description), "currency": .string(amount.currency.code), "amount": .string(amount.plainText),
            "note": .string(note), "home_currency": .string(c.homeCurrency.code),
            "home_amount": JSONValue(c.home.map { Money(minorUnits: $0, currency: c.homeCurrency).plainText }),
            "rate": JSONValue(q?.rate), "rate_date": JSONValue(q?.date?.description), "rate_source": .string(c.source.rawValue),
            "rate_provider": JSONValue(q?.provider), "provisional": .bool(c.provisional),
        ]
        if onSharedTrip { fields["shared_id"] = JSONValue(sharedID) }
        return .object(fields)
    }
}

extension MemberLine {
    /// The member's share of the whole (`1/3`, `3/5`): exact, as the split's weights give it.
    public var portionText: String { portion.fractionText }

    /// An element of a member report's `member_lines`.
    public var json: JSONValue {
        func money(_ v: Int64?, _ c: Currency) -> JSONValue { v.map { .string(Money(minorUnits: $0, currency: c).plainText) } ?? .null }
        return .object([
            "id": .int(purchaseID), "trip": .string(tripName), "date": .string(date), "note": .string(note),
            "category": JSONValue(category), "kind": .string(kind.rawValue), "currency": .string(currency.code),
            "total": money(total, currency), "portion": .string(portionText), "share": money(share, currency),
            "home_currency": .string(homeCurrency.code), "home_total": money(home, homeCurrency),
            "home_share": money(homeShare, homeCurrency), "rate_source": .string(source.rawValue),
            "provisional": .bool(provisional),
        ])
    }
}

extension TextFormat {
    /// A member report's lines: the member's part of each purchase, then their sum, which is the
    /// report's net total. Amounts of money back are negative.
    static func memberLines(_ r: TripReport) -> String {
        var rows: [[String]] = [["id", "date", "paid", "portion", "share", r.home.code, "note"]]
        for l in r.memberLines {
            rows.append([
                "#\(l.purchaseID)", l.date, money(l.total, l.currency), l.portionText, money(l.share, l.currency),
                l.homeShare.map { Money.group(Money(minorUnits: $0, currency: l.homeCurrency).plainText) } ?? "—",
                safe(l.note),
            ])
        }
        let net = r.memberLines.reduce(Int64(0)) { $0 + ($1.homeShare ?? 0) }
        rows.append(["", "", "", "", "total", r.money(net), ""])
        let widths = (0..<7).map { i in rows.map { $0[i].count }.max() ?? 0 }
        let title = "\(safe(r.member ?? ""))'s part of each purchase (\(r.home.code)):"
        return
            ([title]
            + rows.map { row in
                "  " + (0..<7).map { pad(row[$0], widths[$0], right: [2, 4, 5].contains($0)) }.joined(separator: "  ")
            }).map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
    }
}

/// A member report as CSV (`trip report --member NAME --format csv`): one row per purchase the
/// member shares, their part of it; the `home_share` column adds up to the report's net total.
/// Not the purchase CSV: a share is not a purchase, so `trip import` does not read it.
public enum MemberLineCSV {
    public static let columns = [
        "id", "trip", "member", "date", "note", "category", "kind", "currency", "total", "portion", "share",
        "home_currency", "home_total", "home_share", "rate_source", "provisional",
    ]

    public static func fields(_ l: MemberLine, member: String) -> [String] {
        func money(_ v: Int64?, _ c: Currency) -> String { v.map { Money(minorUnits: $0, currency: c).plainText } ?? "" }
        return [
            String(l.purchaseID), l.tripName, member, l.date, l.note, l.category ?? "", l.kind.rawValue, l.currency.code,
            money(l.total, l.currency), l.portionText, money(l.share, l.currency), l.homeCurrency.code,
            money(l.home, l.homeCurrency), money(l.homeShare, l.homeCurrency), l.source.rawValue,
            l.provisional ? "true" : "false",
        ]
    }
}
