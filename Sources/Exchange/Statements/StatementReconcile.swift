import Storage
import TripCore
import TripLedger
import TripModel

/// What `trip import` of a card statement did with each row it read (issue 37): matched to a
/// purchase already logged, added, left for the traveller (ambiguous), or a difference with a
/// charged amount typed by hand. `--dry-run` prints it whole; a real import counts it.
public struct StatementPlan: Sendable, Equatable {
    /// One row of the statement that became (or would become) money in the trip.
    public struct Row: Sendable, Equatable {
        /// The data row's number (1: the first after the header).
        public let number: Int
        public let date: CivilDate
        /// What was paid, in the currency paid in.
        public let paid: Money
        /// What the card charged in the trip's home currency, when the statement says.
        public let charged: Money?
        public let note: String
        /// `fee` or `money back` for rows that are never matched; `nil` for spending.
        public let kind: String?
        public var outcome: Outcome
    }

    public enum Outcome: Sendable, Equatable {
        case matched(id: Int64, setsCharged: Bool)
        case added
        /// Added only with `--add-unmatched`.
        case ambiguous(candidates: [Int64], added: Bool)
        /// The purchase's charged amount typed by hand (`logged`) is kept.
        case difference(id: Int64, logged: Money)
        /// The row was imported before (same import key): not added again.
        case duplicate
    }

    public var rows: [Row] = []
    /// `--dry-run`: nothing was written.
    public var dryRun = false

    func count(_ test: (Outcome) -> Bool) -> Int { rows.filter { test($0.outcome) }.count }
    public var matched: Int { count { if case .matched = $0 { true } else { false } } }
    public var ambiguous: Int { count { if case .ambiguous(_, false) = $0 { true } else { false } } }
    public var differences: Int { count { if case .difference = $0 { true } else { false } } }
    public var duplicates: Int { count { $0 == .duplicate } }
    /// Rows added (or, in a dry run, that would be).
    public var added: Int {
        count {
            switch $0 {
            case .added, .ambiguous(_, true): true
            default: false
            }
        }
    }

    /// Whether the statement met anything already logged: the summary then counts the plan.
    public var reconciledAny: Bool { matched + rows.filter { if case .ambiguous = $0.outcome { true } else { false } }.count + differences > 0 }
}

extension Ledger {
    /// The plan for a statement's `rows` in `trip`: each spending row matched (`Reconcile.plan`),
    /// the rest added, rows imported before (same import key) duplicates.
    func statementPlan(
        _ rows: [StatementPlan.Row], keys: [UInt64], spending: [Reconcile.Row?], trip: Trip, addUnmatched: Bool
    ) throws -> StatementPlan {
        let (purchases, importKeys) = try purchaseStore.reconcileCandidates(trip: trip.id)
        var plan = StatementPlan(rows: rows)
        var asked: [(index: Int, row: Reconcile.Row)] = []
        for (i, s) in spending.enumerated() {
            if importKeys.contains(keys[i]) {
                plan.rows[i].outcome = .duplicate
            } else if let s {
                asked.append((i, s))
            }
        }
        let outcomes = Reconcile.plan(rows: asked.map(\.row), purchases: purchases, windowDays: settings.statementMatchDays.value)
        for ((i, _), o) in zip(asked, outcomes) {
            plan.rows[i].outcome =
                switch o {
                case .matched(let id, let sets): .matched(id: id, setsCharged: sets)
                case .added: .added
                case .ambiguous(let ids): .ambiguous(candidates: ids, added: addUnmatched)
                case .difference(let id, let logged):
                    .difference(id: id, logged: Money(minorUnits: logged, currency: trip.homeCurrency))
                }
        }
        return plan
    }

    /// Writes the matches of `plan`: each matched purchase takes its row's charged amount as
    /// `trip edit ID --charged` sets it (conversion, splits and payers as an edit keeps them), and
    /// remembers the row (m0023) so that the same statement imported again changes nothing.
    func applyMatches(_ plan: StatementPlan, keys: [UInt64], trip: Trip) throws {
        for (row, key) in zip(plan.rows, keys) {
            guard case .matched(let id, let sets) = row.outcome else { continue }
            if sets, let charged = row.charged {
                try setCharged(charged, of: id, statementKey: key, trip: trip)
            } else {
                try purchaseStore.setChargedFromStatement(id: id, key: key)
            }
        }
    }

    /// Purchase `id` of `trip` takes `charged` from statement row `key`, ending exactly as
    /// `trip edit ID --charged` would leave it, then marked as the row's (m0023).
    ///
    /// The row is built as the edit builds it (`prepareRow`); when it differs from the stored one
    /// only in what a charged amount decides (`PurchaseChargedWrite`), as it does for a purchase
    /// whose price stays, it is written in place by one UPDATE. An edit deletes the row and inserts
    /// it again, three reads and two updates around it: three quarters of a 2,000-row reconcile. Its
    /// split needs nothing either, since the total stays (`storeSplit` would write it back as it
    /// is). Any other difference goes through the edit itself.
    func setCharged(_ charged: Money, of id: Int64, statementKey key: UInt64, trip: Trip) throws {
        let draft = PurchaseDraft(charged: charged.plainText)
        let old = try purchase(id: id)
        if old.tripID == trip.id, trip.closedAt == nil {
            var row = try prepareRow(draft, amount: old.expression, trip: trip, existing: old)
            row.kind = old.kind
            row.refundOf = old.refundOf
            if row.differsOnlyInCharged(from: PurchaseRow(stored: old)) {
                try purchaseStore.writeCharged(id: id, row, source: PurchaseStore.chargedSource(key), now: clock.now)
                return
            }
        }
        _ = try editPurchase(String(id), draft)
        try purchaseStore.setChargedFromStatement(id: id, key: key)
    }
}

extension StatementPlan {
    /// `matched 14 (charged set), added 3, ambiguous 1, skipped 6 (4 transfers, 2 pending)`, then
    /// each ambiguous row and difference on a line of its own (every row under `--dry-run`).
    func text(notImported: [String: Int]) -> String {
        var skipped = notImported
        if duplicates > 0 { skipped["duplicate", default: 0] += duplicates }
        let total = skipped.values.reduce(0, +)
        let kinds = skipped.sorted { $0.key < $1.key }.map { label, n in
            "\(n) \(label)\(n == 1 || label == "pending" || label.hasSuffix("s") ? "" : "s")"
        }
        let differ = differences == 0 ? "" : ", \(differences) difference\(differences == 1 ? "" : "s")"
        var lines = [
            "matched \(matched) (charged set), added \(added), ambiguous \(ambiguous), skipped \(total)"
                + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))") + differ
        ]
        for row in rows {
            switch row.outcome {
            case .ambiguous(_, false), .difference: lines.append(row.line)
            default: if dryRun { lines.append(row.line) }
            }
        }
        if dryRun { lines.append("dry run: nothing written") }
        return lines.joined(separator: "\n")
    }

    /// The plan in `trip import --format json` (README, JSON contract).
    var json: JSONValue {
        .object([
            "matched": .int(Int64(matched)), "added": .int(Int64(added)), "ambiguous": .int(Int64(ambiguous)),
            "differences": .int(Int64(differences)), "duplicates": .int(Int64(duplicates)), "dry_run": .bool(dryRun),
            "rows": .array(rows.map(\.json)),
        ])
    }
}

extension StatementPlan.Row {
    /// `row 2 2025-08-02 USD 30.00 "Museum Shop": ambiguous, #2 or #3; settle it with trip edit ID --charged 22.58`.
    var line: String {
        let what = "row \(number) \(date) \(paid.formatted)\(note.isEmpty ? "" : " " + quoted(note))"
        let charge = charged.map { ", charged \($0.formatted)" } ?? ""
        switch outcome {
        case .matched(let id, true): return "\(what): match #\(id)\(charge)"
        case .matched(let id, false): return "\(what): match #\(id) (charged already)"
        case .added: return "\(what): add\(kind.map { " (\($0))" } ?? "")\(charge)"
        case .duplicate: return "\(what): imported before, skipped"
        case .ambiguous(let ids, let added):
            let which = ids.map { "#\($0)" }.joined(separator: " or ")
            if added { return "\(what): ambiguous (\(which)), added as its own purchase (--add-unmatched)" }
            let settle = charged.map { "trip edit ID --charged \($0.plainText)" } ?? "trip edit ID"
            return "\(what): ambiguous, \(which); not added: settle it with \(settle), or import with --add-unmatched"
        case .difference(let id, let logged):
            return
                "\(what): difference, #\(id) has charged \(logged.formatted) typed by hand; the statement says \(charged?.formatted ?? "none") (kept)"
        }
    }

    var json: JSONValue {
        var o: [String: JSONValue] = [
            "row": .int(Int64(number)), "date": .string(date.description), "currency": .string(paid.currency.code),
            "amount": .string(paid.plainText), "charged": charged.map { .string($0.plainText) } ?? .null, "note": .string(note),
        ]
        switch outcome {
        case .matched(let id, let sets):
            o["outcome"] = .string("matched")
            o["purchase"] = .int(id)
            o["sets_charged"] = .bool(sets)
        case .added: o["outcome"] = .string("added")
        case .duplicate: o["outcome"] = .string("duplicate")
        case .ambiguous(let ids, let added):
            o["outcome"] = .string(added ? "added" : "ambiguous")
            o["candidates"] = .array(ids.map { .int($0) })
        case .difference(let id, let logged):
            o["outcome"] = .string("difference")
            o["purchase"] = .int(id)
            o["logged_charged"] = .string(logged.plainText)
        }
        return .object(o)
    }
}

/// Thrown inside a `--dry-run` import's transaction, so that everything it wrote is rolled back.
private struct DryRunRollback: Error {
    let result: (added: Int, linked: Int, outside: String?)
}

extension Ledger {
    /// `transaction`, rolled back at its end under `--dry-run`: the import's counts as if it had
    /// been written, and nothing written.
    func statementTransaction(
        dryRun: Bool, _ body: () throws -> (added: Int, linked: Int, outside: String?)
    ) throws -> (added: Int, linked: Int, outside: String?) {
        do {
            return try transaction {
                let result = try body()
                if dryRun { throw DryRunRollback(result: result) }
                return result
            }
        } catch let dry as DryRunRollback {
            return dry.result
        }
    }
}
