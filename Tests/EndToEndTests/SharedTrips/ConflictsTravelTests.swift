import Foundation
import TestSupport
import Testing

/// A conflict is the same on every device that saw both versions, and a resolution is a change
/// like any other. Before, after Ana resolved a conflict and every device synced, Ben and Carla
/// still listed it as open, Ben's said `kept: mine` while his ledger held Ana's version, Carla's
/// "mine" was someone else's version, a device that joined later inherited the old conflicts, and
/// the versions were shown as column names in minor units (`price_minor`, `home_minor mine: 7038`).
@Suite("Shared trips: conflicts travel")
struct ConflictsTravelTests {
    static func conflicts(_ trip: TripProcess, all: Bool = false) throws -> [[String: Any]] {
        let r = try trip.run(["conflicts", "--format", "json"] + (all ? ["--all"] : []))
        try #require(r.exitCode == 0, "trip conflicts: \(r.stderr)")
        return try #require(r.json["conflicts"] as? [[String: Any]], "no conflicts array: \(r.stdout)")
    }

    /// What every device must show alike of a conflict: its global id, reason, whether resolved,
    /// and each version's number, author, device, whether kept, and summary.
    static func shared(_ c: [String: Any]) -> String {
        let versions = (c["versions"] as? [[String: Any]] ?? []).map { v in
            "\(v["number"]!) \(v["by"]!) \(v["device"]!) kept=\(v["kept"]!) \(v["summary"] ?? "removed")"
        }
        return "\(c["gid"]!) \(c["reason"]!) resolved=\(!(c["resolved_at"] is NSNull)) \(versions)"
    }

    /// What every device must show alike of a conflict whatever happened: the version that lost
    /// (its global id names it), why, and whether it is resolved. With three or more clashing
    /// versions, the one each device shows beside it is the one that device held.
    static func identity(_ c: [String: Any]) -> String {
        "\(c["gid"]!) \(c["reason"]!) resolved=\(!(c["resolved_at"] is NSNull))"
    }

    static func world() throws -> (SharedTripWorld, TripProcess, TripProcess, TripProcess) {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        try #require(ana.run("new", "Namur", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben", "Carla").exitCode == 0)
        try #require(ana.run("add", "70.38", "dinner", "--paid-by", "Ana", "--split", "all").exitCode == 0)
        try #require(ana.run("share", "--with", "ben", "--with", "carla").exitCode == 0)
        for d in [ben, carla] { try #require(d.run("join", "Namur").exitCode == 0) }
        // Offline, Ana and Ben correct the same purchase differently; Ben's is the later.
        #expect(try ana.run("edit", "1", "--amount", "72.10").exitCode == 0)
        #expect(try ben.run("edit", "1", "--amount", "75", "--paid-by", "Ben").exitCode == 0)
        try ReferenceClashTests.syncAll([ana, ben, carla])
        return (world, ana, ben, carla)
    }

    @Test func everyDeviceListsTheSameConflictLabelledByWhoWroteEachVersion() throws {
        let (world, ana, ben, carla) = try Self.world()
        defer { withExtendedLifetime(world) {} }
        let lists = try [ana, ben, carla].map { try Self.conflicts($0) }
        for list in lists { try #require(list.count == 1, "\(lists)") }
        #expect(Set(lists.map { Self.shared($0[0]) }).count == 1, "\(lists.map { Self.shared($0[0]) })")
        let versions = try #require(lists[0][0]["versions"] as? [[String: Any]])
        #expect(versions.map { $0["by"] as? String } == ["ana", "ben"], "\(versions)")
        #expect(versions.map { $0["kept"] as? Bool } == [false, true], "the later edit wins")
        // On Carla's device, neither version is hers.
        let carlas = try #require(lists[2][0]["versions"] as? [[String: Any]])
        #expect(carlas.allSatisfy { $0["this_device"] as? Bool == false })
        // Text: versions as purchases, by who wrote them; no column names, no minor units.
        let text = try carla.run("conflicts").stdout
        #expect(text.contains("by ana on device") && text.contains("by ben on device"), "\(text)")
        #expect(text.contains("EUR 72.10") && text.contains("EUR 75.00") && text.contains("paid by Ben"), "\(text)")
        for word in ["_minor", "mine", "theirs", "7210", "expression"] { #expect(!text.contains(word), "\(word) in \(text)") }
        let anas = try ana.run("conflicts").stdout
        #expect(anas.contains("by this device (ana)"), "\(anas)")
    }

    @Test func aResolutionClosesTheConflictOnEveryDeviceWithTheKeptVersion() throws {
        let (world, ana, ben, carla) = try Self.world()
        defer { withExtendedLifetime(world) {} }
        // Ana keeps her own version, which lost: it is written again and wins everywhere.
        let id = try #require(Self.conflicts(ana).first?["id"] as? Int)
        let r = try ana.run("resolve", "\(id)", "--keep", "1")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("kept version 1, by this device (ana)"), "\(r.stdout)")
        try ReferenceClashTests.syncAll([ana, ben, carla])
        for d in [ana, ben, carla] {
            #expect(try Self.conflicts(d).isEmpty, "still open on a device")
            let all = try Self.conflicts(d, all: true)
            #expect(all.count == 1)
            let versions = all.first?["versions"] as? [[String: Any]] ?? []
            #expect(versions.map { $0["kept"] as? Bool } == [true, false], "\(versions)")
            let list = try d.run("list", "--format", "json").json["purchases"] as? [[String: Any]] ?? []
            #expect(list.map { $0["total"] as? String } == ["72.10"], "\(list)")
        }
        #expect(Set(try [ana, ben, carla].map { Self.shared(try Self.conflicts($0, all: true)[0]) }).count == 1)
        // Ben's device says who resolved it.
        let bens = try ben.run("conflicts", "--all").stdout
        #expect(bens.contains("by ana") && bens.contains("shows version 1"), "\(bens)")
    }

    @Test func keepingTheVersionShownChangesNothingButStillTravels() throws {
        let (world, ana, ben, carla) = try Self.world()
        defer { withExtendedLifetime(world) {} }
        let id = try #require(Self.conflicts(carla).first?["id"] as? Int)
        // Carla wrote neither version: "mine" names none of hers and is refused; the author is taken.
        let mine = try carla.run("resolve", "\(id)", "--keep", "mine")
        #expect(mine.exitCode == 65, "\(mine.stderr)")
        #expect(mine.stderr.contains("this device wrote neither") && mine.stderr.contains("ana, ben"), "\(mine.stderr)")
        let r = try carla.run("resolve", "\(id)", "--keep", "ben")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("kept version 2, by ben on device") && r.stdout.contains("which every device shows already"), "\(r.stdout)")
        try ReferenceClashTests.syncAll([carla, ana, ben])
        for d in [ana, ben, carla] { #expect(try Self.conflicts(d).isEmpty) }
    }

    @Test func aDeviceThatJoinsLaterSeesOnlyOpenConflicts() throws {
        let (world, ana, ben, carla) = try Self.world()
        defer { withExtendedLifetime(world) {} }
        // A second conflict stays open.
        try #require(ana.run("add", "12", "beer", "--paid-by", "Ana", "--split", "all").exitCode == 0)
        try ReferenceClashTests.syncAll([ana, ben])
        #expect(try ana.run("edit", "2", "--note", "beers").exitCode == 0)
        #expect(try ben.run("edit", "2", "--note", "beer!").exitCode == 0)
        let first = try #require(Self.conflicts(ana).first?["id"] as? Int)
        #expect(try ana.run("resolve", "\(first)", "--keep", "2").exitCode == 0)
        try ReferenceClashTests.syncAll([ana, ben, carla])
        let open = try Self.conflicts(ana)
        #expect(open.count == 1, "\(open)")
        try #require(ana.run("share", "--with", "dave").exitCode == 0)
        let dave = world.device("dave")
        let join = try dave.run("join", "Namur")
        #expect(join.exitCode == 0, "\(join.stderr)")
        let daves = try Self.conflicts(dave)
        #expect(daves.map(Self.shared) == open.map(Self.shared), "dave: \(daves.map(Self.shared)) ana: \(open.map(Self.shared))")
        // Resolving it on the late joiner closes it everywhere too.
        if let id = daves.first?["id"] as? Int {
            let r = try dave.run("resolve", "\(id)", "--keep", "2")
            #expect(r.exitCode == 0, "\(r.stderr)")
        }
        try ReferenceClashTests.syncAll([dave, ana, ben, carla])
        for d in [ana, ben, carla, dave] { #expect(try Self.conflicts(d).isEmpty) }
        #expect(try snapshot(dave) == snapshot(ana))
    }

    /// Whether a purchase kept by a refund is listed as a conflict, and whether that conflict ended,
    /// follows from the log alone. Before, it was decided from what a device held at the end of a
    /// sync: Ben and Carla, who synced while the removal waited, listed it (and closed it when the
    /// refund went), and Ana, who pulled the removal, the refund and the refund's removal at once,
    /// never did (convergence seeds 67, 72, 87…).
    @Test func aRemovalKeptByARefundIsListedAlikeByADeviceThatPulledItsEndAtOnce() throws {
        let (world, ana, ben, carla) = try ConflictResolutionTests.removedWhileRefundedUnseenBy()
        defer { withExtendedLifetime(world) {} }
        #expect(try Self.conflicts(carla).count == 1, "listed while the removal waits")
        // Carla takes her refund back: the removal applies after all.
        #expect(try carla.run("rm", "2").exitCode == 0)
        try ReferenceClashTests.syncAll([carla, ben])
        // Ana pulls the removal, the refund and its removal in one sync.
        try ReferenceClashTests.syncAll([ana, ben, carla])
        let lists = try [ana, ben, carla].map { try Self.conflicts($0, all: true).map(Self.identity) }
        #expect(lists[1].count == 1 && lists[1].first?.contains("resolved=true") == true, "\(lists[1])")
        #expect(lists[0] == lists[1] && lists[2] == lists[1], "ana: \(lists[0]) ben: \(lists[1]) carla: \(lists[2])")
        for d in [ana, ben, carla] { #expect(try notes(d).isEmpty, "the purchase went with its refund") }
    }
}
