import TripCore
import TripModel

extension SyncConflict {
    /// A stored conflict, with what a reader is shown of its two versions.
    init(
        id: Int64, trip: String, kind: String, localID: Int64, reason: String, winner: String, mine: String?, theirs: String?,
        theirsBy: String, createdAt: String, resolvedAt: String?, names: MemberNames = { _ in nil }
    ) {
        self.init(
            id: id, trip: trip, kind: kind, localID: localID, reason: reason, winner: winner, mine: mine, theirs: theirs,
            theirsBy: theirsBy, createdAt: createdAt, resolvedAt: resolvedAt, differences: Self.differences(mine, theirs, names: names),
            mineSummary: Self.summary(mine, kind: kind, names: names), theirsSummary: Self.summary(theirs, kind: kind, names: names))
    }

    /// A member's name as this ledger shows it, for a member reference of a travelling row (`@ana`,
    /// or a whole global id); `nil`: the name the reference is made of.
    package typealias MemberNames = (String) -> String?

    /// The two versions, the older first (clock, then device), so that every device numbers them
    /// alike; `winner` (`mine` or `theirs`) is the one kept.
    static func versions(
        kind: String, winner: String, thisDevice: String, mine: (String?, Int64, String, String), theirs: (String?, Int64, String, String),
        names: MemberNames = { _ in nil }
    ) -> [ConflictVersion] {
        let mineFirst = Version(hlc: mine.1, device: mine.2) < Version(hlc: theirs.1, device: theirs.2)
        let ordered = mineFirst ? [(mine, true), (theirs, false)] : [(theirs, false), (mine, true)]
        return ordered.enumerated().map { k, pair in
            let (v, isMine) = pair
            // A row the server never had was written by nobody (the role stored beside it closed the trip).
            let nobody = v.1 == 0 && v.2.isEmpty
            return ConflictVersion(
                number: k + 1, author: nobody ? "" : v.3, device: v.2, hlc: v.1, thisDevice: !v.2.isEmpty && v.2 == thisDevice, isMine: isMine,
                kept: (winner == "mine") == isMine, payload: v.0, summary: summary(v.0, kind: kind, names: names))
        }
    }

    static func differences(_ mine: String?, _ theirs: String?, names: MemberNames) -> [Difference] {
        guard let mine = mine.flatMap(FlatJSON.fields), let theirs = theirs.flatMap(FlatJSON.fields) else { return [] }
        let mineByName = Dictionary(mine.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        let theirsByName = Dictionary(theirs.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        return mine.compactMap { name, value in
            guard let label = shownFields[name], let other = theirsByName[name], other != value else { return nil }
            return Difference(
                field: label, mine: readable(value, field: name, in: mineByName, names: names),
                theirs: readable(other, field: name, in: theirsByName, names: names))
        }
    }

    /// The fields a traveller is shown, by the names they know; the others (minor-unit columns
    /// derived from these, bookkeeping) follow from them.
    static let shownFields: [String: String] = [
        "date": "date", "currency": "currency", "total_minor": "total", "amount_minor": "amount",
        "note": "note", "category": "category", "paid_with": "paid with", "discount_spec": "discount", "service_spec": "service",
        "tax_spec": "tax", "tip_spec": "tip", "charged_minor": "charged", "purchase_rate": "rate", "payers": "paid by",
        "shares": "split", "from_member": "from", "to_member": "to", "name": "name", "refund_of": "refund of",
        "closed_at": "closed",
    ]

    /// One version as a traveller reads it: a purchase's total, date, note, payers and split; a
    /// transfer's members, amount and date; a member's name. `nil` when the version is a removal.
    static func summary(_ payload: String?, kind: String, names: MemberNames) -> String? {
        guard let payload else { return nil }
        guard let fields = FlatJSON.fields(payload) else { return payload }
        let f = Dictionary(fields.map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        func text(_ name: String) -> String? {
            guard let v = f[name], v != .null else { return nil }
            let t = readable(v, field: name, in: f, names: names)
            return t.isEmpty ? nil : t
        }
        var parts: [String] = []
        switch kind {
        case "purchase":
            parts.append([text("total_minor"), text("date").map { "on \($0)" }].compactMap { $0 }.joined(separator: " "))
            if let note = text("note") { parts.append("\"\(note)\"") }
            if f["refund_of"].map({ $0 != .null }) ?? false { parts.append("a refund") }
            if let payers = text("payers") { parts.append("paid by \(payers)") }
            if let shares = text("shares") { parts.append("split \(shares)") }
        case "transfer":
            parts.append("\(text("from_member") ?? "?") paid \(text("to_member") ?? "?") \(text("amount_minor") ?? "")")
            if let date = text("date") { parts.append("on \(date)") }
            if let note = text("note") { parts.append("\"\(note)\"") }
        default:
            if let name = text("name") { parts.append(name) }
            if let closed = text("closed_at") { parts.append("closed \(closed)") }
        }
        return parts.filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// Columns every edit changes, or that only this software reads.
    package static let bookkeeping: Set<String> = ["created_at", "updated_at", "explicit_fields", "rate_fetched_at"]

    /// Fields that name members.
    static let memberFields: Set<String> = ["payers", "shares", "from_member", "to_member"]

    /// A field's value as text: amounts in minor units as money of the row's currency (`EUR
    /// 12.50`), members by name. A list of payers or sharers (`@ana=1200,@ben=1`) shows its
    /// weights only where they differ (`Ana ×2, Ben ×1`); the payers' are amounts, shown by name.
    static func readable(_ value: SQLValue, field: String, in row: [String: SQLValue], names: MemberNames) -> String {
        switch value {
        case .null: return "none"
        case .integer(let n):
            guard field.hasSuffix("_minor") else { return String(n) }
            let code: String? =
                switch field {
                case "charged_minor": row["home_currency"].flatMap { if case .text(let c) = $0 { c } else { nil } }
                default: row["currency"].flatMap { if case .text(let c) = $0 { c } else { nil } }
                }
            guard let code, let currency = try? CurrencyTable.shared.currency(for: code) else { return String(n) }
            return Money(minorUnits: n, currency: currency).formatted
        case .text(let text):
            guard memberFields.contains(field) else { return text }
            let items: [(name: String, weight: String)] = text.split(separator: ",").map { item in
                // `REF=WEIGHT`; a reference made unique is `NAME=UUID` itself.
                var parts = item.split(separator: "=", omittingEmptySubsequences: false).map(String.init)
                let weight = parts.count > 1 && parts.last!.count <= 12 ? parts.removeLast() : ""
                let ref = parts.joined(separator: "=")
                var shown = ref.hasPrefix("@") ? String(ref.dropFirst()) : ref
                if let at = GlobalID.memberNameInAnyTrip(ref) { shown = at }
                return (names(ref) ?? shown.split(separator: "=").first.map(String.init) ?? shown, weight)
            }
            let sameWeights = Set(items.map(\.weight)).count <= 1 || field == "payers"
            return items.map { sameWeights || $0.weight.isEmpty ? $0.name : "\($0.name) ×\($0.weight)" }.joined(separator: ", ")
        }
    }
}
