import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A shared trip lives on one server. Before, a typo in the port or the database name that landed
/// on another PostgreSQL with the trip schema and the same role made `trip sync` create the trip
/// there, as its owner, with exit 0 (`pushed 2, pulled 0`), and `trip remote status` called it up
/// to date. And what `trip remote status` and a join cut short say of a trip that is not what it
/// seems: revoked, or only partly here.
@Suite("Shared trips: the server a trip lives on, and what status says")
struct ServerIdentityTests {
    /// A second database on the same cluster with the trip schema: the server a typo lands on.
    static func otherServer(_ world: SharedTripWorld) throws -> String {
        let other = try world.cluster.freshDatabase()
        let admin = TripProcess(
            ledgerPath: world.folder.file("admin-other.sqlite"), extra: ["TRIP_REMOTE": world.cluster.url("tripadmin", database: other)])
        let r = try admin.run("remote", "init")
        try #require(r.exitCode == 0, "\(r.stderr)")
        return other
    }

    static func trips(_ world: SharedTripWorld, _ database: String) throws -> Int {
        let out = try world.cluster.psql("tripadmin", database: database, "SELECT count(*) FROM trip_ledger.trips")
        return Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Ana's device with the server string of `database` instead of her own.
    static func pointed(_ trip: TripProcess, _ world: SharedTripWorld, at database: String, role: String = "ana") -> TripProcess {
        var moved = trip
        moved.environment["TRIP_REMOTE"] = world.cluster.url(role, database: database)
        return moved
    }

    @Test func aSyncToAnotherServerIsRefusedNamingBothAndMovesOnlyOnPurpose() throws {
        let world = try SharedTripWorld()
        let (ana, ben) = try world.anaSharesWithBen("Namur", purchases: [("12", "waffles"), ("30", "dinner")])
        let other = try Self.otherServer(world)
        let typo = Self.pointed(ana, world, at: other)
        try #require(ana.run("add", "4", "coffee").exitCode == 0)

        let sync = try typo.run("sync")
        #expect(sync.exitCode == 77, "exit \(sync.exitCode): \(sync.stdout) \(sync.stderr)")
        #expect(!sync.stdout.contains("pushed"), "\(sync.stdout)")
        let lines = sync.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(sync.stderr)")
        #expect(sync.stderr.contains("/\(world.database)") && sync.stderr.contains("/\(other)"), "names both: \(sync.stderr)")
        #expect(sync.stderr.contains("trip remote move"), "\(sync.stderr)")
        #expect(try Self.trips(world, other) == 0, "nothing created on the other server")

        let status = try typo.run("remote", "status")
        #expect(!status.stdout.contains("up to date"), "\(status.stdout)")
        #expect(status.stdout.contains("not on this server") && status.stdout.contains("nothing will be sent"), "\(status.stdout)")

        // The server really moved: on purpose, the whole trip goes there.
        let move = try typo.run("remote", "move")
        #expect(move.exitCode == 0, "\(move.stderr)")
        #expect(move.stdout.contains("moved here from ana@127.0.0.1:\(world.cluster.port)/\(world.database)"), "\(move.stdout)")
        #expect(try Self.trips(world, other) == 1)
        #expect(try typo.run("sync").exitCode == 0)
        #expect(try typo.run("share", "--with", "ben").exitCode == 0)
        let ben2 = world.device("ben", ledger: "ben-moved")
        let joined = try Self.pointed(ben2, world, at: other, role: "ben").run("join", "Namur")
        #expect(joined.exitCode == 0, "\(joined.stderr)")
        #expect(try notes(Self.pointed(ben2, world, at: other, role: "ben")) == ["coffee", "dinner", "waffles"])
        // Now the old server is the other one.
        let back = try ana.run("sync")
        #expect(back.exitCode == 77, "\(back.stdout) \(back.stderr)")
        // Ben's device still syncs with the server it joined from, and is refused by the new one
        // until it moves too: the new server has the trip's log, which it reads from the start.
        #expect(try ben.run("sync").exitCode == 0)
        #expect(try ben.run("add", "5", "beer").exitCode == 0)
        let benThere = Self.pointed(ben, world, at: other, role: "ben")
        #expect(try benThere.run("sync").exitCode == 77)
        let benMoves = try benThere.run("remote", "move")
        #expect(benMoves.exitCode == 0, "\(benMoves.stderr)")
        #expect(try typo.run("sync").exitCode == 0)
        #expect(try notes(typo) == ["beer", "coffee", "dinner", "waffles"])
        #expect(try snapshot(benThere) == snapshot(typo))
    }

    /// A trip shared before servers had identities remembers none: a sync to a server that lacks
    /// its log is refused all the same, and the next sync to its own server makes it remember.
    @Test func aTripSharedBeforeIdentitiesAdoptsItsServersAtTheNextSync() throws {
        let world = try SharedTripWorld()
        let (ana, _) = try world.anaSharesWithBen("Ghent", purchases: [("20", "fries")])
        try LedgerInspection.execute(ana.ledgerPath, "UPDATE shared_trips SET server_id = NULL, server_name = NULL")
        let other = try Self.otherServer(world)
        let typo = try Self.pointed(ana, world, at: other).run("sync")
        #expect(typo.exitCode == 77, "\(typo.stdout) \(typo.stderr)")
        #expect(typo.stderr.contains("/\(other) has no log of it"), "\(typo.stderr)")
        #expect(try Self.trips(world, other) == 0)
        #expect(try ana.run("sync").exitCode == 0)
        #expect(try LedgerInspection.count(ana.ledgerPath, "SELECT count(*) FROM shared_trips WHERE server_id IS NOT NULL") == 1)
        // A server set up before identities gets one at its next `trip remote init`.
        try world.cluster.psql("tripadmin", database: other, "DELETE FROM trip_ledger.meta WHERE key = 'server_id'")
        let admin = TripProcess(
            ledgerPath: world.folder.file("admin-again.sqlite"), extra: ["TRIP_REMOTE": world.cluster.url("tripadmin", database: other)])
        #expect(try admin.run("remote", "init").exitCode == 0)
        let id = try world.cluster.psql("tripadmin", database: other, "SELECT count(*) FROM trip_ledger.meta WHERE key = 'server_id'")
        #expect(id.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    /// Before: "Namur (owner ana): 2 unsent, up to date" for a trip Ben can no longer reach.
    @Test func statusOfARevokedTripSaysSoAndThatNothingWillBeSent() throws {
        let world = try SharedTripWorld()
        let (ana, ben) = try world.anaSharesWithBen("Namur", purchases: [("12", "waffles")])
        #expect(try ben.run("add", "5", "beer").exitCode == 0)
        #expect(try ben.run("add", "6", "fries").exitCode == 0)
        try #require(ana.run("unshare", "--with", "ben").exitCode == 0)
        let status = try ben.run("remote", "status")
        #expect(status.exitCode == 0, "\(status.stderr)")
        #expect(!status.stdout.contains("up to date"), "\(status.stdout)")
        #expect(status.stdout.contains("revoked") && status.stdout.contains("nothing will be sent"), "\(status.stdout)")
        let json = try ben.run("remote", "status", "--format", "json")
        let trip = (json.json["trips"] as? [[String: Any]])?.first
        #expect(trip?["revoked"] as? Bool == true, "\(json.stdout)")
        // A trip shared before identities is told apart the same way: its row is on the server.
        try LedgerInspection.execute(ben.ledgerPath, "UPDATE shared_trips SET server_id = NULL, server_name = NULL")
        let legacy = try ben.run("remote", "status")
        #expect(legacy.stdout.contains("revoked") && !legacy.stdout.contains("another server"), "\(legacy.stdout)")
    }

    /// A join killed part way: before, the partial trip showed with no word that it was partial,
    /// and after the join was run again, `whoami` was unset without a line saying so.
    @Test func aJoinCutShortSaysTheTripIsPartialAndTheRetrySaysWhoYouAre() throws {
        let world = try SharedTripWorld()
        let (_, ben) = try #require(try SyncRecoveryTests.halfJoined(world), "a kill landed between the trip's creation and the end of the join")
        for args in [["list", "--trip", "Big"], ["report", "Big"], ["trips"]] {
            let r = try ben.run(args)
            #expect(r.exitCode == 0, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("only partly here") && r.stderr.contains("trip join"), "\(args): \(r.stderr)")
        }
        let again = try ben.run("join", "Big")
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(again.stdout.contains("You are ben on this device"), "\(again.stdout)")
        #expect(try ben.run("whoami").stdout.contains("ben"))
        let list = try ben.run("list", "--trip", "Big")
        #expect(!list.stderr.contains("partly"), "\(list.stderr)")
    }
}
