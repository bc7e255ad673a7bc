import Rendering
import TripCore
import TripModel

/// What `trip export` writes for group trips: each trip's members, each purchase's payers and
/// sharers (read by key as the purchases stream by), and the transfers. An export with no group
/// trip in scope costs one query and writes exactly what it always did.
final class GroupExport {
    /// Trip id → its members in join order; only trips that have members.
    let members: [Int64: [Member]]
    /// Member id → `Equity:Members:<Name>`, unique within its trip: in partnership terms each member's
    /// capital account, credited with what they pay and debited with their share.
    let accounts: [Int64: String]
    private let splits: SplitLookup?
    /// Trip id → member id → position in `members`.
    private let positions: [Int64: SplitWeights.Positions]

    init(ledger: Ledger, trips: [Trip]) throws {
        var members: [Int64: [Member]] = [:]
        for t in trips {
            let m = try ledger.members(of: t)
            if !m.isEmpty { members[t.id] = m }
        }
        self.members = members
        positions = members.mapValues { SplitWeights.Positions($0) }
        var accounts: [Int64: String] = [:]
        for list in members.values { accounts.merge(JournalText.memberAccounts(list)) { a, _ in a } }
        self.accounts = accounts
        splits =
            members.isEmpty
            ? nil
            : try ledger.splitStore.lookup()
    }

    var isEmpty: Bool { members.isEmpty }

    /// The payers and sharers of `p` (indices into its trip's `members`), `nil` when it has none.
    func split(of p: Purchase) throws -> SplitParts? {
        guard let splits, let index = positions[p.tripID] else { return nil }
        return try splits.parts(trip: p.tripID, purchase: p.id, index: index)
    }

    /// The CSV `paid_by` and `split` cells of `p`, whose stored split is `stored`: `NAME=WEIGHT,…`
    /// in join order (see `SplitText`); both empty when it has no split.
    func cells(of p: Purchase, stored: (payers: UnsafeBufferPointer<UInt8>, shares: UnsafeBufferPointer<UInt8>)?) -> (
        paidBy: String, split: String
    ) {
        guard let stored, let index = positions[p.tripID], let list = members[p.tripID] else { return ("", "") }
        // Purchases come trip by trip; a trip's purchases share a few lists of sharers.
        if sharesTrip != p.tripID {
            sharesTrip = p.tripID
            sharesCells = ByteMemo()
        }
        let split: String
        if let known = sharesCells.find(stored.shares) {
            split = known
        } else {
            split = Self.cell(stored.shares, index: index, members: list)
            sharesCells.insert(stored.shares, split)
        }
        return (Self.cell(stored.payers, index: index, members: list), split)
    }

    /// The last trip `cells` wrote, and its `split` cells by stored text.
    private var sharesTrip: Int64 = -1
    private var sharesCells = ByteMemo<String>()

    /// A stored `payers` or `shares` text as its CSV cell: `SplitText.write` of its decoded parts.
    static func cell(_ stored: UnsafeBufferPointer<UInt8>, index: SplitWeights.Positions, members list: [Member]) -> String {
        if let cell = wholeWeightsCell(stored, index: index, members: list) { return cell }
        var parts: [(index: Int, weight: Rational)] = []
        SplitWeights.decode(stored, index: index, into: &parts)
        return SplitText.write(parts.map { (list[$0.index].name, $0.weight) })
    }

    /// The same cell for a text whose weights are all whole numbers written as `fractionText`
    /// writes them (the common case: every payer's amount), each weight's digits copied; `nil`
    /// for any other text, which `cell` decodes.
    static func wholeWeightsCell(_ b: UnsafeBufferPointer<UInt8>, index: SplitWeights.Positions, members list: [Member]) -> String? {
        func isDigit(_ i: Int) -> Bool { i < b.count && b[i] >= 0x30 && b[i] <= 0x39 }
        var out: [UInt8] = []
        out.reserveCapacity(b.count + 8 * list.count)
        var i = 0
        while i < b.count {
            var id: Int64 = 0
            let idStart = i
            while isDigit(i) {
                id = id * 10 + Int64(b[i] - 0x30)
                i += 1
            }
            guard i > idStart, i - idStart <= 18, i < b.count, b[i] == UInt8(ascii: "=") else { return nil }
            i += 1
            let weightStart = i
            while isDigit(i) { i += 1 }
            let digits = i - weightStart
            guard digits > 0, digits <= 18, digits == 1 || b[weightStart] != UInt8(ascii: "0"),
                i == b.count || b[i] == UInt8(ascii: ",")
            else { return nil }
            if let position = index[id] {
                if !out.isEmpty { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: list[position].name.utf8)
                out.append(UInt8(ascii: "="))
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[weightStart..<i]))
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The member postings of `p` in its home currency, in join order: each member's share minus
    /// what they paid (a debit for a share, a credit for a payment), divided exactly as
    /// `trip balances` divides it; members whose two parts cancel get none. Empty for a purchase
    /// with no split or no home amount (unconverted purchases are in no balance).
    func postings(of p: Purchase) throws -> [(account: String, minor: Int64)] {
        guard let home = p.signedHome, let s = try split(of: p), !s.payers.isEmpty, !s.sharers.isEmpty,
            let list = members[p.tripID]
        else { return [] }
        var net = [Int64](repeating: 0, count: list.count)
        Allocation.divide(home, among: s.payers) { k, part in net[s.payers[k].index] -= part }
        Allocation.divide(home, among: s.sharers) { k, part in net[s.sharers[k].index] += part }
        return list.indices.filter { net[$0] != 0 }.map { (accounts[list[$0].id]!, net[$0]) }
    }

    /// The transfers of the trips in scope, ordered by trip, date and id.
    func transfers(ledger: Ledger, trips: [Trip]) throws -> [ExportTransfer] {
        guard !members.isEmpty else { return [] }
        var byID: [Int64: Member] = [:]
        for list in members.values { for m in list { byID[m.id] = m } }
        let names = Dictionary(uniqueKeysWithValues: trips.map { ($0.id, $0.name) })
        var out: [ExportTransfer] = []
        try ledger.transferStore.forEachTransfer { t in
            guard let trip = names[t.tripID], let from = byID[t.from], let to = byID[t.to] else { return }
            out.append(
                ExportTransfer(
                    id: t.id, tripID: t.tripID, tripName: trip, from: from, to: to,
                    date: CivilDate(iso: t.date) ?? CivilDate(year: 1970, month: 1, day: 1)!,
                    amount: Money(minorUnits: t.amount, currency: .stored(t.currency)), homeCurrency: .stored(t.homeCurrency),
                    home: t.home, quote: t.quote, note: t.note))
        }
        return out
    }
}

/// The `paid_by` and `split` cells of the purchase CSV: `NAME=WEIGHT,…`, the weights as stored
/// (`SplitWeights`, with names for member ids): an integer, or an exact fraction `NUM/DEN`. On
/// import a weight may also be a plain decimal (`1.5`), as a hand-edited file may have it. Member
/// names cannot hold `,` or `=`, so the text splits unambiguously.
enum SplitText {
    static func write(_ parts: [(name: String, weight: Rational)]) -> String {
        parts.map { "\($0.name)=\($0.weight.fractionText)" }.joined(separator: ",")
    }

    /// The parts of a cell, in its order; `field` names the column in errors. Names are checked
    /// as member names; weights must be positive, and a name may come once.
    static func read(_ text: String, field: String) throws(TripError) -> [(name: String, weight: Rational)] {
        var out: [(name: String, weight: Rational)] = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw .badTextValue(field: field, value: String(piece), reason: "is not NAME=WEIGHT")
            }
            let name = try Ledger.memberName(String(parts[0]))
            let weightText = parts[1].trimmingSpaces
            guard let w = weight(weightText), !w.isNegative, !w.isZero else {
                throw .badTextValue(field: field, value: String(piece), reason: "needs a weight above zero: an integer, NUM/DEN or a decimal")
            }
            if out.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                throw .badTextValue(field: field, value: name, reason: "is named twice")
            }
            out.append((name, w))
        }
        return out
    }

    private static func weight(_ text: String) -> Rational? {
        let halves = text.split(separator: "/", omittingEmptySubsequences: false)
        if halves.count == 2 {
            guard let n = Int128(halves[0]), let d = Int128(halves[1]), d > 0 else { return nil }
            return try? Rational(n, d)
        }
        return Rational(decimalText: text)
    }
}
