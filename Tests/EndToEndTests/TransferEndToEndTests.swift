import Foundation
import TestSupport
import Testing

/// Transfers can be listed, changed and removed, by ids of their own (`T1`, `T2`, …) that are never
/// taken for a purchase's: `trip rm 2` removes purchase 2, `trip rm T2` transfer 2.
@Suite("End to end: managing transfers")
struct TransferEndToEndTests {
    static func lisbon() throws -> (TemporaryFolder, TripProcess) {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        for args in [
            ["init", "--home", "EUR"], ["new", "Lisbon", "--currency", "EUR"], ["member", "add", "Ana", "Ben", "Carla"],
            ["add", "60", "dinner", "--paid-by", "Ana", "--split", "all"], ["add", "9", "tram", "--paid-by", "Ben", "--split", "all"],
            ["transfer", "Ben", "Ana", "15", "--note", "dinner back"], ["transfer", "add", "Carla", "Ana", "20"],
        ] {
            let r = try trip.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        }
        return (folder, trip)
    }

    static func transfers(_ trip: TripProcess) throws -> [[String: Any]] {
        let r = try trip.run("transfers", "--format", "json")
        try #require(r.exitCode == 0, "trip transfers: \(r.stderr)")
        return try #require(r.json["transfers"] as? [[String: Any]], "no transfers array: \(r.stdout)")
    }

    static func balances(_ trip: TripProcess) throws -> [String] {
        let r = try trip.run("balances", "--format", "json")
        try #require(r.exitCode == 0, "trip balances: \(r.stderr)")
        return (r.json["members"] as? [[String: Any]] ?? []).map { "\($0["name"]!)=\($0["balance"]!)" }
    }

    @Test func transfersAreListedWithTheirOwnIDs() throws {
        let (folder, trip) = try Self.lisbon()
        defer { withExtendedLifetime(folder) {} }
        let list = try Self.transfers(trip)
        #expect(list.map { "\($0["ref"]!) \($0["from"]!)>\($0["to"]!) \($0["amount"]!)" } == ["T1 Ben>Ana 15.00", "T2 Carla>Ana 20.00"])
        let text = try trip.run("transfers")
        #expect(text.exitCode == 0)
        #expect(
            text.stdout.contains("T1") && text.stdout.contains("dinner back") && text.stdout.contains("2 transfers, EUR 35.00 in all"),
            "\(text.stdout)")
        // The id `trip transfer` reports is the one `transfers` lists.
        let r = try trip.run("transfer", "Ana", "Ben", "1")
        #expect(r.stdout.contains("Recorded transfer T3 "), "\(r.stdout)")
    }

    @Test func editingATransferChangesTheBalances() throws {
        let (folder, trip) = try Self.lisbon()
        defer { withExtendedLifetime(folder) {} }
        // 69 shared three ways: 23 each. Ana paid 60, received 35: -? Her balance: 60 - 23 - 35 = 2.
        #expect(try Self.balances(trip) == ["Ana=2.00", "Ben=1.00", "Carla=-3.00"])
        let e = try trip.run("transfer", "edit", "T2", "--amount", "23", "--note", "all of it")
        #expect(e.exitCode == 0, "\(e.stderr)")
        #expect(e.stdout.contains("Changed transfer T2"), "\(e.stdout)")
        #expect(try Self.balances(trip) == ["Ana=-1.00", "Ben=1.00", "Carla=0.00"])
        let moved = try trip.run("transfer", "edit", "T1", "--from", "Carla", "--to", "Ben", "--amount", "1")
        #expect(moved.exitCode == 0, "\(moved.stderr)")
        let list = try Self.transfers(trip)
        #expect(
            list.map { "\($0["ref"]!) \($0["from"]!)>\($0["to"]!) \($0["amount"]!) \($0["note"]!)" } == [
                "T1 Carla>Ben 1.00 dinner back", "T2 Carla>Ana 23.00 all of it",
            ])
        // A new currency converts again, and says with which rate.
        #expect(try trip.run("rates", "set", "USD", "0.5", "--date", "2026-03-02").exitCode == 0)
        let usd = try trip.run("transfer", "edit", "T1", "--currency", "USD", "--format", "json")
        #expect(usd.exitCode == 0, "\(usd.stderr)")
        #expect(usd.json["home_amount"] as? String == "0.50" && usd.json["rate_source"] as? String == "manual", "\(usd.stdout)")
    }

    @Test func removingByTIDRemovesTheTransferAndNeverAPurchase() throws {
        let (folder, trip) = try Self.lisbon()
        defer { withExtendedLifetime(folder) {} }
        let rm = try trip.run("rm", "T2")
        #expect(rm.exitCode == 0, "\(rm.stderr)")
        #expect(rm.stdout.contains("Removed transfer T2"), "\(rm.stdout)")
        #expect(try Self.transfers(trip).map { $0["ref"] as? String } == ["T1"])
        // Purchase 2 is still there, and `trip rm 2` removes it, not transfer 2 or 1.
        #expect(try notes(trip) == ["dinner", "tram"])
        #expect(try trip.run("transfer", "rm", "T1").exitCode == 0)
        #expect(try Self.transfers(trip).isEmpty)
        #expect(try trip.run("rm", "2").exitCode == 0)
        #expect(try notes(trip) == ["dinner"])
        // Ids are never reused: the next transfer is T3.
        #expect(try trip.run("transfer", "Ana", "Ben", "1").stdout.contains("transfer T3 "))
    }

    @Test(arguments: [
        (["transfer", "rm", "T9"], 65, "\"T9\""), (["transfer", "rm", "3"], 65, "\"3\""),
        (["transfer", "edit", "T1"], 64, "nothing to change"), (["transfer", "edit", "T1", "--to", "Ben"], 65, "\"Ben\""),
        (["transfer", "edit", "T1", "--amount", "0"], 65, "\"0\""), (["transfer", "edit", "T1", "--from", "Zed"], 65, "\"Zed\""),
        (["transfer", "Ana", "Ben", "-10"], 65, "\"-10\" is negative"), (["rm", "T0"], 65, "\"T0\""),
    ])
    func badInputNamesTheValueAndChangesNothing(args: [String], code: Int32, says: String) throws {
        let (folder, trip) = try Self.lisbon()
        defer { withExtendedLifetime(folder) {} }
        func listed() throws -> [String] { try Self.transfers(trip).map { $0.map { "\($0)=\($1)" }.sorted().joined(separator: " ") } }
        let before = try listed()
        let r = try trip.run(args)
        #expect(r.exitCode == code, "\(args): \(r.stderr)")
        #expect(r.stderr.contains(says) && r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
        #expect(try listed() == before)
    }

    /// A member still in a transfer is kept, and the message names the transfer by the id that
    /// removes it (it said "1 transfer; change their splits first").
    @Test func removingAMemberInATransferNamesTheTransfer() throws {
        let (folder, trip) = try Self.lisbon()
        defer { withExtendedLifetime(folder) {} }
        #expect(try trip.run("member", "add", "Dan").exitCode == 0)
        #expect(try trip.run("transfer", "Dan", "Ana", "5").exitCode == 0)
        let r = try trip.run("member", "rm", "Dan")
        #expect(r.exitCode == 65)
        #expect(r.stderr.contains("still has transfer T3; remove or change those transfers first"), "\(r.stderr)")
        #expect(try trip.run("rm", "T3").exitCode == 0)
        #expect(try trip.run("member", "rm", "Dan").exitCode == 0)
    }

    @Test func aClosedTripsTransfersCannotChange() throws {
        let (folder, trip) = try Self.lisbon()
        defer { withExtendedLifetime(folder) {} }
        #expect(try trip.run("close").exitCode == 0)
        #expect(try trip.run("transfer", "rm", "T1").exitCode != 0)
        #expect(try trip.run("transfer", "edit", "T1", "--amount", "2").exitCode != 0)
        #expect(try Self.transfers(trip).count == 2)
    }
}
