import Foundation
import TestSupport
import Testing

/// A transfer's edit and removal travel like a purchase's: after the next syncs every device lists
/// the same transfers, whatever order the devices synced in.
@Suite("Shared trips: transfers are changed and removed on every device")
struct SharedTransferTests {
    static func transfers(_ trip: TripProcess) throws -> [String] {
        let r = try trip.run("transfers", "--format", "json")
        try #require(r.exitCode == 0, "trip transfers: \(r.stderr)")
        let list = try #require(r.json["transfers"] as? [[String: Any]], "no transfers array: \(r.stdout)")
        return list.map { "\($0["from"]!)>\($0["to"]!) \($0["amount"]!) \($0["note"]!)" }
    }

    @Test(arguments: [false, true])
    func editsAndRemovalsOfTransfersTravel(benFirst: Bool) throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        try #require(ana.run("new", "Ghent", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben", "Carla").exitCode == 0)
        try #require(ana.run("add", "90", "dinner", "--paid-by", "Ana", "--split", "all").exitCode == 0)
        try #require(ana.run("transfer", "Ben", "Ana", "30", "--note", "ben's").exitCode == 0)
        try #require(ana.run("transfer", "Carla", "Ana", "30", "--note", "carla's").exitCode == 0)
        try #require(ana.run("transfer", "Carla", "Ben", "5", "--note", "mistake").exitCode == 0)
        try #require(ana.run("share", "--with", "ben", "--with", "carla").exitCode == 0)
        for d in [ben, carla] { try #require(d.run("join", "Ghent").exitCode == 0) }
        // Offline: Ben corrects his transfer and removes the mistaken one; Ana edits Carla's note.
        let benIDs = try ben.run("transfers").stdout
        #expect(benIDs.contains("T1") && benIDs.contains("T3"), "\(benIDs)")
        let edit = try ben.run("transfer", "edit", "T1", "--amount", "25")
        #expect(edit.exitCode == 0, "\(edit.stderr)")
        let rm = try ben.run("rm", "T3")
        #expect(rm.exitCode == 0, "\(rm.stderr)")
        #expect(try ana.run("transfer", "edit", "T2", "--note", "carla paid").exitCode == 0)
        try ReferenceClashTests.syncAll(benFirst ? [ben, ana, carla] : [ana, ben, carla])
        let expected = ["Ben>Ana 25.00 ben's", "Carla>Ana 30.00 carla paid"]
        for d in [ana, ben, carla] { #expect(try Self.transfers(d) == expected) }
        #expect(try snapshot(ben) == snapshot(ana))
        #expect(try snapshot(carla) == snapshot(ana))
    }

    /// Ana edits a transfer that Ben, offline, removed: every device applies the same winner (the
    /// later change), and lists the clash where the losing change was made.
    @Test func anEditAndARemovalOfOneTransferEndTheSameEverywhere() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        try #require(ana.run("new", "Liege", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben").exitCode == 0)
        try #require(ana.run("transfer", "Ben", "Ana", "30").exitCode == 0)
        try #require(ana.run("share", "--with", "ben", "--with", "carla").exitCode == 0)
        for d in [ben, carla] { try #require(d.run("join", "Liege").exitCode == 0) }
        #expect(try ben.run("transfer", "rm", "T1").exitCode == 0)
        #expect(try ana.run("transfer", "edit", "T1", "--amount", "31").exitCode == 0)
        try ReferenceClashTests.syncAll([ben, ana, carla])
        let expected = try Self.transfers(ana)
        #expect(try Self.transfers(ben) == expected)
        #expect(try Self.transfers(carla) == expected)
    }
}
