import Foundation
import TestSupport
import Testing

/// `trip conflicts` and `trip resolve` say what is true. Before: Ben removed a purchase Carla
/// refunded; the removal was undone on Ben's device, but his `trip conflicts` said "No conflicts",
/// Carla's listed it with both versions "by ben", and `trip resolve 1 --keep 1` (keep the removal)
/// answered that it was kept and written again, pushed nothing, and the purchase stayed everywhere.
/// A held add's conflict offered "version 1, by ana: (not on the other devices)" though Ana wrote
/// no such version, and took `--keep ana` for it.
@Suite("Shared trips: resolving conflicts does what it says")
struct ConflictResolutionTests {
    static func removedWhileRefunded() throws -> (SharedTripWorld, TripProcess, TripProcess, TripProcess) {
        let (world, ana, ben, carla) = try removedWhileRefundedUnseenBy()
        try ReferenceClashTests.syncAll([ana])
        return (world, ana, ben, carla)
    }

    /// Ben removes the dinner and Carla refunds part of it, both offline; Ben and Carla sync, Ana
    /// (who shared the trip) not yet.
    static func removedWhileRefundedUnseenBy() throws -> (SharedTripWorld, TripProcess, TripProcess, TripProcess) {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        try #require(ana.run("new", "Namur", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben", "Carla").exitCode == 0)
        try #require(ana.run("add", "70.38", "dinner", "--paid-by", "Ana", "--split", "all").exitCode == 0)
        try #require(ana.run("share", "--with", "ben", "--with", "carla").exitCode == 0)
        for d in [ben, carla] { try #require(d.run("join", "Namur").exitCode == 0) }
        // Offline: Ben removes the dinner, Carla refunds part of it.
        #expect(try ben.run("rm", "1").exitCode == 0)
        #expect(try carla.run("refund", "1", "20").exitCode == 0)
        try ReferenceClashTests.syncAll([ben, carla])
        return (world, ana, ben, carla)
    }

    @Test func everyDeviceListsTheRemovalUndoneByARefundLabelledByWhoWroteEachVersion() throws {
        let (world, ana, ben, carla) = try Self.removedWhileRefunded()
        defer { withExtendedLifetime(world) {} }
        let lists = try [ana, ben, carla].map { try ConflictsTravelTests.conflicts($0) }
        for list in lists { try #require(list.count == 1, "\(lists)") }
        #expect(Set(lists.map { ConflictsTravelTests.shared($0[0]) }).count == 1, "\(lists.map { ConflictsTravelTests.shared($0[0]) })")
        let versions = try #require(lists[0][0]["versions"] as? [[String: Any]])
        let removal = try #require(versions.first { $0["removed"] as? Bool == true })
        let refund = try #require(versions.first { $0["removed"] as? Bool == false })
        #expect(removal["by"] as? String == "ben" && refund["by"] as? String == "carla", "\(versions)")
        #expect(refund["kept"] as? Bool == true, "the purchase stays while the refund names it")
        // Ben's own device says his removal was undone, and how to settle it.
        let text = try ben.run("conflicts").stdout
        #expect(text.contains("by this device (ben)") && text.contains("by carla on device"), "\(text)")
        let last = text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.contains("settle: `trip resolve") && text.contains("--remove-refunds"), "\(text)")
    }

    @Test func keepingTheRemovalNeedsTheRefundRemovedAndThenRemovesBothEverywhere() throws {
        let (world, ana, ben, carla) = try Self.removedWhileRefunded()
        defer { withExtendedLifetime(world) {} }
        let c = try #require(ConflictsTravelTests.conflicts(carla).first)
        let id = try #require(c["id"] as? Int)
        let versions = try #require(c["versions"] as? [[String: Any]])
        let removal = try #require(versions.first { $0["removed"] as? Bool == true }?["number"] as? Int)
        // Not kept alone: the refund names the purchase. Said, with the command that does it.
        let alone = try carla.run("resolve", "\(id)", "--keep", "\(removal)")
        #expect(alone.exitCode == 65, "exit \(alone.exitCode): \(alone.stdout) \(alone.stderr)")
        #expect(alone.stderr.contains("refund #2") && alone.stderr.contains("--remove-refunds"), "\(alone.stderr)")
        #expect(try notes(carla).count == 2, "nothing changed")
        let r = try carla.run("resolve", "\(id)", "--keep", "\(removal)", "--remove-refunds")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("removed #1, #2 here"), "\(r.stdout)")
        try ReferenceClashTests.syncAll([carla, ana, ben])
        for d in [ana, ben, carla] {
            #expect(try notes(d).isEmpty, "the purchase and its refund are gone everywhere")
            #expect(try ConflictsTravelTests.conflicts(d).isEmpty, "settled everywhere")
        }
        #expect(try snapshot(ana) == snapshot(ben))
        #expect(try snapshot(carla) == snapshot(ben))
    }

    @Test func keepingTheRefundChangesNothingAndSaysSo() throws {
        let (world, ana, ben, carla) = try Self.removedWhileRefunded()
        defer { withExtendedLifetime(world) {} }
        let c = try #require(ConflictsTravelTests.conflicts(ben).first)
        let id = try #require(c["id"] as? Int)
        let r = try ben.run("resolve", "\(id)", "--keep", "carla")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("which every device shows already"), "\(r.stdout)")
        try ReferenceClashTests.syncAll([ben, ana, carla])
        for d in [ana, ben, carla] {
            #expect(try ConflictsTravelTests.conflicts(d).isEmpty)
            #expect(try notes(d) == ["dinner", "dinner"], "the purchase and its refund")
        }
    }

    /// A member's removal that a purchase here still names cannot be kept: not offered, and
    /// refused, where before `--keep` answered that it was written again and changed nothing.
    @Test func aMembersRemovalThatRowsStillNameIsNotOffered() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben")
        try #require(ana.run("new", "Ghent", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben", "Dave").exitCode == 0)
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        try #require(ben.run("join", "Ghent").exitCode == 0)
        #expect(try ana.run("member", "rm", "Dave").exitCode == 0)
        #expect(try ben.run("add", "30", "dinner", "--paid-by", "Ben", "--split", "Ana,Ben,Dave").exitCode == 0)
        try ReferenceClashTests.syncAll([ana, ben])
        let c = try #require(ConflictsTravelTests.conflicts(ben).first)
        let id = try #require(c["id"] as? Int)
        let versions = try #require(c["versions"] as? [[String: Any]])
        let removal = try #require(versions.first { $0["removed"] as? Bool == true }?["number"] as? Int)
        let settle = c["settle"] as? [[String: Any]] ?? []
        #expect(settle.map { $0["keep"] as? Int } == [3 - removal], "only the version shown: \(settle)")
        let r = try ben.run("resolve", "\(id)", "--keep", "\(removal)")
        #expect(r.exitCode == 65, "exit \(r.exitCode): \(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("cannot be kept"), "\(r.stderr)")
        #expect(try ben.run("members").stdout.contains("Dave"))
    }

    /// A change held because the trip was closed elsewhere: the other devices have no such row,
    /// which nobody wrote; the role that closed the trip is not its author.
    @Test func aHeldAddsOtherVersionIsNobodysAndOnlyRealChoicesAreOffered() throws {
        let world = try SharedTripWorld()
        let (ana, ben) = try world.anaSharesWithBen("Lisbon", members: ["ana", "ben"], purchases: [("40", "dinner")])
        #expect(try ben.run("add", "9", "gelato", "--paid-by", "ben").exitCode == 0)
        #expect(try ana.run("close").exitCode == 0)
        #expect(try ana.run("sync").exitCode == 0)
        #expect(try ben.run("sync").exitCode == 0)
        let text = try ben.run("conflicts").stdout
        #expect(!text.contains("by ana"), "\(text)")
        #expect(text.contains("on the other devices: (not there)"), "\(text)")
        let c = try #require(ConflictsTravelTests.conflicts(ben).first)
        let versions = try #require(c["versions"] as? [[String: Any]])
        #expect(versions.map { $0["by"] as? String } == ["", "ben"], "\(versions)")
        let id = try #require(c["id"] as? Int)
        // Ana wrote neither version: her name picks none, and the refusal offers only what works.
        let byAna = try ben.run("resolve", "\(id)", "--keep", "ana")
        #expect(byAna.exitCode == 65, "\(byAna.stdout) \(byAna.stderr)")
        #expect(byAna.stderr.contains("mine, theirs") && !byAna.stderr.contains("(ana"), "\(byAna.stderr)")
        let theirs = try ben.run("resolve", "\(id)", "--keep", "theirs")
        #expect(theirs.exitCode == 0, "\(theirs.stderr)")
        #expect(theirs.stdout.contains("kept version 1, as on the other devices, which every device shows already"), "\(theirs.stdout)")
        #expect(try notes(ben) == ["dinner"])
    }
}
