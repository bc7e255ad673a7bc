import TripCore
import TripModel

/// What an export-format file says about group trips, read with its rows and stored after the
/// purchases are in: the `members` cells (each trip's members in join order), each purchase row's
/// `paid_by` and `split`, and the rows of kind `transfer`.
///
/// Stored at the end because a split refers to its purchase by id, which exists only once the
/// batch inserts are done; the whole import is still one transaction.
struct GroupImport {
    struct Split {
        let trip: Trip
        let row: Int
        let payers: [(name: String, weight: Rational)]
        let shares: [(name: String, weight: Rational)]
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
        // Members first: every name the file uses, per trip.
        var wanted: [(trip: Trip, row: Int, name: String)] = []
        for m in group.members { for n in m.names { wanted.append((m.trip, m.row, n)) } }
        for (_, s) in group.splits {
            for p in s.payers + s.shares { wanted.append((s.trip, s.row, p.name)) }
        }
        for t in group.transfers { wanted.append((t.trip, t.row, t.from)); wanted.append((t.trip, t.row, t.to)) }
        var members: [Int64: [Member]] = [:]
        var missing: [Int64: (trip: Trip, names: [String])] = [:]
        var order: [Int64] = []
        for w in wanted {
            if members[w.trip.id] == nil { members[w.trip.id] = try self.members(of: w.trip) }
            let known = members[w.trip.id]!.map(\.name) + (missing[w.trip.id]?.names ?? [])
            guard SplitSpec.memberIndex(w.name, in: known) == nil else { continue }
            if missing[w.trip.id] == nil { order.append(w.trip.id) }
            missing[w.trip.id, default: (w.trip, [])].names.append(w.name)
        }
        for id in order {
            let m = missing[id]!
            do { _ = try addMembers(m.names, trip: m.trip.name) } catch let e as TripError {
                let row = wanted.first { $0.trip.id == id }!.row
                throw e.inRow(row, column: "members", cell: m.names.joined(separator: ","))
            }
            members[id] = try self.members(of: m.trip)
        }

        if !group.splits.isEmpty {
            let ids = try purchaseStore.importedIDs(after: lastID)
            for (key, s) in group.splits {
                guard let id = ids[key] else { continue }
                let list = members[s.trip.id]!
                // Stored in join order, as `trip add` stores them: the order breaks the ties.
                func text(_ parts: [(name: String, weight: Rational)]) throws -> String {
                    let found = parts.map { p in (list.firstIndex { $0.name.lowercased() == p.name.lowercased() }!, p.weight) }
                    return try SplitWeights.encode(found.sorted { $0.0 < $1.0 }.map { (list[$0.0].id, $0.1) })
                }
                try splitStore.insert(trip: s.trip.id, purchase: id, payers: try text(s.payers), shares: try text(s.shares))
            }
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
