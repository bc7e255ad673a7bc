// Fuzz target `splits`: a stored split (`purchase_splits`' `payers` and `shares` texts, as a
// pulled row or a hand-edited ledger may hold them) through the readers `trip balances`,
// `trip settle` and `trip export` use: `StoredSplit.read` and `StoredSplit.exportCell`.
// Input: the payers text, a line feed, the shares text (no line feed: both the same text).
//
// Checks beyond "no crash":
// - a text is either read or refused with one line naming the purchase, by both readers alike;
// - a read list has weights ≥ 0, not all zero, and divides any amount (0, 1, −1, the largest a
//   purchase holds, a refund of it) into parts that add up to it exactly;
// - the balances of one purchase split that way add up to zero, and the settle-up plan of them
//   brings every balance to zero.
import TripCore
import TripLedger
import TripModel

let memberIDs: [Int64] = [1, 2, 3, 70_000]
let members = memberIDs.map { Member(id: $0, tripID: 1, name: "m\($0)", joinedAt: "2026-03-01T00:00:00Z") }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSplits(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    let cut = input.firstIndex(of: 0x0A)
    let payers = String(decoding: input[..<(cut ?? input.endIndex)], as: UTF8.self)
    let shares = cut.map { String(decoding: input[($0 + 1)...], as: UTF8.self) } ?? payers
    guard let paid = check(payers), let shared = check(shares), !paid.isEmpty, !shared.isEmpty else { return 0 }
    for amount in [1, 1_234_567, PurchaseBound.maxMinorUnits, -PurchaseBound.maxMinorUnits] {
        var balances = [Int64](repeating: 0, count: memberIDs.count)
        Allocation.divide(amount, among: paid.map { (index: $0.position, weight: $0.weight) }) { k, part in balances[paid[k].position] += part }
        Allocation.divide(amount, among: shared.map { (index: $0.position, weight: $0.weight) }) { k, part in
            balances[shared[k].position] -= part
        }
        require(balances.reduce(0, +) == 0, "balances \(balances) of \(amount) do not add up to zero")
        var settled = balances
        for t in SettleUp.plan(balances: balances) {
            settled[t.from] += t.amount
            settled[t.to] -= t.amount
        }
        require(settled.allSatisfy { $0 == 0 }, "settle-up leaves \(settled)")
    }
    return 0
}

/// Reads `text` both ways: nil when refused (alike, in one line); else its parts, checked.
func check(_ text: String) -> [(position: Int, weight: Rational)]? {
    let read = Result { () throws(TripError) in try StoredSplit.read(text, memberIDs: memberIDs, purchase: 7) }
    let cell = Result { () throws(TripError) in try StoredSplit.exportCell(text, members: members, purchase: 7) }
    switch (read, cell) {
    case (.failure(let a), .failure(let b)):
        require(a == b, "read and export refuse \(text.debugDescription) differently: \(a) vs \(b)")
        requireOneLine(a.description, "split")
        require(a.description.contains("purchase #7"), "error does not name the row: \(a)")
        return nil
    case (.success(let parts), .success):
        require(parts.allSatisfy { !$0.weight.isNegative }, "negative weight from \(text.debugDescription)")
        require(parts.isEmpty || parts.contains { !$0.weight.isZero }, "all-zero weights read from \(text.debugDescription)")
        for amount in [0, 1, -1, PurchaseBound.maxMinorUnits, -PurchaseBound.maxMinorUnits] where !parts.isEmpty {
            let divided = Allocation.divide(amount, among: parts.map { (index: $0.position, weight: $0.weight) })
            require(divided.reduce(0, +) == amount, "\(amount) divided by \(text.debugDescription) gives \(divided)")
        }
        return parts
    default:
        require(false, "read \(read) but export \(cell) for \(text.debugDescription)")
        return nil
    }
}
