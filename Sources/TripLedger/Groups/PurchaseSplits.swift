import TripCore
import TripModel

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

/// The `purchase_splits` table's SQL: the only code that reads or writes it.
/// A purchase's split as `purchase_splits s` stores it: the member ids and weights of its payers
/// and of its sharers (`SplitWeights`).
enum SplitColumn: Int32, ColumnList {
    case payers, shares

    var sql: StaticString {
        switch self {
        case .payers: "s.payers"
        case .shares: "s.shares"
        }
    }
}

extension Ledger {
    /// Stores who paid and who shares a purchase just written or edited. On a trip
    /// without members a split is refused; on add, the defaults are the ledger's own member
    /// (`trip whoami`, else the first member) as payer and every member as sharers. On edit,
    /// what is not given is kept. Runs inside the command's transaction, so a bad split leaves
    /// nothing behind.
    /// `previousTrip` is the trip an edited purchase was in (nil for a new one).
    func storeSplit(_ draft: SplitDraft, purchase p: Purchase, previousTrip: Int64?) throws {
        // An edit that moved the purchase to another trip: the old trip's members no longer apply.
        if let previousTrip, previousTrip != p.tripID {
            try db.run("DELETE FROM purchase_splits WHERE trip_id = ? AND purchase_id = ?", [.integer(previousTrip), .integer(p.id)])
        }
        let isNew = previousTrip != p.tripID
        // One query on a trip without members: the common case, and `trip add`'s hot path.
        let members = try members(ofTripID: p.tripID)
        guard !members.isEmpty else {
            if !draft.isEmpty {
                throw TripError.usage("split: \(quoted(p.tripName)) has no members; add them with `trip member add NAME…`")
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
            payerWeights =
                paid.contains { $0 != 0 }
                ? paid.map { Rational($0) }
                : names.indices.map { SplitSpec.memberIndex(spec.names[0], in: names) == $0 ? .one : .zero }
        } else if isNew {
            let me = try whoami(set: nil).flatMap { SplitSpec.memberIndex($0, in: names) } ?? 0
            payerWeights = names.indices.map { $0 == me ? .one : .zero }
        }
        let stored = try db.prepare("SELECT \(SplitColumn.sqlList) FROM purchase_splits s WHERE s.trip_id = ? AND s.purchase_id = ?")
            .first([.integer(p.tripID), .integer(p.id)]) { s in
                let row = ResultRow<SplitColumn>(s)
                return (row.text(.payers), row.text(.shares))
            }
        func text(_ weights: [Rational]?, _ kept: String?) throws -> String? {
            guard let weights else { return kept }
            return try SplitWeights.encode(weights.indices.filter { !weights[$0].isZero }.map { (members[$0].id, weights[$0]) })
        }
        guard let payers = try text(payerWeights, stored?.0), let shares = try text(shareWeights, stored?.1) else { return }
        try db.run(
            """
            INSERT INTO purchase_splits (trip_id, purchase_id, payers, shares) VALUES (?, ?, ?, ?)
            ON CONFLICT (trip_id, purchase_id) DO UPDATE SET payers = excluded.payers, shares = excluded.shares
            """, [.integer(p.tripID), .integer(p.id), .text(payers), .text(shares)])
    }

    /// Gives the refund `refundID` the payers and sharers of the purchase it refunds.
    func copySplit(from purchase: Purchase, to refundID: Int64) throws {
        try db.run(
            """
            INSERT INTO purchase_splits (trip_id, purchase_id, payers, shares)
            SELECT trip_id, ?, payers, shares FROM purchase_splits WHERE trip_id = ? AND purchase_id = ?
            """, [.integer(refundID), .integer(purchase.tripID), .integer(purchase.id)])
    }

    /// Who paid and who shares a purchase; `nil` when it has no split (a trip without members,
    /// or a purchase logged before the trip had members).
    public func split(of purchase: Purchase) throws -> PurchaseSplit? {
        let members = try members(ofTripID: purchase.tripID)
        if members.isEmpty { return nil }
        let index = SplitWeights.Positions(members)
        return try db.prepare("SELECT \(SplitColumn.sqlList) FROM purchase_splits s WHERE s.trip_id = ? AND s.purchase_id = ?")
            .first([.integer(purchase.tripID), .integer(purchase.id)]) { s in
                let row = ResultRow<SplitColumn>(s)
                var payers: [(index: Int, weight: Rational)] = [], shares: [(index: Int, weight: Rational)] = []
                row.withBytes(.payers) { SplitWeights.decode($0, index: index, into: &payers) }
                row.withBytes(.shares) { SplitWeights.decode($0, index: index, into: &shares) }
                return PurchaseSplit(
                    payers: payers.map { .init(member: members[$0.index], weight: $0.weight) },
                    shares: shares.map { .init(member: members[$0.index], weight: $0.weight) })
            }
    }
}
