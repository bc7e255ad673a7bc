import Storage
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

    package var isEmpty: Bool { paidBy == nil && split == nil && items == nil }
}

extension Ledger {
    /// Stores who paid and who shares a purchase just written or edited. On a trip
    /// without members a split is refused; on add, the defaults are the ledger's own member
    /// (`trip whoami`; without one, --paid-by is required) as payer and every member as sharers. On edit,
    /// what is not given is kept. Runs inside the command's transaction, so a bad split leaves
    /// nothing behind.
    /// `previousTrip` is the trip an edited purchase was in (nil for a new one), `before` the
    /// edited purchase as it was: an edit that changes its total or price keeps the amounts typed
    /// in --paid-by and --items (`keepTypedAmounts`).
    package func storeSplit(_ draft: SplitDraft, purchase p: Purchase, previousTrip: Int64?, before: Purchase? = nil) throws {
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
        var typed = isNew ? nil : try splitStore.typed(purchase: p.id)
        if let before, !isNew {
            // A split given whole needs nothing of the old one, so an unreadable stored one can be replaced.
            let parts =
                payerWeights != nil && shareWeights != nil
                ? nil : try splitStore.lookup().parts(trip: p.tripID, purchase: p.id, index: SplitWeights.Positions(members))
            if payerWeights == nil, let parts {
                payerWeights = try keepTypedAmounts(
                    parts.payers, of: members, was: before.breakdown.total, now: p.breakdown.total, rest: typed?.payerRest,
                    field: "paid-by", what: "total", currency: p.currency, always: true)
            }
            if shareWeights == nil, let parts, typed?.items == true {
                shareWeights = try keepTypedAmounts(
                    parts.sharers, of: members, was: before.breakdown.price, now: p.breakdown.price, rest: typed?.itemRest,
                    field: "items", what: "price", currency: p.currency, always: false)
            }
        }
        // What was typed: which member `rest` named, and whether the shares are items.
        func restID(_ named: [(String, String)]) -> Int64? {
            named.first { $0.1.lowercased() == "rest" }.flatMap { SplitSpec.memberIndex($0.0, in: names) }.map { members[$0].id }
        }
        if let paidBy = draft.paidBy {
            if case .amounts(let named) = try PayerSpec.parse(paidBy) {
                typed = (restID(named), typed?.items ?? false, typed?.itemRest)
            } else {
                typed = (nil, typed?.items ?? false, typed?.itemRest)
            }
        }
        if let items = draft.items, case .items(let named) = try SplitSpec.parse(items: items) {
            typed = (typed?.payerRest, true, restID(named))
        } else if draft.split != nil {
            typed = (typed?.payerRest, false, nil)
        }
        if let typed, !draft.isEmpty {
            try splitStore.saveTyped(purchase: p.id, payerRest: typed.payerRest, items: typed.items, itemRest: typed.itemRest)
        }
        let stored = try splitStore.stored(trip: p.tripID, purchase: p.id)
        func text(_ weights: [Rational]?, _ kept: String?) throws -> String? {
            guard let weights else { return kept }
            return try SplitWeights.encode(weights.indices.filter { !weights[$0].isZero }.map { (members[$0].id, weights[$0]) })
        }
        guard let payers = try text(payerWeights, stored?.payers), let shares = try text(shareWeights, stored?.shares) else { return }
        try splitStore.save(trip: p.tripID, purchase: p.id, payers: payers, shares: shares)
    }

    /// The weights of an edited purchase whose total (payers) or price (items) went from `was` to
    /// `now`: nil (keep the stored ones, which scale) unless they are the amounts typed for `was`,
    /// several of them. Then every typed amount stays and `rest` (a member id) takes the
    /// difference; with no `rest`, or a difference larger than it, the edit is refused naming the
    /// typed amounts. `always`: payers are amounts whenever they add up to `was`; items only when
    /// recorded as items (`split_rest`), since shares may add up to a price by chance.
    func keepTypedAmounts(
        _ parts: [(index: Int, weight: Rational)], of members: [Member], was: Int64, now: Int64, rest: Int64?,
        field: String, what: String, currency: Currency, always: Bool
    ) throws -> [Rational]? {
        // Amounts are whole minor units, at most a purchase's bound: Int64 sums are exact.
        let nonzero = parts.filter { !$0.weight.isZero }.map {
            (index: $0.index, amount: Int64(exactly: $0.weight.numerator) ?? -1, whole: $0.weight.denominator == 1)
        }
        guard was != now, nonzero.count >= 2, nonzero.allSatisfy({ $0.whole && $0.amount > 0 }),
            nonzero.reduce(Int64(0), { $0 + $1.amount }) == was
        else { return nil }
        let restIndex = rest.flatMap { id in members.firstIndex { $0.id == id } }
        let typedText = nonzero.map { part in
            "\(members[part.index].name)=\(part.index == restIndex ? "rest" : Money(minorUnits: part.amount, currency: currency).plainText)"
        }.joined(separator: ",")
        let goal = Money(minorUnits: now, currency: currency).formatted
        guard let r = restIndex, nonzero.contains(where: { $0.index == r }) else {
            throw TripError.badAmount(
                field: field, value: typedText,
                reason: "no longer adds up to the new \(what) \(goal), and no rest takes the difference; give --\(field) again")
        }
        let fixed = nonzero.filter { $0.index != r }.reduce(Int64(0)) { $0 + $1.amount }
        guard now - fixed >= 0 else {
            throw TripError.badAmount(
                field: field, value: typedText, reason: "is more than the new \(what) \(goal); nothing is left for rest; give --\(field) again")
        }
        var weights = [Rational](repeating: .zero, count: members.count)
        for part in nonzero { weights[part.index] = Rational(part.amount) }
        weights[r] = Rational(now - fixed)
        return weights
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
