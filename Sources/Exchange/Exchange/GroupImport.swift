import Storage
import TripCore
import TripLedger
import TripModel

/// What an export-format file says about group trips, read with its rows and stored after the
/// purchases are in: the `members` cells (each trip's members in join order), each purchase row's
/// `paid_by` and `split`, and the rows of kind `transfer`.
///
/// Stored at the end because a split refers to its purchase by id, which exists only once the
/// batch inserts are done; the whole import is still one transaction.
struct GroupImport {
    /// A purchase row's split: its trip (in `trips`), its row, and its payers and sharers (lists of
    /// `parts`). Held for every split row of a file until the purchases are in, so it holds no
    /// strings or arrays of its own: names and lists are stored once in the tables below.
    struct Split: Equatable {
        let trip: Int32
        let row: Int
        let payers: Int32
        let shares: Int32
    }

    struct Transfer {
        let trip: Trip
        let row: Int
        let from: String
        let to: String
        let date: CivilDate
        let amount: Int64
        let currency: Currency
        let conversion: Conversion
        let note: String
    }

    /// Per row with a `members` cell: the trip and the names, in the cell's order.
    var members: [(trip: Trip, row: Int, names: [String])] = []
    /// Each purchase row's split, with the row's import key (which finds the inserted purchase).
    var splits: [(key: UInt64, split: Split)] = []
    var transfers: [Transfer] = []

    /// The trips splits go into, the names they use (as typed, after `Ledger.memberName`), each
    /// name's case-folded class (two names of one class are the same member), and the part lists:
    /// list `i` is `partNames[listStarts[i]..<listStarts[i + 1]]` with the same range of weights.
    private(set) var trips: [Trip] = []
    private(set) var names: [String] = []
    private(set) var folded: [Int32] = []
    private(set) var partNames: [Int32] = []
    private(set) var partWeights: [Rational] = []
    private var listStarts: [Int] = [0]
    private var tripIndex: [Int64: Int32] = [:]
    private var nameIndex: [String: Int32] = [:]
    private var foldIndex: [String: Int32] = [:]

    /// `trip`'s index in `trips`, added when new.
    mutating func index(of trip: Trip) -> Int32 {
        if let i = tripIndex[trip.id] { return i }
        let i = Int32(trips.count)
        trips.append(trip)
        tripIndex[trip.id] = i
        return i
    }

    /// `name`'s index in `names`, added when new.
    mutating func index(ofName name: String) -> Int32 {
        if let i = nameIndex[name] { return i }
        let i = Int32(names.count)
        names.append(name)
        nameIndex[name] = i
        let key = name.lowercased()
        if let f = foldIndex[key] {
            folded.append(f)
        } else {
            foldIndex[key] = i
            folded.append(i)
        }
        return i
    }

    /// Stores a list of parts (name indices and weights) and returns its index.
    mutating func addList<Parts: Sequence<(name: Int32, weight: Rational)>>(_ parts: Parts) -> Int32 {
        for p in parts {
            partNames.append(p.name)
            partWeights.append(p.weight)
        }
        listStarts.append(partNames.count)
        return Int32(listStarts.count - 2)
    }

    mutating func addList(_ parts: [(name: String, weight: Rational)]) -> Int32 {
        var interned: [(name: Int32, weight: Rational)] = []
        for p in parts { interned.append((index(ofName: p.name), p.weight)) }
        return addList(interned)
    }

    /// The positions in `partNames` and `partWeights` of list `list`.
    func range(of list: Int32) -> Range<Int> { listStarts[Int(list)]..<listStarts[Int(list) + 1] }

    /// List `list` with its names, as `SplitText.read` gave it.
    func parts(_ list: Int32) -> [(name: String, weight: Rational)] {
        range(of: list).map { (names[Int(partNames[$0])], partWeights[$0]) }
    }
}

extension Ledger {
    /// Stores what `group` holds, inside the import's transaction, after its purchases are inserted
    /// (those with an id above `lastID`): adds the members a trip lacks (in the order of the
    /// `members` cells, then of first mention), the splits of the purchases just inserted (a
    /// duplicate row's purchase is not, so its split is not either), and the transfers, each
    /// with its recorded conversion. A transfer already in the ledger (same trip, members, date,
    /// amount and note, as often as this file has it) is skipped, so a second import adds none.
    /// Returns the transfers added and skipped.
    func storeGroupRows(_ group: GroupImport, lastID: Int64) throws -> (added: Int, skipped: Int) {
        // Members first: every name the file uses, per trip, in order of first mention.
        var members: [Int64: [Member]] = [:]
        var missing: [Int64: (trip: Trip, names: [String])] = [:]
        var order: [Int64] = []
        var firstRow: [Int64: Int] = [:]
        func want(_ trip: Trip, _ row: Int, _ name: String) throws {
            if firstRow[trip.id] == nil { firstRow[trip.id] = row }
            if members[trip.id] == nil { members[trip.id] = try self.members(of: trip) }
            let known = members[trip.id]!.map(\.name) + (missing[trip.id]?.names ?? [])
            guard SplitSpec.memberIndex(name, in: known) == nil else { return }
            if missing[trip.id] == nil { order.append(trip.id) }
            missing[trip.id, default: (trip, [])].names.append(name)
        }
        for m in group.members { for n in m.names { try want(m.trip, m.row, n) } }
        // Splits name the same few members row after row: a name already looked at in its trip
        // was found or added then, so it is looked at once.
        var looked: Set<Int64> = []
        for (_, s) in group.splits {
            for list in [s.payers, s.shares] {
                for k in group.range(of: list) {
                    let name = group.partNames[k]
                    guard looked.insert(Int64(s.trip) << 32 | Int64(name)).inserted else { continue }
                    try want(group.trips[Int(s.trip)], s.row, group.names[Int(name)])
                }
            }
        }
        for t in group.transfers {
            try want(t.trip, t.row, t.from)
            try want(t.trip, t.row, t.to)
        }
        for id in order {
            let m = missing[id]!
            do { _ = try addMembers(m.names, trip: m.trip.name) } catch let e as TripError {
                throw e.inRow(firstRow[id]!, column: "members", cell: m.names.joined(separator: ","))
            }
            members[id] = try self.members(of: m.trip)
        }

        if !group.splits.isEmpty {
            let ids = try purchaseStore.importedIDs(after: lastID)
            // Each name's member in its trip (by trip index and name index), found once.
            var memberAt: [Int64: Int] = [:]
            func position(_ trip: Int32, _ name: Int32, in list: [Member]) -> Int {
                let key = Int64(trip) << 32 | Int64(name)
                if let p = memberAt[key] { return p }
                let wanted = group.names[Int(name)].lowercased()
                let p = list.firstIndex { $0.name.lowercased() == wanted }!
                memberAt[key] = p
                return p
            }
            // Stored in join order, as `trip add` stores them: the order breaks the ties.
            func text(_ trip: Int32, _ parts: Int32, in list: [Member]) throws -> String {
                let found = group.range(of: parts).map { (position(trip, group.partNames[$0], in: list), group.partWeights[$0]) }
                return try SplitWeights.encode(found.sorted { $0.0 < $1.0 }.map { (list[$0.0].id, $0.1) })
            }
            // A file repeats a few lists of sharers (each distinct cell is one list): each is encoded once per trip.
            var sharesText: [Int64: String] = [:]
            let insert = splitStore.batches()
            var pending = PackedValues()
            var rows = 0
            for (key, s) in group.splits {
                guard let id = ids[key] else { continue }
                let trip = group.trips[Int(s.trip)]
                let list = members[trip.id]!
                let sharesKey = Int64(s.trip) << 32 | Int64(s.shares)
                let shares: String
                if let known = sharesText[sharesKey] {
                    shares = known
                } else {
                    shares = try text(s.trip, s.shares, in: list)
                    sharesText[sharesKey] = shares
                }
                pending.appendInteger(trip.id)
                pending.appendInteger(id)
                pending.appendText(try text(s.trip, s.payers, in: list))
                pending.appendText(shares)
                rows += 1
                if rows == 256 {
                    try insert.insert(pending, width: 4, rows: 0..<rows)
                    pending.removeAll()
                    rows = 0
                }
            }
            try insert.insert(pending, width: 4, rows: 0..<rows)
        }

        var added = 0, skipped = 0
        var seen: [TransferIdentity: Int64] = [:]
        var stored: [TransferIdentity: Int64] = [:]
        // Counted before any is inserted: a file may hold the same transfer twice.
        var keyed: [(GroupImport.Transfer, Member, Member, TransferIdentity)] = []
        for t in group.transfers {
            let list = members[t.trip.id]!
            let from = try Ledger.member(t.from, in: list, trip: t.trip), to = try Ledger.member(t.to, in: list, trip: t.trip)
            let key = TransferIdentity(
                tripID: t.trip.id, from: from.id, to: to.id, date: t.date, amount: Money(minorUnits: t.amount, currency: t.currency),
                note: t.note)
            if stored[key] == nil { stored[key] = try transferStore.count(key) }
            keyed.append((t, from, to, key))
        }
        for (t, from, to, key) in keyed {
            seen[key, default: 0] += 1
            if seen[key]! <= stored[key]! {
                skipped += 1
                continue
            }
            _ = try insertTransfer(
                trip: t.trip, from: from, to: to, amount: t.amount, currency: t.currency, date: t.date,
                note: t.note, conversion: t.conversion)
            added += 1
        }
        return (added, skipped)
    }
}
