import TripCore
import TripModel

/// The `payers` and `shares` text of `purchase_splits`: `MEMBER_ID=WEIGHT,…` in join order, a
/// weight being an integer or an exact fraction `NUM/DEN`. One place writes and reads it.
enum SplitWeights {
    static func encode(_ parts: [(memberID: Int64, weight: Rational)]) throws(TripError) -> String {
        var out = ""
        for (k, p) in parts.enumerated() {
            guard let num = Int64(exactly: p.weight.numerator), let den = Int64(exactly: p.weight.denominator) else {
                throw .badAmount(field: "split", value: p.weight.description, reason: "is too precise a weight; use fewer digits")
            }
            if k > 0 { out += "," }
            out += "\(p.memberID)=\(num)"
            if den != 1 { out += "/\(den)" }
        }
        return out
    }

    /// Where each member of a trip stands in its join order, by member id: a flat table when the
    /// ids are small (they are a ledger's row ids), so that reading the splits of a whole trip
    /// hashes nothing per part.
    struct Positions {
        private var table: [Int32] = []
        private var byID: [Int64: Int] = [:]

        init(_ members: [Member]) { self.init(ids: members.map(\.id)) }

        /// `ids`: the members' ids in join order.
        init(ids: [Int64]) {
            let largest = ids.max() ?? 0
            if (ids.min() ?? 0) >= 0 && largest < 65_536 {
                table = Array(repeating: -1, count: Int(largest) + 1)
                for (position, id) in ids.enumerated() where table[Int(id)] < 0 { table[Int(id)] = Int32(position) }
            } else {
                byID = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            }
        }

        subscript(id: Int64) -> Int? {
            guard !table.isEmpty else { return byID[id] }
            guard id >= 0, id < table.count, table[Int(id)] >= 0 else { return nil }
            return Int(table[Int(id)])
        }
    }

    /// Appends to `out` the parts of `bytes` whose member is in `index` (its position in join
    /// order).
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, index: Positions, into out: inout [(index: Int, weight: Rational)]
    ) {
        var i = 0
        func number() -> Int64 {
            var v: Int64 = 0
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
                v = v &* 10 &+ Int64(bytes[i] - 48)
                i += 1
            }
            return v
        }
        while i < bytes.count {
            let id = number()
            i += 1  // "="
            let num = number()
            var den: Int64 = 1
            if i < bytes.count, bytes[i] == 47 {  // "/"
                i += 1
                den = number()
            }
            i += 1  // ","
            guard let position = index[id] else { continue }
            // A whole number (the common case, and every payer's amount) needs no reduction.
            out.append((position, den == 1 ? Rational(integer: Int128(num)) : (try? Rational(Int128(num), Int128(den))) ?? .zero))
        }
    }

    /// The member ids a `payers` or `shares` text names.
    static func memberIDs(_ text: String) -> [Int64] {
        text.split(separator: ",").compactMap { $0.split(separator: "=").first.flatMap { Int64($0) } }
    }
}
