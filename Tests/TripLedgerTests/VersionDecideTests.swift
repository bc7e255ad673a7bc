import TestSupport
import Testing
import TripModel

@testable import Storage
@testable import SyncRules
@testable import TripLedger

/// `Version.decide`, the one rule of a shared trip, on random writes of one row: each test draws
/// from a seeded `SplitMix64` and names its seed when it fails (`TRIP_LONG_TESTS=1` draws more),
/// so a failure replays. Apart from the end-to-end convergence test: this is the function alone.
@Suite("Version.decide: one rule, the same on every device")
struct VersionDecideTests {
    static let seeds: [UInt64] = Array(1...HardeningScale.pick(short: 200, long: 5_000))

    /// A write with a small clock, of few devices, so that ties and coincidences of clocks and
    /// bases happen often.
    static func write(_ g: inout SplitMix64, ops: [RowWrite.Op] = [.edit, .removal, .restore], based: Bool = true) -> RowWrite {
        let op = ops.randomElement(using: &g)!
        let hlc = Int64.random(in: 1...6, using: &g)
        let device = ["aaaa", "bbbb", "cccc"].randomElement(using: &g)!
        let base = based && Bool.random(using: &g) ? Int64.random(in: 1...6, using: &g) : 0
        return RowWrite(op, hlc: hlc, device: device, base: base)
    }

    /// What a device holds of a row as a pull applies writes to it (`Ledger.applyRow`): the write
    /// whose values it shows, its latest removal and restore clocks, and whether it is there.
    struct Held: Equatable {
        var values: RowWrite?
        var removedAt: Int64 = 0
        var restoredAt: Int64 = 0
        var present = true

        /// `carriesValues`: an edit and a restore do; a purchase's removal carries its last version.
        mutating func apply(_ w: RowWrite, carriesValues: Bool) {
            if carriesValues, values.map({ Version.decide(held: $0, incoming: w).valuesWin }) ?? true { values = w }
            switch w.op {
            case .removal:
                if present, Version.decide(held: RowWrite(.restore, hlc: restoredAt, device: ""), incoming: w).takesEffect { present = false }
                removedAt = max(removedAt, w.version.hlc)
            case .restore:
                if !present, Version.decide(held: RowWrite(.removal, hlc: removedAt, device: ""), incoming: w).takesEffect { present = true }
                restoredAt = max(restoredAt, w.version.hlc)
            case .edit:
                break
            }
        }
    }

    @Test(arguments: seeds)
    func theSameTwoWritesGiveTheSameAnswer(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        let a = Self.write(&g), b = Self.write(&g)
        // Built again from their parts: nothing but the two writes goes in.
        let a2 = RowWrite(a.op, hlc: a.version.hlc, device: a.version.device, base: a.base)
        let b2 = RowWrite(b.op, hlc: b.version.hlc, device: b.version.device, base: b.base)
        #expect(Version.decide(held: a, incoming: b) == Version.decide(held: a2, incoming: b2), "seed \(seed)")
    }

    /// No device is special: device ids count only by their order (the tie-break), so naming the
    /// devices otherwise, in the same order, changes nothing, whichever of them applies the rule.
    @Test(arguments: seeds)
    func theAnswerIsTheSameOnEveryDevice(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        let a = Self.write(&g), b = Self.write(&g)
        let renamed = ["aaaa": "0d41", "bbbb": "7c2e", "cccc": "f00f"]
        func rename(_ w: RowWrite) -> RowWrite { RowWrite(w.op, hlc: w.version.hlc, device: renamed[w.version.device]!, base: w.base) }
        #expect(Version.decide(held: a, incoming: b) == Version.decide(held: rename(a), incoming: rename(b)), "seed \(seed): \(a) \(b)")
    }

    /// Two writes of a row, neither made on the other: a conflict, and the same one wins whichever
    /// arrives first (a removal over an edit, else the later version). A restore is left out: it
    /// is always made on the removal it undoes.
    @Test(arguments: seeds)
    func ofTwoWritesTheSameWinsInEitherOrder(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        let a = Self.write(&g, ops: [.edit, .removal]), b = Self.write(&g, ops: [.edit, .removal])
        let ab = Version.decide(held: a, incoming: b), ba = Version.decide(held: b, incoming: a)
        #expect(ab.conflict == ba.conflict, "seed \(seed): \(a) \(b)")
        #expect(ab.valuesWin == (b.version > a.version) && ba.valuesWin == (a.version > b.version), "seed \(seed): \(a) \(b)")
        guard ab.conflict, a.version != b.version else { return }
        #expect(ab.incomingWins != ba.incomingWins, "seed \(seed): \(a) \(b)")
        let expected = a.op == b.op ? b.version > a.version : b.op == .removal
        #expect(ab.incomingWins == expected, "seed \(seed): \(a) \(b)")
    }

    /// A conflict if and only if neither write was made on the other (its base is the other's
    /// clock; a restore is made on what it undoes).
    @Test(arguments: seeds)
    func aConflictIffNeitherIsMadeOnTheOther(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        let held = Self.write(&g), incoming = Self.write(&g)
        let madeOn = incoming.op == .restore || incoming.base == held.version.hlc || held.base == incoming.version.hlc
        let d = Version.decide(held: held, incoming: incoming)
        #expect(d.conflict == !madeOn, "seed \(seed): \(held) \(incoming)")
        // A write made on the one held replaces it, whatever it did.
        if incoming.op == .restore || incoming.base == held.version.hlc { #expect(d.incomingWins, "seed \(seed): \(held) \(incoming)") }
    }

    /// A removal and a restore are ordered by clock alone, in whichever order they arrive: the
    /// later one says whether the row is there, and at the same clock the restore wins.
    @Test(arguments: seeds)
    func aRemovalAndARestoreGoByClock(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        let removal = Self.write(&g, ops: [.removal])
        let restore = Self.write(&g, ops: [.restore])
        let thereAfter = restore.version.hlc >= removal.version.hlc
        for order in [[removal, restore], [restore, removal]] {
            var held = Held()
            for w in order { held.apply(w, carriesValues: w.op != .removal) }
            #expect(held.present == thereAfter, "seed \(seed): \(order)")
        }
        #expect(Version.isRemoved(removedAt: removal.version.hlc, restoredAt: restore.version.hlc) == !thereAfter, "seed \(seed)")
        // An edit never brings a removed row back, however late.
        var held = Held()
        held.apply(removal, carriesValues: false)
        held.apply(RowWrite(.edit, hlc: removal.version.hlc + 100, device: "aaaa"), carriesValues: true)
        #expect(!held.present, "seed \(seed)")
    }

    /// The pull's merge is commutative and associative: the writes of one row, applied in any
    /// order, leave every device holding the same values and the same presence, removals and
    /// restores at one clock included (two devices' writes in one millisecond at one counter).
    /// Two writes of one version are left out: a clock is a device's and moves on at every write,
    /// so two writes of one version are one write.
    @Test(arguments: seeds)
    func everyOrderOfArrivalEndsTheSame(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        var writes: [(RowWrite, Bool)] = []
        for _ in 0..<Int.random(in: 2...7, using: &g) {
            let w = Self.write(&g)
            let clash = writes.contains { $0.0.version == w.version }
            if !clash { writes.append((w, w.op != .removal || Bool.random(using: &g))) }
        }
        var first: Held?
        for _ in 0..<6 {
            var held = Held()
            for (w, values) in writes.shuffled(using: &g) { held.apply(w, carriesValues: values) }
            if let first { #expect(held == first, "seed \(seed): \(writes)") } else { first = held }
        }
        let removed = writes.filter { $0.0.op == .removal }.map(\.0.version.hlc).max() ?? 0
        let restored = writes.filter { $0.0.op == .restore }.map(\.0.version.hlc).max() ?? 0
        #expect(first?.present == !Version.isRemoved(removedAt: removed, restoredAt: restored), "seed \(seed): \(writes)")
        #expect(first?.values?.version == writes.filter(\.1).map(\.0.version).max(), "seed \(seed): \(writes)")
    }

    /// The log's winner of writes none of which was made on another is the same in any order of
    /// the log: a removal if there is one (the latest), else the latest edit.
    @Test(arguments: seeds)
    func theLogsWinnerOfConcurrentWritesIsTheSameInAnyOrder(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        var writes: [RowWrite] = []
        for _ in 0..<Int.random(in: 2...6, using: &g) {
            let w = Self.write(&g, ops: [.edit, .removal], based: false)
            if !writes.contains(where: { $0.version == w.version }) { writes.append(w) }
        }
        let expected = writes.max { ($0.op == .removal ? 1 : 0, $0.version) < ($1.op == .removal ? 1 : 0, $1.version) }!
        for _ in 0..<6 {
            let order = writes.shuffled(using: &g)
            let winner = order.dropFirst().reduce(order[0]) { Version.decide(held: $0, incoming: $1).incomingWins ? $1 : $0 }
            #expect(winner == expected, "seed \(seed): \(order)")
        }
    }

    /// The one question still asked in SQL, for its partial index (m0015): which rows of a trip a
    /// removal reached and that are still here (`SyncStore.waitingRemovals`). On random removal and
    /// restore clocks, ties included, it answers as `Version.isRemoved` does.
    @Test(arguments: [UInt64(1), 2, 3])
    func theWaitingRemovalsQueryAgreesWithTheRule(seed: UInt64) throws {
        var g = SplitMix64(seed: seed)
        let t = try TestLedger()
        let trip = try t.ledger.createTrip(NewTrip(name: "Group", localCurrency: "JPY", homeCurrency: "USD"))
        for i in 0..<40 { _ = try t.ledger.addPurchase(PurchaseDraft(amount: "\(100 + i)", note: "p\(i)")) }
        _ = try t.ledger.markShared(trip, gid: GlobalID.make(), owner: "ana")
        _ = try t.ledger.prepareOutgoing(try #require(try t.ledger.sharedTrip(trip)))
        var ids: [Int64] = []
        try t.ledger.database.db.prepare("SELECT local_id FROM sync_rows WHERE kind = 'purchase' ORDER BY local_id").forEach { ids.append($0.int(0)) }
        #expect(ids.count == 40)
        var expected: Set<Int64> = []
        for id in ids {
            let removed = Int64.random(in: 0...4, using: &g), restored = Int64.random(in: 0...4, using: &g)
            try t.ledger.database.db.run(
                "UPDATE sync_rows SET deleted_hlc = ?, restored_hlc = ? WHERE kind = 'purchase' AND local_id = ?",
                [.integer(removed), .integer(restored), .integer(id)])
            if Version.isRemoved(removedAt: removed, restoredAt: restored) { expected.insert(id) }
        }
        let waiting = try t.ledger.syncStore.waitingRemovals(trip: trip.id)
        #expect(Set(waiting.map(\.id)) == expected, "seed \(seed)")
    }

    /// Worked examples, one per kind of write.
    @Test(arguments: [
        // (held, incoming, incoming wins, values win, takes effect, conflict)
        (RowWrite(.edit, hlc: 5, device: "a"), RowWrite(.edit, hlc: 6, device: "b"), true, true, false, true),
        (RowWrite(.edit, hlc: 5, device: "b"), RowWrite(.edit, hlc: 5, device: "a"), false, false, false, true),
        (RowWrite(.edit, hlc: 5, device: "a"), RowWrite(.edit, hlc: 7, device: "b", base: 5), true, true, false, false),
        (RowWrite(.edit, hlc: 9, device: "a"), RowWrite(.removal, hlc: 6, device: "b"), true, false, true, true),
        (RowWrite(.removal, hlc: 6, device: "a"), RowWrite(.edit, hlc: 9, device: "b"), false, true, false, true),
        (RowWrite(.removal, hlc: 6, device: "a"), RowWrite(.restore, hlc: 8, device: "b", base: 6), true, true, true, false),
        (RowWrite(.removal, hlc: 8, device: "a"), RowWrite(.restore, hlc: 7, device: "b"), true, false, false, false),
        (RowWrite(.restore, hlc: 8, device: "a"), RowWrite(.removal, hlc: 9, device: "b"), true, true, true, true),
        (RowWrite(.restore, hlc: 8, device: "a"), RowWrite(.removal, hlc: 8, device: "b"), true, true, false, true),
    ])
    func workedExamples(held: RowWrite, incoming: RowWrite, wins: Bool, values: Bool, effect: Bool, conflict: Bool) {
        #expect(
            Version.decide(held: held, incoming: incoming)
                == RowDecision(incomingWins: wins, valuesWin: values, takesEffect: effect, conflict: conflict))
    }
}
