import TripCore

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

    /// Appends to `out` the parts of `bytes` whose member is in `index` (member id → position in
    /// join order). Weights `1/1`…: `cache` keeps the whole-number ones, the common case.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, index: [Int64: Int], into out: inout [(index: Int, weight: Rational)],
        cache: inout [Int64: Rational]
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
            let w: Rational
            if den == 1, let cached = cache[num] {
                w = cached
            } else {
                w = (try? Rational(Int128(num), Int128(den))) ?? .zero
                if den == 1 { cache[num] = w }
            }
            out.append((position, w))
        }
    }

    /// The member ids a `payers` or `shares` text names.
    static func memberIDs(_ text: String) -> [Int64] {
        text.split(separator: ",").compactMap { $0.split(separator: "=").first.flatMap { Int64($0) } }
    }
}
