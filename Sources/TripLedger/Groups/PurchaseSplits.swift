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

extension Ledger {
    /// Stores who paid and who shares a purchase just written or edited. On a trip
    /// without members a split is refused; on add, the defaults are the ledger's own member
    /// (`trip whoami`; without one, --paid-by is required) as payer and every member as sharers. On edit,
    /// what is not given is kept. Runs inside the command's transaction, so a bad split leaves
    /// nothing behind.
    /// `previousTrip` is the trip an edited purchase was in (nil for a new one).
    func storeSplit(_ draft: SplitDraft, purchase p: Purchase, previousTrip: Int64?) throws {
        // An edit that moved the purchase to another trip: the old trip's members no longer apply.
        if let previousTrip, previousTrip != p.tripID {
            try splitStore.delete(trip: previousTrip, purchase: p.id)
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
            // Never a guess: without --paid-by the payer is this device's member, or the user is asked.
            guard let me = try whoami(set: nil).flatMap({ SplitSpec.memberIndex($0, in: names) }) else {
                throw TripError.usage(
                    "paid-by: who paid? This device has no member in \(quoted(p.tripName)) (\(names.joined(separator: ", "))); "
                        + "give --paid-by NAME, or say who you are once with `trip whoami NAME`")
            }
            payerWeights = names.indices.map { $0 == me ? .one : .zero }
        }
        let stored = try splitStore.stored(trip: p.tripID, purchase: p.id)
        func text(_ weights: [Rational]?, _ kept: String?) throws -> String? {
            guard let weights else { return kept }
            return try SplitWeights.encode(weights.indices.filter { !weights[$0].isZero }.map { (members[$0].id, weights[$0]) })
        }
        guard let payers = try text(payerWeights, stored?.payers), let shares = try text(shareWeights, stored?.shares) else { return }
        try splitStore.save(trip: p.tripID, purchase: p.id, payers: payers, shares: shares)
    }

    /// Gives the refund `refundID` the payers and sharers of the purchase it refunds.
    func copySplit(from purchase: Purchase, to refundID: Int64) throws {
        try splitStore.copy(trip: purchase.tripID, from: purchase.id, to: refundID)
    }

    /// Who paid and who shares a purchase; `nil` when it has no split (a trip without members,
    /// or a purchase logged before the trip had members).
    public func split(of purchase: Purchase) throws -> PurchaseSplit? {
        let members = try members(ofTripID: purchase.tripID)
        if members.isEmpty { return nil }
        let parts = try splitStore.lookup().parts(trip: purchase.tripID, purchase: purchase.id, index: SplitWeights.Positions(members))
        return parts.map { parts in
            PurchaseSplit(
                payers: parts.payers.map { .init(member: members[$0.index], weight: $0.weight) },
                shares: parts.sharers.map { .init(member: members[$0.index], weight: $0.weight) })
        }
    }
}
