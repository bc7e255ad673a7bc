import Foundation
import TestSupport
import Testing

/// An older release and this one share a trip (issue 35 item 3: "compatibility with today's release
/// is required"): each release is built from the project's own git history (`OldRelease`), so
/// these run in `make test-long` only (`TRIP_LONG_TESTS=1`); the first run builds each commit once.
///
/// - 9884232 (server schema 8, before the wire format was declared and versioned) and this
///   release converge on a shared trip, whichever of the two shares it and whichever edits.
/// - 2aa52e7 (the commit issue 35 names) speaks server schema 7: a server of schema 8 refuses it
///   by design (issue 36: "a device older than it gets one line asking it to upgrade and changes
///   nothing"), which is tested instead.
@Suite("Shared trips: an older release and this one", .serialized, .enabled(if: HardeningScale.isLong))
struct OldReleaseCompatibilityTests {
    /// Main before the wire format was declared: server schema 8, payloads without a version.
    static let schema8 = "9884232"
    /// The commit issue 35 names: server schema 7.
    static let schema7 = "2aa52e7"

    static func device(_ world: SharedTripWorld, _ role: String, release: String?) throws -> TripProcess {
        var d = world.device(role)
        if let release { d.executable = try OldRelease.trip(release) }
        return d
    }

    /// Both devices sync until neither has anything left, twice round.
    static func syncBoth(_ a: TripProcess, _ b: TripProcess) throws {
        for d in [a, b, a, b] {
            let s = try d.run("sync")
            #expect(s.exitCode == 0, "\(s.stderr)")
        }
    }

    /// The local number of the purchase noted `note` on device `d`.
    static func localID(_ d: TripProcess, note: String) throws -> String {
        let r = try d.run("list", "--format", "json")
        try #require(r.exitCode == 0, "\(r.stderr)")
        let list = try #require(r.json["purchases"] as? [[String: Any]])
        let id = try #require(list.first { ($0["note"] as? String) == note }?["id"] as? Int, "no purchase \(note): \(r.stdout)")
        return String(id)
    }

    /// Ana shares a group trip from one release, Ben joins it from the other; both add, edit,
    /// remove and settle, and they end with the same trip, with nothing set aside.
    @Test(arguments: [true, false])
    func theOlderReleaseAndThisOneConverge(olderShares: Bool) throws {
        let world = try SharedTripWorld()
        let ana = try Self.device(world, "ana", release: olderShares ? Self.schema8 : nil)
        let ben = try Self.device(world, "ben", release: olderShares ? nil : Self.schema8)
        try #require(ana.run("new", "Lisbon", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben").exitCode == 0)
        for (amount, note) in [("30", "lunch"), ("12.50", "taxi"), ("80", "hotel")] {
            try #require(ana.run("add", amount, note, "--paid-by", "Ana", "--split", "all").exitCode == 0)
        }
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        let join = try ben.run("join", "Lisbon")
        try #require(join.exitCode == 0, "\(join.stderr)")
        #expect(try snapshot(ben) == snapshot(ana))

        try #require(ben.run("add", "24", "dinner", "--paid-by", "Ben", "--split", "all").exitCode == 0)
        try #require(ben.run("edit", try Self.localID(ben, note: "taxi"), "--note", "taxi to the airport").exitCode == 0)
        try #require(ana.run("edit", try Self.localID(ana, note: "hotel"), "--amount", "85").exitCode == 0)
        try #require(ana.run("rm", try Self.localID(ana, note: "lunch")).exitCode == 0)
        try #require(ana.run("transfer", "Ben", "Ana", "10").exitCode == 0)
        try Self.syncBoth(ana, ben)
        // An edit of a row the other release wrote last, both ways.
        try #require(ana.run("edit", try Self.localID(ana, note: "dinner"), "--note", "dinner by the river").exitCode == 0)
        try Self.syncBoth(ana, ben)
        try #require(ben.run("edit", try Self.localID(ben, note: "hotel"), "--note", "hotel, 2 nights").exitCode == 0)
        try Self.syncBoth(ana, ben)

        #expect(try notes(ana) == ["dinner by the river", "hotel, 2 nights", "taxi to the airport"])
        #expect(try snapshot(ben) == snapshot(ana))
        for d in [ana, ben] {
            let listed = try d.run("conflicts").stdout
            #expect(try openSetAside(d).isEmpty, "\(listed)")
            #expect(try openConflicts(d).isEmpty, "\(listed)")
        }
    }

    /// 2aa52e7 meets a server of schema 8: one line asking to upgrade, and its ledger unchanged,
    /// whether it shares a trip or joins one.
    @Test func aReleaseOfServerSchema7IsAskedToUpgradeAndChangesNothing() throws {
        let world = try SharedTripWorld()
        let ana = try Self.device(world, "ana", release: nil)
        try #require(ana.run("new", "Lisbon", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("add", "30", "lunch").exitCode == 0)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)

        let ben = try Self.device(world, "ben", release: Self.schema7)
        try #require(ben.run("new", "Porto", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ben.run("add", "9", "coffee").exitCode == 0)
        let before = try dumpLedger(ben.ledgerPath)
        for args in [["join", "Lisbon"], ["share", "--with", "ana"]] {
            let r = try ben.run(args)
            #expect(r.exitCode != 0, "\(args): \(r.stdout)")
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1 && r.stderr.contains("upgrade trip"), "\(args): \(r.stderr)")
            #expect(try dumpLedger(ben.ledgerPath) == before, "\(args) changed the ledger")
        }
        // And the server holds nothing of it.
        let trips = try world.cluster.psql("tripadmin", database: world.database, "SELECT count(*) FROM trip_ledger.trips")
        #expect(trips.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }
}
