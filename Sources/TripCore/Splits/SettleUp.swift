/// The transfers that bring a group's balances to zero.
public enum SettleUp {
    /// One payment: `from` pays `to` `amount` minor units. Members are indices in join order.
    public struct Transfer: Equatable, Sendable {
        public let from: Int
        public let to: Int
        public let amount: Int64

        public init(from: Int, to: Int, amount: Int64) {
            self.from = from
            self.to = to
            self.amount = amount
        }
    }

    /// Up to this many members with a non-zero balance, the plan has the fewest transfers possible.
    public static let exactLimit = 20

    /// Transfers that bring every balance to zero. A balance is what a member is owed (positive)
    /// or owes (negative); the balances must add up to zero.
    ///
    /// With `k` non-zero balances, any plan needs at least `k − g` transfers, where `g` is the
    /// largest number of groups the members can be split into with each group's balances adding up
    /// to zero; settling each group on its own reaches that bound. Up to `exactLimit` non-zero
    /// balances `g` is found exactly (a dynamic program over subsets, 2^k states); above it every
    /// member is one group and the greedy plan below gives at most `k − 1` transfers.
    ///
    /// Within a group: the member who owes most pays the member owed most, the smaller of the two
    /// amounts, until all are zero; ties go to the member who joined earlier. The output depends
    /// only on the balances, so every device computes the same plan.
    public static func plan(balances: [Int64]) -> [Transfer] {
        precondition(balances.reduce(Int128(0)) { $0 + Int128($1) } == 0, "balances must add up to zero")
        let members = balances.indices.filter { balances[$0] != 0 }
        guard !members.isEmpty else { return [] }
        var transfers: [Transfer] = []
        for group in groups(members, balances) {
            transfers += greedy(group, balances)
        }
        return transfers
    }

    /// The members split into the most zero-sum groups, each group in join order, groups ordered by
    /// their first member.
    static func groups(_ members: [Int], _ balances: [Int64]) -> [[Int]] {
        let k = members.count
        guard k <= exactLimit, k > 2 else { return [members] }
        let full = (1 << k) - 1
        var sums = [Int128](repeating: 0, count: 1 << k)
        for mask in 1...full {
            let low = mask.trailingZeroBitCount
            sums[mask] = sums[mask & (mask - 1)] + Int128(balances[members[low]])
        }
        // best[mask]: the most zero-sum groups the members of a zero-sum `mask` split into.
        // Removing one member at a time walks every order, so the count is exact.
        var best = [Int8](repeating: 0, count: 1 << k)
        for mask in 1...full {
            var most: Int8 = 0
            var rest = mask
            while rest != 0 {
                let bit = rest & -rest
                rest ^= bit
                most = max(most, best[mask ^ bit])
            }
            best[mask] = most + (sums[mask] == 0 ? 1 : 0)
        }
        // Peel off groups: the smallest zero-sum subset containing the earliest member left,
        // among those that keep the remaining count optimal.
        var result: [[Int]] = []
        var left = full
        while left != 0 {
            let target = best[left]
            let first = left & -left
            var chosen = left
            var sub = (left - 1) & left
            while sub != 0 {
                if sub & first != 0, sums[sub] == 0, best[left ^ sub] == target - 1,
                    sub.nonzeroBitCount < chosen.nonzeroBitCount
                        || (sub.nonzeroBitCount == chosen.nonzeroBitCount && sub < chosen)
                {
                    chosen = sub
                }
                sub = (sub - 1) & left
            }
            result.append((0..<k).filter { chosen & (1 << $0) != 0 }.map { members[$0] })
            left ^= chosen
        }
        return result
    }

    static func greedy(_ group: [Int], _ balances: [Int64]) -> [Transfer] {
        var owed = Dictionary(uniqueKeysWithValues: group.map { ($0, balances[$0]) })
        var transfers: [Transfer] = []
        while true {
            // Largest magnitudes first; on a tie, the earlier member.
            let debtor = group.filter { owed[$0]! < 0 }.min { owed[$0]! != owed[$1]! ? owed[$0]! < owed[$1]! : $0 < $1 }
            let creditor = group.filter { owed[$0]! > 0 }.min { owed[$0]! != owed[$1]! ? owed[$0]! > owed[$1]! : $0 < $1 }
            guard let d = debtor, let c = creditor else { break }
            let amount = min(-owed[d]!, owed[c]!)
            transfers.append(Transfer(from: d, to: c, amount: amount))
            owed[d]! += amount
            owed[c]! -= amount
        }
        return transfers
    }
}
