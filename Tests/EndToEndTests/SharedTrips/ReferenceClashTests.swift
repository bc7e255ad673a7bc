import Foundation
import TestSupport
import Testing

/// A row removed on one device while another device, not having pulled yet, wrote a row that
/// refers to it. The rule, the same on every device whatever order the changes arrive in: a row
/// that someone's money still names is never removed. The removal loses; where it was already
/// applied, the row comes back as it was. No sync fails, and every device ends the same.
@Suite("Shared trips: a removal never breaks a row that refers to it")
struct ReferenceClashTests {
    /// Syncs each device in `order`, twice over, requiring every sync to succeed.
    static func syncAll(_ devices: [TripProcess]) throws {
        for _ in 0..<2 {
            for d in devices {
                let s = try d.run("sync")
                #expect(s.exitCode == 0, "\(s.stderr)")
            }
        }
    }

    /// Ana removes a purchase and syncs; Ben, who has not pulled, refunds it and syncs. Before,
    /// every later sync of Carla and Ana failed on a foreign key, for good, and `trip join` too.
    @Test(arguments: [false, true])
    func aRefundOfAPurchaseRemovedElsewhereKeepsThePurchase(benFirst: Bool) throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        try #require(ana.run("new", "Bruges", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("add", "30", "waffles").exitCode == 0)
        try #require(ana.run("add", "12", "beer").exitCode == 0)
        try #require(ana.run("share", "--with", "ben", "--with", "carla").exitCode == 0)
        for d in [ben, carla] { try #require(d.run("join", "Bruges").exitCode == 0) }
        #expect(try ana.run("rm", "1").exitCode == 0)
        let refund = try ben.run("refund", "1", "10")
        #expect(refund.exitCode == 0, "\(refund.stderr)")
        let order = benFirst ? [ben, ana, carla] : [ana, ben, carla]
        try Self.syncAll(order)
        let expected = try snapshot(ana)
        #expect(try snapshot(ben) == expected)
        #expect(try snapshot(carla) == expected)
        let all = try notes(ana)
        #expect(all.count == 3, "the purchase, its refund and the other one: \(all)")
        #expect(try ana.run("report").stdout.contains("32.00"), "30 + 12 - 10")
        // A device that joins afterwards ends the same.
        let dave = world.device("dave")
        try #require(ana.run("share", "--with", "dave").exitCode == 0)
        let join = try dave.run("join", "Bruges")
        #expect(join.exitCode == 0, "\(join.stderr)")
        #expect(try snapshot(dave) == expected)
    }

    /// Ana and Ben each record the settle-up offline, from the same balances. Before, every
    /// transfer was there twice and the balances overshot the other way, silently.
    @Test func twoSettleUpsOfTheSameBalancesAreOne() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        try #require(ana.run("new", "Porto", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben", "Carla").exitCode == 0)
        try #require(ana.run("add", "90", "dinner", "--paid-by", "Ana", "--split", "all").exitCode == 0)
        try #require(ana.run("add", "30", "tram", "--paid-by", "Ben", "--split", "all").exitCode == 0)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        try #require(ben.run("join", "Porto").exitCode == 0)
        for d in [ana, ben] {
            let settle = try d.run("settle", "--record")
            #expect(settle.exitCode == 0, "\(settle.stderr)")
        }
        try Self.syncAll([ana, ben])
        for d in [ana, ben] {
            let members = try d.run("balances", "--format", "json").json["members"] as? [[String: Any]] ?? []
            #expect(members.count == 3 && members.allSatisfy { $0["balance"] as? String == "0.00" }, "settled once: \(members)")
        }
        #expect(try snapshot(ana) == snapshot(ben))
    }

    /// Ana removes Dave while Ben, offline, splits a purchase with Dave and records a transfer
    /// from Dave. Before, Ana's syncs failed for good (on `transfers`), and on Ben's device the
    /// transfer went with Dave and his share was divided among the others.
    @Test(arguments: [false, true])
    func aMemberRemovedElsewhereStaysWhileARowNamesThem(benFirst: Bool) throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        try #require(ana.run("new", "Ghent", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben", "Dave").exitCode == 0)
        try #require(ana.run("add", "20", "fries", "--paid-by", "Ana", "--split", "Ana,Ben").exitCode == 0)
        try #require(ana.run("share", "--with", "ben", "--with", "carla").exitCode == 0)
        for d in [ben, carla] { try #require(d.run("join", "Ghent").exitCode == 0) }
        let rm = try ana.run("member", "rm", "Dave")
        #expect(rm.exitCode == 0, "\(rm.stderr)")
        #expect(try ben.run("add", "30", "dinner", "--paid-by", "Ben", "--split", "Ana,Ben,Dave").exitCode == 0)
        #expect(try ben.run("transfer", "Dave", "Ben", "5").exitCode == 0)
        let order = benFirst ? [ben, ana, carla] : [ana, ben, carla]
        try Self.syncAll(order)
        let expected = try snapshot(ana)
        #expect(expected.first == "Ana,Ben,Dave", "Dave is back where he was removed: \(expected.first ?? "")")
        #expect(try snapshot(ben) == expected)
        #expect(try snapshot(carla) == expected)
        let balances = try ben.run("balances", "--format", "json").stdout
        #expect(balances.contains("Dave"), "\(balances)")
    }
}
