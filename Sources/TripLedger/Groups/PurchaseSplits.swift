import TripCore

/// Who paid one purchase and who shares it: weights per member, as stored. Amounts come from
/// `amounts(total:home:)`, divided exactly by the largest-remainder method.
public struct PurchaseSplit: Sendable, Equatable {
    public struct Part: Sendable, Equatable {
        public let member: Member
        public let weight: Rational
    }

    public let payers: [Part]
    public let shares: [Part]

    /// One participant's part of an amount, in the purchase's currency and in the home currency
    /// (`nil` when the purchase has no rate).
    public struct Amounts: Sendable, Equatable {
        public let member: Member
        public let weight: Rational
        public let amount: Int64
        public let home: Int64?
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

/// `--paid-by`, `--split` and `--items` of `trip add` / `trip edit`, as typed.
public struct SplitDraft: Sendable {
    public var paidBy: String?
    public var split: String?
    public var items: String?

    public init(paidBy: String? = nil, split: String? = nil, items: String? = nil) {
        self.paidBy = paidBy
        self.split = split
        self.items = items
    }

    var isEmpty: Bool { paidBy == nil && split == nil && items == nil }
}

/// The `purchase_members` table's SQL: the only code that reads or writes it.
extension Ledger {
    /// Stores who paid and who shares a purchase just written (`isNew`) or edited. On a trip
    /// without members a split is refused; on add, the defaults are the ledger's own member
    /// (`trip whoami`, else the first member) as payer and every member as sharers. On edit,
    /// what is not given is kept. Runs inside the command's transaction, so a bad split leaves
    /// nothing behind.
    func storeSplit(_ draft: SplitDraft, purchase p: Purchase, isNew: Bool) throws {
        let trip = try self.trip(id: p.tripID)!
        let members = try members(of: trip)
        guard !members.isEmpty else {
            if !draft.isEmpty {
                throw TripError.usage("split: \(quoted(trip.name)) has no members; add them with `trip member add NAME…`")
            }
            return
        }
        if draft.split != nil && draft.items != nil {
            throw TripError.usage("split: give --split or --items, not both")
        }
        let names = members.map(\.name)
        let rounding = p.inputs.rounding
        var shareWeights: [Rational]?
        if let items = draft.items {
            shareWeights = try SplitSpec.parse(items: items)
                .resolve(members: names, price: p.breakdown.price, currency: p.currency, rounding: rounding)
        } else if let split = draft.split {
            shareWeights = try SplitSpec.parse(split: split)
                .resolve(members: names, price: p.breakdown.price, currency: p.currency, rounding: rounding)
        } else if isNew {
            shareWeights = try SplitSpec.all.resolve(members: names, price: p.breakdown.price, currency: p.currency, rounding: rounding)
        }
        var payerWeights: [Rational]?
        if let paidBy = draft.paidBy {
            let spec = try PayerSpec.parse(paidBy)
            let paid = try spec.resolve(members: names, total: p.breakdown.total, currency: p.currency, rounding: rounding)
            // A purchase of nothing (a total of 0) still records who paid it.
            payerWeights = paid.contains { $0 != 0 } ? paid.map { Rational($0) }
                : names.indices.map { SplitSpec.memberIndex(spec.names[0], in: names) == $0 ? .one : .zero }
        } else if isNew {
            let me = try whoami(set: nil).flatMap { SplitSpec.memberIndex($0, in: names) } ?? 0
            payerWeights = names.indices.map { $0 == me ? .one : .zero }
        }
        for (role, weights) in [("payer", payerWeights), ("share", shareWeights)] {
            guard let weights else { continue }
            try db.run("DELETE FROM purchase_members WHERE purchase_id = ? AND role = ?", [.integer(p.id), .text(role)])
            for (i, w) in weights.enumerated() where !w.isZero {
                try db.run("INSERT INTO purchase_members (purchase_id, role, member_id, weight) VALUES (?, ?, ?, ?)",
                           [.integer(p.id), .text(role), .integer(members[i].id), .text(w.exactDecimalText() ?? w.description)])
            }
        }
    }

    /// Who paid and who shares purchase `id`; `nil` when it has no split (a trip without members,
    /// or a purchase logged before the trip had members).
    public func split(ofPurchase id: Int64) throws -> PurchaseSplit? {
        var payers: [PurchaseSplit.Part] = [], shares: [PurchaseSplit.Part] = []
        try db.prepare("""
            SELECT pm.role, pm.weight, m.id, m.trip_id, m.name, m.joined_at
            FROM purchase_members pm JOIN members m ON m.id = pm.member_id
            WHERE pm.purchase_id = ? ORDER BY m.id
            """).forEach([.integer(id)]) { s in
            let member = Member(id: s.int(2), tripID: s.int(3), name: s.text(4), joinedAt: s.text(5))
            let part = PurchaseSplit.Part(member: member, weight: Rational(decimalText: s.text(1)) ?? .zero)
            if s.text(0) == "payer" { payers.append(part) } else { shares.append(part) }
        }
        return payers.isEmpty && shares.isEmpty ? nil : PurchaseSplit(payers: payers, shares: shares)
    }
}

extension Member {
    init(id: Int64, tripID: Int64, name: String, joinedAt: String) {
        self.id = id
        self.tripID = tripID
        self.name = name
        self.joinedAt = joinedAt
    }
}
