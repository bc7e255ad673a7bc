/// Divides an amount of minor units among weighted participants so that the parts add up to it
/// exactly: the rule every split, every share of a home amount and every multi-payer purchase
/// follows (README, "Splits: the contract").
public enum Allocation {
    /// The part of `amount` that goes to each of `parts`, exactly (largest remainder).
    public static func divide(_ amount: Int64, among parts: [(index: Int, weight: Rational)]) -> [Int64] {
        var out = [Int64](repeating: 0, count: parts.count)
        divide(amount, among: parts) { out[$0] = $1 }
        return out
    }

    /// The same, handing `each(k, part)` the part of `parts[k]`: with whole-number weights (equal
    /// shares, shares, percentages, item portions, amounts paid) nothing is allocated, which is
    /// most of the cost of a balance over 20,000 purchases.
    public static func divide(_ amount: Int64, among parts: [(index: Int, weight: Rational)], _ each: (Int, Int64) -> Void) {
        guard !parts.isEmpty else { return }
        let n = parts.count
        let done = withUnsafeTemporaryAllocation(of: Int64.self, capacity: 2 * n) { buffer -> Bool in
            for k in 0..<n {
                guard parts[k].weight.denominator == 1, let w = Int64(exactly: parts[k].weight.numerator) else { return false }
                buffer[k] = w
            }
            let weights = UnsafeBufferPointer(rebasing: buffer[0..<n])
            let out = UnsafeMutableBufferPointer(rebasing: buffer[n..<(2 * n)])
            guard Allocation.largestRemainder(amount, wholeWeights: weights, into: out) else { return false }
            for k in 0..<n { each(k, out[k]) }
            return true
        }
        if done { return }
        let general = (try? Allocation.largestRemainder(amount, weights: parts.map(\.weight))) ?? parts.map { _ in 0 }
        for k in 0..<n { each(k, general[k]) }
    }

    /// Why an allocation cannot be made.
    public enum Failure: Error, Equatable, Sendable {
        /// No participant, or every weight is zero: there is nobody to give the amount to.
        case noWeight
        /// A weight below zero.
        case negativeWeight(index: Int)
        /// The weights' common denominator or a product left 128 bits.
        case overflow
    }

    /// The largest-remainder method (Hamilton's): participant `i` gets
    /// `floor(|total| × w_i / W)` units, where `W` is the sum of the weights; the units still
    /// missing go one each to the largest remainders, ties to the earlier participant. A negative
    /// `total` (a refund) is divided as its magnitude and every part negated, so a refund of a
    /// purchase gives back exactly what each participant's share took.
    ///
    /// Weights are exact rationals (equal shares are all 1; shares, percentages and item portions
    /// are their own values). A participant with weight 0 gets 0.
    public static func largestRemainder(_ total: Int64, weights: [Rational]) throws(Failure) -> [Int64] {
        guard !weights.isEmpty else { throw .noWeight }
        if let i = weights.firstIndex(where: { $0.isNegative }) { throw .negativeWeight(index: i) }
        // Bring the weights to integers over one common denominator, so every comparison below
        // is between integers and no remainder is ever rounded.
        var common: Int128 = 1
        for w in weights where w.denominator != 1 {
            let g = Int128(Rational.gcd(common.magnitude, w.denominator.magnitude))
            let (l, o) = (common / g).multipliedReportingOverflow(by: w.denominator)
            guard !o else { throw .overflow }
            common = l
        }
        var units: [Int128] = []
        units.reserveCapacity(weights.count)
        var sum: Int128 = 0
        for w in weights {
            let (u, o1) = w.numerator.multipliedReportingOverflow(by: common / w.denominator)
            guard !o1 else { throw .overflow }
            let (s, o2) = sum.addingReportingOverflow(u)
            guard !o2 else { throw .overflow }
            units.append(u)
            sum = s
        }
        guard sum > 0 else { throw .noWeight }
        if let fast = small(total, units: units, sum: sum) { return fast }
        let magnitude = Int128(total.magnitude)
        var parts = [Int128](repeating: 0, count: weights.count)
        var remainders = [Int128](repeating: 0, count: weights.count)
        var given: Int128 = 0
        for (i, u) in units.enumerated() {
            let (p, o) = magnitude.multipliedReportingOverflow(by: u)
            guard !o else { throw .overflow }
            parts[i] = p / sum
            remainders[i] = p % sum
            given += parts[i]
        }
        // Fewer units are left than participants with a non-zero remainder, so a weight of zero
        // (remainder zero) never receives one.
        let order = remainders.indices.sorted { a, b in
            remainders[a] != remainders[b] ? remainders[a] > remainders[b] : a < b
        }
        for i in order.prefix(Int(magnitude - given)) { parts[i] += 1 }
        return parts.map { total < 0 ? -Int64($0) : Int64($0) }
    }

    /// The same computation in 64-bit arithmetic, when every product fits: the common case
    /// (amounts of a purchase, small weights), where 128-bit division would dominate a balance.
    static func small(_ total: Int64, units: [Int128], sum: Int128) -> [Int64]? {
        guard units.allSatisfy({ Int64(exactly: $0) != nil }) else { return nil }
        let whole = units.map { Int64($0) }
        var parts = [Int64](repeating: 0, count: units.count)
        let done = whole.withUnsafeBufferPointer { w in
            parts.withUnsafeMutableBufferPointer { largestRemainder(total, wholeWeights: w, into: $0) }
        }
        return done ? parts : nil
    }

    /// `largestRemainder` for whole-number weights, written into `parts` (as many as weights)
    /// without allocating: for loops over thousands of purchases. Returns false, writing nothing
    /// useful, when the weights add up to zero or a product does not fit 64 bits; the general
    /// function handles those.
    public static func largestRemainder(
        _ total: Int64, wholeWeights w: UnsafeBufferPointer<Int64>,
        into parts: UnsafeMutableBufferPointer<Int64>
    ) -> Bool {
        guard total != .min else { return false }
        var sum: Int64 = 0
        for x in w {
            guard x >= 0 else { return false }
            let (s, o) = sum.addingReportingOverflow(x)
            if o { return false }
            sum = s
        }
        guard sum > 0 else { return false }
        let magnitude = total < 0 ? -total : total
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: w.count) { remainders in
            var given: Int64 = 0
            for i in 0..<w.count {
                let (p, o) = magnitude.multipliedReportingOverflow(by: w[i])
                if o { return false }
                parts[i] = p / sum
                remainders[i] = p % sum
                given += parts[i]
            }
            // Fewer units are left than non-zero remainders: a zero weight never gets one.
            var left = magnitude - given
            while left > 0 {
                // The largest remainder not yet given a unit; ties to the earlier participant.
                var best = -1
                for i in 0..<w.count where remainders[i] > 0 && (best < 0 || remainders[i] > remainders[best]) { best = i }
                parts[best] += 1
                remainders[best] = -1
                left -= 1
            }
            if total < 0 { for i in 0..<w.count { parts[i] = -parts[i] } }
            return true
        }
    }
}
