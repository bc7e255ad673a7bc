import TripCore
import TripModel

/// The `payers` and `shares` text of `purchase_splits`: `MEMBER_ID=WEIGHT,…` in join order, a
/// weight being an integer or an exact fraction `NUM/DEN`. One place writes and reads it.
package enum SplitWeights {
    package static func encode(_ parts: [(memberID: Int64, weight: Rational)]) throws(TripError) -> String {
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
    package struct Positions {
        private var table: [Int32] = []
        private var byID: [Int64: Int] = [:]

        package init(_ members: [Member]) { self.init(ids: members.map(\.id)) }

        /// `ids`: the members' ids in join order.
        package init(ids: [Int64]) {
            let largest = ids.max() ?? 0
            if (ids.min() ?? 0) >= 0 && largest < 65_536 {
                table = Array(repeating: -1, count: Int(largest) + 1)
                for (position, id) in ids.enumerated() where table[Int(id)] < 0 { table[Int(id)] = Int32(position) }
            } else {
                byID = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            }
        }

        package subscript(id: Int64) -> Int? {
            guard !table.isEmpty else { return byID[id] }
            guard id >= 0, id < table.count, table[Int(id)] >= 0 else { return nil }
            return Int(table[Int(id)])
        }
    }

    /// Appends to `out` the parts of `bytes` whose member is in `index` (its position in join
    /// order). A text that is not `MEMBER_ID=WEIGHT,…` with weights that divide an amount (whole or
    /// `NUM/DEN`, within `PurchaseBound`, not all zero) is refused with one line naming purchase
    /// `id` and `field`: a pulled row or a hand-edited file can hold anything, and a weight read as
    /// zero would leave balances that do not add up.
    package static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, index: Positions, into out: inout [(index: Int, weight: Rational)],
        purchase id: Int64, field: String
    ) throws(TripError) {
        guard let reason = parse(bytes, index: index, into: &out) else { return }
        throw .badStoredValue(
            row: "purchase #\(id)", field: field, value: String(decoding: bytes, as: UTF8.self), reason: reason)
    }

    /// `decode`'s reading: nil when `bytes` was read whole, else why not.
    package static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, index: Positions, into out: inout [(index: Int, weight: Rational)]
    ) -> String? {
        let malformed = "is not MEMBER_ID=WEIGHT,… (whole or NUM/DEN weights up to \(PurchaseBound.maxMinorUnits))"
        var i = 0
        // Digits up to `limit`, or nil for none or more.
        func number(upTo limit: Int64) -> Int64? {
            let start = i
            var v: Int64 = 0
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
                let digit = Int64(bytes[i] - 48)
                guard v <= (limit - digit) / 10 else { return nil }
                v = v * 10 + digit
                i += 1
            }
            return i > start ? v : nil
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }
        let first = out.count
        var anyWeight = false
        var fractions = false
        while i < bytes.count {
            if i > 0 && !expect(UInt8(ascii: ",")) { return malformed }
            guard let id = number(upTo: .max), expect(UInt8(ascii: "=")), let num = number(upTo: PurchaseBound.maxMinorUnits)
            else { return malformed }
            var den: Int64 = 1
            if expect(UInt8(ascii: "/")) {
                guard let d = number(upTo: PurchaseBound.maxMinorUnits), d > 0 else { return malformed }
                den = d
            }
            guard let position = index[id] else { continue }
            // A whole number (the common case, and every payer's amount) needs no reduction.
            guard den != 1, let weight = try? Rational(Int128(num), Int128(den)) else {
                out.append((position, Rational(integer: Int128(num))))
                anyWeight = anyWeight || num > 0
                continue
            }
            fractions = true
            out.append((position, weight))
        }
        guard out.count > first else { return nil }
        guard fractions else { return anyWeight ? nil : "gives every member a weight of zero" }
        let weights = out[first...].map(\.weight)
        do {
            _ = try Allocation.largestRemainder(PurchaseBound.maxMinorUnits, weights: weights)
        } catch .noWeight {
            return "gives every member a weight of zero"
        } catch {
            return "holds weights too fine to divide an amount by"
        }
        return nil
    }

    /// The member ids a `payers` or `shares` text names.
    package static func memberIDs(_ text: String) -> [Int64] {
        text.split(separator: ",").compactMap { $0.split(separator: "=").first.flatMap { Int64($0) } }
    }
}
