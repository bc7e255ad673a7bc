import Foundation
import TestSupport
import Testing

/// A restore from another device meets an edit made here that it never saw (seed 3 of the
/// convergence test, replayed with three devices).
@Suite("Shared trips: a restore brings back the latest version, on the device that edited too")
struct RestoreRaceTests {
    /// Ana removes the lunch; Ben, who saw it, restores it. Carla, offline since she joined, edits
    /// it after that: her edit is the later version. In the seed's shape she also removed and
    /// restored it, her three writes travelling as one change. Before, whoever's version reached
    /// a device last won there:
    /// - Ben syncs first: Carla's sync pulls Ana's removal and Ben's restore in one go, and the
    ///   restore wrote Ben's older version over hers, on her device only (Carla showed "lunch",
    ///   everyone else "lunch carla").
    /// - Carla syncs first: her edit went to the trash with Ana's removal on every device, and
    ///   Ben's restore brought back his own version there, while Ben, who pulled her edit after
    ///   his restore, showed hers.
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func anEditLaterThanARestoreItNeverSawWinsEverywhere(removedAndRestoredToo: Bool, carlaSyncsFirst: Bool) throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        try #require(ana.run("new", "Nice", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben", "Carla").exitCode == 0)
        try #require(ana.run("add", "40", "lunch", "--paid-by", "Ana").exitCode == 0)
        try #require(ana.run("share", "--with", "ben", "--with", "carla").exitCode == 0)
        for d in [ben, carla] { try #require(d.run("join", "Nice").exitCode == 0) }
        #expect(try ana.run("rm", "1").exitCode == 0)
        #expect(try ana.run("sync").exitCode == 0)
        #expect(try ben.run("sync").exitCode == 0)
        #expect(try ben.run("restore", "1").exitCode == 0)
        if !carlaSyncsFirst { #expect(try ben.run("sync").exitCode == 0) }
        let edit = try carla.run("edit", "1", "--note", "lunch carla")
        #expect(edit.exitCode == 0, "\(edit.stderr)")
        if removedAndRestoredToo {
            #expect(try carla.run("rm", "1").exitCode == 0)
            #expect(try carla.run("restore", "1").exitCode == 0)
        }
        try SyncWedgeTests.syncAll(carlaSyncsFirst ? [carla, ben, ana] : [carla, ana, ben])
        #expect(try notes(ana) == ["lunch carla"])
        #expect(try notes(ben) == ["lunch carla"])
        #expect(try notes(carla) == ["lunch carla"])
        let expected = try snapshot(ana)
        #expect(try snapshot(ben) == expected)
        #expect(try snapshot(carla) == expected)
    }

    /// Ana removes the lunch without seeing Ben's refund of it, so it stays while the refund names
    /// it, and Ana and Ben list that. Ben then edits it, which travels as a restore: the removal
    /// is no longer waiting. Carla, offline until then, pulls all three in one go. Before, Ana and
    /// Ben kept listing the conflict of a removal the restore had superseded, Carla never did.
    @Test func aRemovalARestoreSupersededIsListedNowhere() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        try #require(ana.run("new", "Nice", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben", "Carla").exitCode == 0)
        try #require(ana.run("add", "40", "lunch", "--paid-by", "Ana").exitCode == 0)
        try #require(ana.run("share", "--with", "ben", "--with", "carla").exitCode == 0)
        for d in [ben, carla] { try #require(d.run("join", "Nice").exitCode == 0) }
        #expect(try ben.run("refund", "1", "10").exitCode == 0)
        #expect(try ben.run("sync").exitCode == 0)
        #expect(try ana.run("rm", "1").exitCode == 0)
        #expect(try ana.run("sync").exitCode == 0)
        #expect(try ben.run("sync").exitCode == 0)
        let edit = try ben.run("edit", "1", "--note", "lunch ben")
        #expect(edit.exitCode == 0, "\(edit.stderr)")
        try SyncWedgeTests.syncAll([ben, carla, ana])
        let lists = try [ana, ben, carla].map { try ConflictsTravelTests.conflicts($0, all: true).map(ConflictsTravelTests.identity) }
        #expect(lists[0] == lists[2], "ana \(lists[0]), carla \(lists[2])")
        #expect(lists[1] == lists[2], "ben \(lists[1]), carla \(lists[2])")
    }
}
