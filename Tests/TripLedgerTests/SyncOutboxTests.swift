import Embedded
import Foundation
import Rendering
import TestSupport
import Testing
import TripCore
import TripModel

@testable import Exchange
@testable import Storage
@testable import SyncRules
@testable import TripLedger

/// The outbox of shared trips (m0011 and `SyncTriggers`), on real SQLite files.
@Suite("Shared trips: the outbox")
struct SyncOutboxTests {
    func triggers(_ ledger: Ledger) throws -> Int64 {
        try ledger.database.db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%sync%'") ?? -1
    }

    func outbox(_ ledger: Ledger) throws -> Int64 { try ledger.database.db.scalarInt("SELECT count(*) FROM sync_outbox") ?? -1 }

    /// A ledger that shares nothing runs no sync trigger: adds, imports and re-rates cost what they did.
    @Test func aLedgerThatSharesNothingHasNoSyncTriggers() throws {
        let t = try TestLedger()
        _ = try t.ledger.createTrip(NewTrip(name: "Solo", localCurrency: "JPY", homeCurrency: "USD"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "1200", note: "ramen"))
        #expect(try triggers(t.ledger) == 0)
        #expect(try outbox(t.ledger) == 0)
    }

    /// A ledger shared before m0024 had triggers that spelled the clock's tick out: the migration
    /// puts them back, all thirteen, reading the tick from its one definition, and they still
    /// record each write of the shared trip at a clock later than the one before.
    @Test func aLedgerSharedBeforeTheTicksHomeGetsTriggersThatUseIt() throws {
        let t = try TestLedger()
        let shared = try t.ledger.createTrip(NewTrip(name: "Group", localCurrency: "JPY", homeCurrency: "USD"))
        _ = try t.ledger.markShared(shared, gid: GlobalID.make(), owner: "ana")
        // Back to the version before m0024: the view gone, the triggers as m0011's era wrote them.
        var names: [String] = []
        try t.ledger.database.db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%sync%'").forEach {
            names.append($0.text(0))
        }
        for name in names {
            let sql = try #require(try t.ledger.database.db.scalarText("SELECT sql FROM sqlite_master WHERE name = ?", [.text(name)]))
            try t.ledger.database.db.execute("DROP TRIGGER \(name)")
            try t.ledger.database.db.execute(
                sql.replacingOccurrences(
                    of: "(SELECT hlc FROM sync_next_hlc)",
                    with: "max(hlc + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536)"))
        }
        // Back to m0023: m0024 and what came after it (m0025's table, each text field's column)
        // undone, so the reopen runs them again.
        let m0024 = try #require(Embedded.migrations.firstIndex { $0.name == "m0024_one_clock_tick" }) + 1
        let m0025 = try #require(Embedded.migrations.firstIndex { $0.name == "m0025_unknown_wire_fields" }) + 1
        #expect(
            Embedded.migrations.count == m0025 + PurchaseTextColumns.targets.count,
            "the test undoes every migration after m0023: m0024, m0025 and a text field's column; name any other here")
        for column in PurchaseTextColumns.targets {
            try t.ledger.database.db.execute("ALTER TABLE purchases DROP COLUMN \(column.name)")
        }
        try t.ledger.database.db.execute(
            """
            DROP VIEW sync_next_hlc; DROP TABLE sync_unknown_fields;
            DELETE FROM schema_migrations WHERE version >= \(m0024); PRAGMA user_version = \(m0024 - 1)
            """)
        #expect(try t.ledger.database.db.scalarInt("SELECT count(*) FROM sqlite_master WHERE sql LIKE '%julianday%'") == 13)

        let reopened = try Ledger(path: t.path, settings: t.ledger.settings, clock: t.ledger.clock)
        #expect(try Migrator.version(of: reopened.database.db) == Migrator.latestVersion)
        #expect(try triggers(reopened) == 13)
        #expect(try reopened.database.db.scalarInt("SELECT count(*) FROM sqlite_master WHERE sql LIKE '%julianday%'") == 1, "the view alone")
        #expect(try reopened.database.db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%sync_next_hlc%'") == 13)
        let before = try reopened.database.db.scalarInt("SELECT max(hlc) FROM sync_outbox") ?? 0
        _ = try reopened.addPurchase(PurchaseDraft(amount: "2000", note: "after the migration"))
        #expect(try reopened.database.db.scalarInt("SELECT count(*) FROM sync_outbox WHERE hlc > ?", [.integer(before)]) == 1)
    }

    /// Sharing installs them; every write to the shared trip is then in the outbox in the same
    /// transaction, a write to another trip is not, and a re-rate is not a change.
    @Test func writesToASharedTripAndOnlyThoseEnterTheOutbox() throws {
        let t = try TestLedger()
        let shared = try t.ledger.createTrip(NewTrip(name: "Group", localCurrency: "JPY", homeCurrency: "USD"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "1000", note: "before sharing"))
        _ = try t.ledger.markShared(shared, gid: GlobalID.make(), owner: "ana")
        #expect(try triggers(t.ledger) == 13)
        #expect(try outbox(t.ledger) == 2, "the trip and its purchases' snapshot, queued by the share")
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "2000", note: "after sharing"))
        #expect(try outbox(t.ledger) == 3)
        _ = try t.ledger.createTrip(NewTrip(name: "Solo", localCurrency: "EUR", homeCurrency: "USD"))
        _ = try t.ledger.addPurchase(PurchaseDraft(amount: "5", note: "elsewhere"))
        #expect(try outbox(t.ledger) == 3, "another trip's purchase is not shared")
        _ = try t.ledger.setManualRate(currency: "JPY", rate: "0.0067", in: "USD", date: "2026-03-01")
        #expect(try outbox(t.ledger) == 3, "a re-rate is not a change")
        let prepared = try t.ledger.prepareOutgoing(try #require(try t.ledger.sharedTrip(shared)))
        // The snapshot holds both purchases as they are when prepared; the one added after the
        // share also travels as its own change, built on the version the snapshot gave it.
        #expect(prepared.filter { $0.kind == PurchaseSnapshot.kind }.map(\.rows) == [2])
        #expect(prepared.filter { $0.kind == "purchase" }.count == 1)
        #expect(prepared.firstIndex { $0.kind == PurchaseSnapshot.kind }! < prepared.firstIndex { $0.kind == "purchase" }!)
        #expect(Set(prepared.map(\.changeID)).count == prepared.count)
        #expect(
            try t.ledger.prepareOutgoing(try #require(try t.ledger.sharedTrip(shared))).map(\.changeID)
                == prepared.map(\.changeID), "a prepared change keeps its id until the server has it")
    }

    /// A first share's snapshot, applied on a ledger that has none of the trip's purchases (a
    /// join: in bulk, with the outbox triggers put back) and on one that already has a purchase of
    /// the trip (row by row, as each purchase's own change), gives the sender's purchases once
    /// each, and no conflict; applied again, it adds nothing.
    @Test func aSnapshotAppliesInBulkAndRowByRow() throws {
        let a = try TestLedger(), b = try TestLedger(), c = try TestLedger()
        let trip = try a.ledger.createTrip(NewTrip(name: "Lima", localCurrency: "PEN", homeCurrency: "PEN"))
        _ = try a.ledger.addPurchase(PurchaseDraft(amount: "120", note: "train"))
        _ = try a.ledger.addPurchase(PurchaseDraft(amount: "45.50", note: "dinner \"la mar\"\ttab \u{1F363}", tip: "10%"))
        _ = try a.ledger.addPurchase(PurchaseDraft(amount: "30", note: "museum"))
        _ = try a.ledger.markShared(trip, gid: GlobalID.make(), owner: "ana")
        let changes = try a.ledger.prepareOutgoing(try #require(try a.ledger.sharedTrip(trip)))
        #expect(changes.map(\.kind) == ["trip", PurchaseSnapshot.kind])
        #expect(PurchaseSnapshot(changes[1].payload ?? "")?.count == 3)
        let rows = """
            SELECT group_concat(date || '|' || note || '|' || total_minor || '|' || home_minor || '|' || coalesce(tip_spec, ''), char(10))
            FROM (SELECT * FROM purchases WHERE note != 'local snack' ORDER BY id)
            """
        let expected = try a.ledger.database.db.scalarText(rows)

        var joined = try b.ledger.createJoinedTrip(changes[0], owner: "ana")
        #expect(try b.ledger.sharedTrip(joined.trip) == joined)
        // Current from the transaction that created it: a join killed right after still left the
        // trip the one `trip list` means (`make test-long` killed one there).
        #expect(try b.ledger.currentTrip()?.id == joined.trip.id)
        let bulk = try b.ledger.applyIncoming(&joined, changes, upTo: 2)
        // The state a sync carries is what the ledger now holds: it is never read back.
        #expect(joined.pulledSeq == 2 && joined.lastSync != nil)
        #expect(try b.ledger.sharedTrip(joined.trip) == joined)
        #expect(bulk.applied == 4 && bulk.conflicts == 0)
        #expect(try b.ledger.database.db.scalarText(rows) == expected)
        #expect(try triggers(b.ledger) == 13, "the outbox triggers are back after the bulk insert")
        let again = try b.ledger.applyIncoming(&joined, [changes[1]], upTo: 3)
        #expect(try b.ledger.sharedTrip(joined.trip) == joined)
        #expect(again.applied == 3 && again.conflicts == 0)
        #expect(try b.ledger.database.db.scalarText(rows) == expected)
        #expect(try b.ledger.database.db.scalarInt("SELECT count(*) FROM sync_rows WHERE kind = 'purchase'") == 3)

        var other = try c.ledger.createJoinedTrip(changes[0], owner: "ana")
        _ = try c.ledger.addPurchase(PurchaseDraft(amount: "8", note: "local snack", trip: "Lima"))
        let byRow = try c.ledger.applyIncoming(&other, [changes[1]], upTo: 2)
        #expect(byRow.applied == 3 && byRow.conflicts == 0)
        #expect(try c.ledger.database.db.scalarText(rows) == expected)
        #expect(try c.ledger.database.db.scalarInt("SELECT count(*) FROM purchases") == 4)
    }

    /// A sync carries its shared trip from step to step and never reads it back: what `markSent`
    /// and each pull leave in it (how far the log is read, the trip as a pulled rename left it) is
    /// what the ledger holds.
    @Test func theSharedTripASyncCarriesIsWhatTheLedgerHolds() throws {
        let a = try TestLedger(), b = try TestLedger()
        let trip = try a.ledger.createTrip(NewTrip(name: "Lima", localCurrency: "PEN", homeCurrency: "PEN"))
        _ = try a.ledger.addPurchase(PurchaseDraft(amount: "120", note: "train"))
        _ = try a.ledger.markShared(trip, gid: GlobalID.make(), owner: "ana")
        var sender = try #require(try a.ledger.sharedTrip(trip))
        let first = try a.ledger.prepareOutgoing(sender)
        // Sent right after what the device had pulled: its own changes are the log through 2.
        try a.ledger.markSent(&sender, first, pulledThrough: 2)
        #expect(sender.pulledSeq == 2)
        #expect(try a.ledger.sharedTrip(trip) == sender)
        _ = try a.ledger.renameTrip("Lima", to: "Cusco")
        let second = try a.ledger.prepareOutgoing(sender)
        #expect(second.map(\.kind) == ["trip"])

        var joined = try b.ledger.createJoinedTrip(first[0], owner: "ana")
        _ = try b.ledger.applyIncoming(&joined, first, upTo: 2)
        #expect(joined.trip.name == "Lima" && joined.pulledSeq == 2)
        _ = try b.ledger.applyIncoming(&joined, second, upTo: 3)
        #expect(joined.trip.name == "Cusco" && joined.pulledSeq == 3)
        #expect(try b.ledger.sharedTrip(joined.trip) == joined)
        try b.ledger.markSynced(&joined)
        #expect(try b.ledger.sharedTrip(joined.trip) == joined)
    }

    /// A join inserts a snapshot 64 rows at a time: across those batches every purchase keeps its
    /// payers and split, and a refund whose purchase is still waiting in the same batch refunds
    /// that purchase.
    @Test func aSnapshotInBatchesKeepsSplitsAndRefunds() throws {
        let a = try TestLedger(), b = try TestLedger()
        let trip = try a.ledger.createTrip(NewTrip(name: "Quito", localCurrency: "USD", homeCurrency: "USD"))
        _ = try a.ledger.addMembers(["ana", "ben"], trip: nil)
        _ = try a.ledger.whoami(set: "ana")
        for i in 1...70 {
            let split = SplitDraft(paidBy: i % 2 == 0 ? "ben" : nil, split: i % 3 == 0 ? "ana=2,ben=1" : nil)
            _ = try a.ledger.addPurchase(PurchaseDraft(amount: "\(i)", note: "taxi \(i)"), split: split)
        }
        // Purchase 68 is in the second batch, with the refund right after the rows before it.
        _ = try a.ledger.addRefund("68", amount: "10", date: nil, charged: nil)
        _ = try a.ledger.markShared(trip, gid: GlobalID.make(), owner: "ana")
        let changes = try a.ledger.prepareOutgoing(try #require(try a.ledger.sharedTrip(trip)))
        #expect(changes.map(\.kind) == ["trip", "member", "member", PurchaseSnapshot.kind])
        let rows = """
            SELECT group_concat(p.note || '|' || p.kind || '|' || p.total_minor || '|' || coalesce(r.note, '') || '|'
              || coalesce(replace(replace(s.payers || ' ' || s.shares,
                   (SELECT id FROM members WHERE name = 'ana') || '=', 'ana='), (SELECT id FROM members WHERE name = 'ben') || '=', 'ben='), ''),
              char(10))
            FROM (SELECT * FROM purchases ORDER BY id) p
            LEFT JOIN purchases r ON r.id = p.refund_of LEFT JOIN purchase_splits s ON s.purchase_id = p.id
            """
        let expected = try #require(try a.ledger.database.db.scalarText(rows))
        #expect(expected.contains("taxi 68|refund|1000|taxi 68|"), "\(expected.suffix(200))")
        #expect(expected.contains("taxi 69|purchase|6900||ana=1 ana=2,ben=1"), "\(expected.suffix(200))")

        var joined = try b.ledger.createJoinedTrip(changes[0], owner: "ana")
        let applied = try b.ledger.applyIncoming(&joined, changes, upTo: Int64(changes.count))
        #expect(applied.applied == 74 && applied.conflicts == 0, "\(applied)")
        #expect(try b.ledger.database.db.scalarText(rows) == expected)
        #expect(try b.ledger.database.db.scalarInt("SELECT count(*) FROM sync_rows WHERE kind = 'purchase'") == 71)
        #expect(try b.ledger.database.db.scalarText("PRAGMA foreign_key_check") == nil)
    }

    /// Global ids are UUIDv7 (RFC 9562): version 7, the RFC variant, the time in the first 48 bits,
    /// and those one process makes in order, even many within one millisecond (a first share).
    @Test func globalIDsAreTimeOrderedUUIDv7() {
        let ids = (0..<10_000).map { _ in GlobalID.make() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let hex = Array(id.utf8)
            #expect(hex.count == 36 && [8, 13, 18, 23].allSatisfy { hex[$0] == UInt8(ascii: "-") }, "\(id)")
            #expect(hex[14] == UInt8(ascii: "7"), "version 7: \(id)")
            #expect("89ab".utf8.contains(hex[19]), "variant: \(id)")
        }
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "in order")
    }
}

/// A payload read in Swift gives every column the value SQLite's `json_extract` gives it.
@Suite("Shared trips: payloads read in Swift")
struct FlatJSONTests {
    @Test(arguments: [
        #"{"a":1,"b":-42,"c":null,"d":"x","e":"tab\there \"quoted\" back\\slash \/ \u00e9\u4e2d","f":"\ud83c\udf63 sushi"}"#,
        #"{ "note" : "café, 2 × ラーメン" , "n" : 0 , "t": true, "f": false }"#,
        #"{}"#,
        #"{"big":9223372036854775807,"neg":-9223372036854775808,"empty":""}"#,
    ])
    func valuesMatchSQLite(payload: String) throws {
        let fields = try #require(FlatJSON.fields(payload))
        let folder = TemporaryFolder("flat-json")
        let db = try Database(path: folder.file("t.sqlite"))
        let keys = try db.scalarText("SELECT group_concat(key, char(31)) FROM json_each(?)", [.text(payload)]) ?? ""
        #expect(fields.map(\.0) == (keys.isEmpty ? [] : keys.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)))
        for (key, value) in fields {
            let type = try db.scalarText("SELECT json_type(?, '$.\"' || ? || '\"')", [.text(payload), .text(key)])
            let text = try db.scalarText("SELECT CAST(json_extract(?, '$.\"' || ? || '\"') AS TEXT)", [.text(payload), .text(key)])
            switch value {
            case .null: #expect(type == "null", "\(key)")
            case .integer(let n):
                #expect(type == "integer" || type == "true" || type == "false", "\(key)")
                #expect(text == String(n), "\(key)")
            case .text(let s):
                #expect(type == "text", "\(key)")
                #expect(text == s, "\(key)")
            }
        }
    }

    /// What it does not read (a fraction, a nested value, broken JSON) is left to SQLite.
    @Test(arguments: [#"{"r":1.5}"#, #"{"e":1e3}"#, #"{"o":{"x":1}}"#, #"{"a":[1]}"#, #"{"a":1"#, #"{"a":"\ud83c"}"#, #"{"a":1} x"#])
    func declinesWhatItDoesNotRead(payload: String) {
        #expect(FlatJSON.fields(payload) == nil)
    }
}
