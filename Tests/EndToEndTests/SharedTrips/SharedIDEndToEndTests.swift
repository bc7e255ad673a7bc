import Foundation
import TestSupport
import Testing

/// Ids friends can say to each other (issue 34, item 10). Before, the same purchase was #1 on
/// Ana's device and #3 on Ben's, a conflict was numbered by each device on its own, and nothing a
/// device showed named a row the same way on the next.
@Suite("Shared trips: shared ids are the same on every device")
struct SharedIDEndToEndTests {
    /// Each purchase's note with its shared id, and the notes by local id, on `trip`.
    static func purchases(_ trip: TripProcess) throws -> (shared: [String: String], local: [String: Int]) {
        let r = try trip.run("list", "--trip", "Ghent", "--format", "json")
        try #require(r.exitCode == 0, "trip list: \(r.stderr)")
        let list = try #require(r.json["purchases"] as? [[String: Any]], "\(r.stdout)")
        var shared: [String: String] = [:], local: [String: Int] = [:]
        for p in list {
            let note = p["note"] as? String ?? "?"
            shared[note] = p["shared_id"] as? String ?? "none"
            local[note] = p["id"] as? Int ?? 0
        }
        return (shared, local)
    }

    static func transfers(_ trip: TripProcess) throws -> [String: String] {
        let r = try trip.run("transfers", "--trip", "Ghent", "--format", "json")
        try #require(r.exitCode == 0, "trip transfers: \(r.stderr)")
        let list = try #require(r.json["transfers"] as? [[String: Any]], "\(r.stdout)")
        return Dictionary(uniqueKeysWithValues: list.map { ($0["note"] as? String ?? "?", $0["shared_id"] as? String ?? "none") })
    }

    static func conflicts(_ trip: TripProcess) throws -> [[String: Any]] {
        let r = try trip.run("conflicts", "--format", "json")
        try #require(r.exitCode == 0, "trip conflicts: \(r.stderr)")
        return try #require(r.json["conflicts"] as? [[String: Any]], "\(r.stdout)")
    }

    static func isCode(_ text: String, _ kind: Character) -> Bool {
        text.count == 7 && text.first == kind && text.dropFirst().first == "-"
            && text.dropFirst(2).allSatisfy { "0123456789abcdefghjkmnpqrstvwxyz".contains($0) }
    }

    @Test func purchasesTransfersAndConflictsHaveOneIdEverywhereThatEveryCommandTakes() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana"), ben = world.device("ben"), carla = world.device("carla")
        // Ben and Carla have trips of their own first: their local numbers differ from Ana's.
        try #require(ben.run("new", "Home", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        for note in ["bread", "milk"] { try #require(ben.run("add", "2", note).exitCode == 0) }
        try #require(ben.run("member", "add", "X", "Y").exitCode == 0)
        try #require(ben.run("transfer", "X", "Y", "1").exitCode == 0)
        try #require(carla.run("new", "Own", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(carla.run("add", "3", "coffee").exitCode == 0)

        try #require(ana.run("new", "Ghent", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben", "Carla").exitCode == 0)
        for (amount, note) in [("90", "dinner"), ("12", "beer"), ("20", "taxi")] {
            try #require(ana.run("add", amount, note, "--paid-by", "Ana", "--split", "all").exitCode == 0)
        }
        try #require(ana.run("transfer", "Ben", "Ana", "30", "--note", "ben's").exitCode == 0)
        try #require(ana.run("share", "--with", "ben", "--with", "carla").exitCode == 0)
        for d in [ben, carla] { try #require(d.run("join", "Ghent").exitCode == 0) }
        try ReferenceClashTests.syncAll([ana, ben, carla])

        // The same purchase: another number on each device, one shared id on all.
        let seen = try [ana, ben, carla].map(Self.purchases)
        #expect(seen[0].local["dinner"] != seen[1].local["dinner"], "the scenario gives Ben other numbers: \(seen.map(\.local))")
        let codes = seen[0].shared
        #expect(codes.count == 3 && codes.values.allSatisfy { Self.isCode($0, "p") }, "\(codes)")
        #expect(Set(codes.values).count == 3)
        for s in seen { #expect(s.shared == codes, "\(seen.map(\.shared))") }
        let transferCodes = try [ana, ben, carla].map(Self.transfers)
        let transfer = try #require(transferCodes[0]["ben's"])
        #expect(Self.isCode(transfer, "t"), "\(transferCodes)")
        for t in transferCodes { #expect(t == transferCodes[0]) }
        let dinner = try #require(codes["dinner"]), beer = try #require(codes["beer"]), taxi = try #require(codes["taxi"])

        // Text shows it beside the local number; a trip that is not shared is listed as before.
        let bensList = try ben.run("list", "--trip", "Ghent").stdout
        #expect(bensList.contains("#\(seen[1].local["dinner"]!) \(dinner)  "), "\(bensList)")
        #expect(try ben.run("transfers", "--trip", "Ghent").stdout.contains(" \(transfer) "))
        let home = try ben.run("list", "--trip", "Home")
        #expect(!home.stdout.contains("p-") && home.stdout.contains("#1  "), "\(home.stdout)")
        #expect(!(try ben.run("list", "--trip", "Home", "--format", "json").stdout.contains("shared_id")))

        // Every command takes it, in any case: edit, refund, rm, restore, transfer edit, rm of a transfer.
        for d in [ben, carla] { try #require(d.run("use", "Ghent").exitCode == 0) }
        let edit = try ben.run("edit", dinner.uppercased(), "--note", "dinner out")
        #expect(edit.exitCode == 0, "\(edit.stderr)")
        #expect(edit.stdout.hasPrefix("Updated #\(seen[1].local["dinner"]!) \(dinner) in Ghent"), "\(edit.stdout)")
        // The refund line names the purchase it refunds by both ids: Carla's number is not Ben's.
        let refund = try carla.run("refund", beer, "2")
        #expect(refund.exitCode == 0, "\(refund.stderr)")
        #expect(refund.stdout.contains("(refund of #\(seen[2].local["beer"]!) \(beer))"), "\(refund.stdout)")
        let rm = try ben.run("rm", taxi)
        #expect(rm.exitCode == 0 && rm.stdout.contains(taxi), "\(rm.stderr)\(rm.stdout)")
        let restore = try ben.run("restore", taxi)
        #expect(restore.exitCode == 0 && restore.stdout.contains("#\(seen[1].local["taxi"]!) \(taxi)"), "\(restore.stderr)")
        let transferEdit = try carla.run("transfer", "edit", transfer, "--amount", "25")
        #expect(transferEdit.exitCode == 0 && transferEdit.stdout.contains("transfer T1 \(transfer) in Ghent"), "\(transferEdit.stderr)")
        // A shared id of another kind is refused, saying what it names.
        let wrong = try ana.run("edit", transfer, "--note", "x")
        #expect(wrong.exitCode == 65 && wrong.stderr.contains("transfer's shared id"), "\(wrong.stderr)")
        let unknown = try ana.run("edit", "p-zzzzz", "--note", "x")
        #expect(unknown.exitCode == 65 && unknown.stderr.contains("trip sync"), "\(unknown.stderr)")
        try ReferenceClashTests.syncAll([ana, ben, carla])
        let bensRefund = try ben.run("list", "--trip", "Ghent").stdout
        #expect(bensRefund.contains("refund of #\(seen[1].local["beer"]!) \(beer) "), "\(bensRefund)")
        let refundJSON = try ben.run("list", "--trip", "Ghent", "--format", "json").stdout
        #expect(refundJSON.contains("\"refund_of_shared_id\":\"\(beer)\""), "\(refundJSON)")
        for d in [ana, ben, carla] {
            let s = try Self.purchases(d).shared
            #expect(s["dinner out"] == dinner && s["taxi"] == taxi, "\(s)")
            #expect(try Self.transfers(d)["ben's"] == transfer)
            let json = try d.run("transfers", "--format", "json").stdout
            #expect(json.contains("\"25.00\""), "\(json)")
        }

        // A conflict: Ana and Ben change the dinner offline, each naming it by its shared id.
        #expect(try ana.run("edit", dinner, "--amount", "91").exitCode == 0)
        #expect(try ben.run("edit", dinner, "--amount", "95").exitCode == 0)
        try ReferenceClashTests.syncAll([ana, ben, carla])
        let lists = try [ana, ben, carla].map(Self.conflicts)
        for l in lists { try #require(l.count == 1, "\(lists)") }
        let conflict = try #require(lists[0][0]["shared_id"] as? String)
        #expect(Self.isCode(conflict, "c"))
        for l in lists {
            #expect(l[0]["shared_id"] as? String == conflict && l[0]["row_shared_id"] as? String == dinner, "\(l)")
        }
        let text = try carla.run("conflicts").stdout
        #expect(text.contains("(\(conflict))") && text.contains("(\(dinner))"), "\(text)")
        let resolve = try carla.run("resolve", conflict, "--keep", "1")
        #expect(resolve.exitCode == 0, "\(resolve.stderr)")
        #expect(resolve.stdout.contains(conflict), "\(resolve.stdout)")
        try ReferenceClashTests.syncAll([carla, ana, ben])
        for d in [ana, ben, carla] { #expect(try Self.conflicts(d).isEmpty) }

        // And the transfer goes, by its shared id, everywhere.
        let rmTransfer = try ana.run("rm", transfer)
        #expect(rmTransfer.exitCode == 0 && rmTransfer.stdout.contains(transfer), "\(rmTransfer.stderr)\(rmTransfer.stdout)")
        try ReferenceClashTests.syncAll([ana, ben, carla])
        for d in [ana, ben, carla] { #expect(try Self.transfers(d).isEmpty) }
    }
}
