import Rendering
import Storage
import TripCore
import TripModel

/// What `trip export` writes for group trips: each trip's members, each purchase's payers and
/// sharers (read by key as the purchases stream by), and the transfers. An export with no group
/// trip in scope costs one query and writes exactly what it always did.
package final class GroupExport {
    /// Trip id → its members in join order; only trips that have members.
    package let members: [Int64: [Member]]
    /// Member id → `Equity:Members:<Name>`, unique within its trip: in partnership terms each member's
    /// capital account, credited with what they pay and debited with their share.
    package let accounts: [Int64: String]
    private let splits: SplitLookup?
    /// Trip id → member id → position in `members`.
    private let positions: [Int64: SplitWeights.Positions]

    package init(ledger: Ledger, trips: [Trip]) throws {
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

    package var isEmpty: Bool { members.isEmpty }

    /// The payers and sharers of `p` (indices into its trip's `members`), `nil` when it has none.
    func split(of p: Purchase) throws -> SplitParts? {
        guard let splits, let index = positions[p.tripID] else { return nil }
        return try splits.parts(trip: p.tripID, purchase: p.id, index: index)
    }

    /// A writer of the CSV `paid_by` and `split` cells, for purchases that come trip by trip.
    package func cellWriter() -> CellWriter { CellWriter(positions: positions, members: members) }

    /// Appends the CSV `paid_by` and `split` cells of a purchase to a row: `NAME=WEIGHT,…` in join
    /// order (see `SplitText`) from its stored split. Bytes to bytes, as the export writes its rows:
    /// the trip's member names are looked up by position and each whole weight's digits copied,
    /// with nothing allocated per row (a decoded `cell` is only for a weight that is not whole).
    package struct CellWriter {
        fileprivate let positions: [Int64: SplitWeights.Positions]
        fileprivate let members: [Int64: [Member]]
        /// The trip of the last row, its positions, members and their names' bytes, looked up
        /// once per trip, not per row.
        private var trip: Int64?
        private var index: SplitWeights.Positions?
        private var list: [Member] = []
        private var names = MemberNames([])
        /// Whether a name of the trip holds a byte `PurchaseCSV.record` quotes for.
        private var namesNeedQuotes = false
        private var scratch: [UInt8] = []

        fileprivate init(positions: [Int64: SplitWeights.Positions], members: [Int64: [Member]]) {
            self.positions = positions
            self.members = members
        }

        /// Appends the cells of a purchase of trip `tripID` whose stored split is `stored`, each
        /// after its comma; both empty when it has none.
        package mutating func append(
            trip tripID: Int64, purchase id: Int64,
            stored: (payers: UnsafeBufferPointer<UInt8>, shares: UnsafeBufferPointer<UInt8>)?, to out: inout [UInt8]
        ) throws(TripError) {
            out.append(UInt8(ascii: ","))
            if trip != tripID {
                trip = tripID
                index = positions[tripID]
                list = members[tripID] ?? []
                names = MemberNames(list)
                namesNeedQuotes = list.contains { $0.name.utf8.contains(where: PurchaseCSV.needsQuotes) }
            }
            guard let stored, let index else { return out.append(UInt8(ascii: ",")) }
            try appendQuoted(stored.payers, index: index, purchase: id, field: "payers", to: &out)
            out.append(UInt8(ascii: ","))
            try appendQuoted(stored.shares, index: index, purchase: id, field: "split", to: &out)
        }

        /// One cell, quoted as `PurchaseCSV.record` quotes a field.
        private mutating func appendQuoted(
            _ stored: UnsafeBufferPointer<UInt8>, index: SplitWeights.Positions, purchase id: Int64, field: String,
            to out: inout [UInt8]
        ) throws(TripError) {
            guard !namesNeedQuotes else {
                scratch.removeAll(keepingCapacity: true)
                try GroupExport.appendCell(
                    stored, index: index, names: names, members: list, purchase: id, field: field, to: &scratch)
                return scratch.withUnsafeBufferPointer { PurchaseCSV.appendField($0, to: &out) }
            }
            // Past the names, a cell holds only `=`, digits, `/` and the commas between parts, so
            // it needs quotes when it has a comma. A stored text of one part gives a cell of at
            // most one; one of several parts is written after an opening quote, which goes again
            // when the cell has no comma after all (a part of no member of the trip is left out).
            guard stored.contains(UInt8(ascii: ",")) else {
                return try GroupExport.appendCell(
                    stored, index: index, names: names, members: list, purchase: id, field: field, to: &out)
            }
            let start = out.count
            out.append(UInt8(ascii: "\""))
            try GroupExport.appendCell(stored, index: index, names: names, members: list, purchase: id, field: field, to: &out)
            if out[(start + 1)...].contains(UInt8(ascii: ",")) {
                out.append(UInt8(ascii: "\""))
            } else {
                out.remove(at: start)
            }
        }
    }

    /// A trip's member names as UTF-8, one buffer, by position in join order.
    struct MemberNames {
        private var bytes: [UInt8] = []
        private var ends: [Int] = []

        init(_ list: [Member]) {
            for m in list {
                bytes.append(contentsOf: m.name.utf8)
                ends.append(bytes.count)
            }
        }

        func append(_ position: Int, to out: inout [UInt8]) {
            // Byte by byte: a name is a few bytes, fewer than a bulk copy costs to set up.
            for i in (position == 0 ? 0 : ends[position - 1])..<ends[position] { out.append(bytes[i]) }
        }
    }

    /// A stored `payers` or `shares` text as its CSV cell: `SplitText.write` of its decoded parts.
    static func cell(
        _ stored: UnsafeBufferPointer<UInt8>, index: SplitWeights.Positions, members list: [Member], purchase id: Int64, field: String
    ) throws(TripError) -> String {
        var out: [UInt8] = []
        try appendCell(stored, index: index, names: MemberNames(list), members: list, purchase: id, field: field, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `cell`, appended to `out` (unquoted).
    static func appendCell(
        _ stored: UnsafeBufferPointer<UInt8>, index: SplitWeights.Positions, names: MemberNames, members list: [Member],
        purchase id: Int64, field: String, to out: inout [UInt8]
    ) throws(TripError) {
        if appendWholeWeights(stored, index: index, names: names, to: &out) { return }
        var parts: [(index: Int, weight: Rational)] = []
        try SplitWeights.decode(stored, index: index, into: &parts, purchase: id, field: field)
        out.append(contentsOf: SplitText.write(parts.map { (list[$0.index].name, $0.weight) }).utf8)
    }

    /// Appends the cell of a text whose weights are all whole numbers written as `fractionText`
    /// writes them (the common case: every payer's amount), within `PurchaseBound` and not all
    /// zero, each weight's digits copied, and is true; for any other text appends nothing and is
    /// false, and `appendCell` decodes it (or refuses it, as `SplitWeights.decode` does).
    static func appendWholeWeights(
        _ b: UnsafeBufferPointer<UInt8>, index: SplitWeights.Positions, names: MemberNames, to out: inout [UInt8]
    ) -> Bool {
        func isDigit(_ i: Int) -> Bool { i < b.count && b[i] >= 0x30 && b[i] <= 0x39 }
        let start = out.count
        func refuse() -> Bool {
            out.removeSubrange(start...)
            return false
        }
        var i = 0
        var anyWeight = false
        guard b.last != UInt8(ascii: ",") else { return false }
        while i < b.count {
            var id: Int64 = 0
            let idStart = i
            // Wrapping: an id of more than 18 digits is refused just below.
            while isDigit(i) {
                id = id &* 10 &+ Int64(b[i] - 0x30)
                i += 1
            }
            guard i > idStart, i - idStart <= 18, i < b.count, b[i] == UInt8(ascii: "=") else { return refuse() }
            i += 1
            let weightStart = i
            while isDigit(i) { i += 1 }
            let digits = i - weightStart
            // Twelve digits: `PurchaseBound.maxMinorUnits`.
            guard digits > 0, digits <= 12, digits == 1 || b[weightStart] != UInt8(ascii: "0"),
                i == b.count || b[i] == UInt8(ascii: ",")
            else { return refuse() }
            if let position = index[id] {
                anyWeight = anyWeight || b[weightStart] != UInt8(ascii: "0")
                if out.count > start { out.append(UInt8(ascii: ",")) }
                names.append(position, to: &out)
                out.append(UInt8(ascii: "="))
                for k in weightStart..<i { out.append(b[k]) }
            }
            i += 1
        }
        return out.count == start || anyWeight || refuse()
    }

    /// The member postings of `p` in its home currency, in join order: each member's share minus
    /// what they paid (a debit for a share, a credit for a payment), divided exactly as
    /// `trip balances` divides it; members whose two parts cancel get none. Empty for a purchase
    /// with no split or no home amount (unconverted purchases are in no balance).
    package func postings(of p: Purchase) throws -> [(account: String, minor: Int64)] {
        guard let home = p.signedHome, let s = try split(of: p), !s.payers.isEmpty, !s.sharers.isEmpty,
            let list = members[p.tripID]
        else { return [] }
        var net = [Int64](repeating: 0, count: list.count)
        Allocation.divide(home, among: s.payers) { k, part in net[s.payers[k].index] -= part }
        Allocation.divide(home, among: s.sharers) { k, part in net[s.sharers[k].index] += part }
        return list.indices.filter { net[$0] != 0 }.map { (accounts[list[$0].id]!, net[$0]) }
    }

    /// The transfers of the trips in scope, ordered by trip, date and id.
    package func transfers(ledger: Ledger, trips: [Trip]) throws -> [ExportTransfer] {
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
package enum SplitText {
    static func write(_ parts: [(name: String, weight: Rational)]) -> String {
        parts.map { "\($0.name)=\($0.weight.fractionText)" }.joined(separator: ",")
    }

    /// The parts of a cell, in its order; `field` names the column in errors. Names are checked
    /// as member names; weights must be positive, and a name may come once.
    package static func read(_ text: String, field: String) throws(TripError) -> [(name: String, weight: Rational)] {
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
