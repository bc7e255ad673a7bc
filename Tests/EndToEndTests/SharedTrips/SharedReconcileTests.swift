import Foundation
import TestSupport
import Testing

/// Issue 37, "Reconcile": a purchase logged on one device of a shared trip is matched by the
/// statement another device imports; the charged amount reaches the first device at its next sync
/// like any edit, nothing is added twice, and on a group trip the payer stays who it was.
@Suite("Shared trips: a statement reconciles with purchases logged on another device")
struct SharedReconcileTests {
    @Test func aPurchaseLoggedOnAnotherDeviceIsMatchedAndItsChargedAmountTravels() throws {
        let world = try SharedTripWorld()
        let ana = world.device("ana", today: "2025-08-10"), ben = world.device("ben", today: "2025-08-10")
        try #require(ana.run("new", "NYC", "--currency", "USD", "--home", "GBP").exitCode == 0)
        try #require(ana.run("member", "add", "Ana", "Ben").exitCode == 0)
        try #require(ana.run("whoami", "ana").exitCode == 0)
        let add = try ana.run("add", "20", "USD", "--date", "2025-07-31", "--note", "software", "--paid-by", "ana", "--split", "all")
        try #require(add.exitCode == 0, "\(add.stderr)")
        try #require(ana.run("share", "--with", "ben").exitCode == 0)
        try #require(ben.run("join", "NYC").exitCode == 0)
        try #require(ben.run("whoami", "ben").exitCode == 0)

        // Ben imports the card statement of the card Ana paid with: it matches her purchase.
        let path = world.folder.file("wise.csv")
        try ReconcileEndToEndTests.software.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try ben.run("import", path, "--paid-by", "ana")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("matched 1 (charged set), added 0"), "\(r.stdout)")
        try ReferenceClashTests.syncAll([ben, ana])

        for device in [ana, ben] {
            let rows = try ReconcileEndToEndTests.list(device)
            #expect(rows.count == 1, "one purchase, not two: \(rows)")
            #expect(rows.first?["charged"] as? String == "15.05", "\(rows)")
            #expect(rows.first?["note"] as? String == "software")
            let balances = try device.run("balances", "--format", "json")
            let members = (balances.json["members"] as? [[String: Any]]) ?? []
            #expect(members.map { "\($0["name"]!) \($0["paid"]!)" } == ["Ana 15.05", "Ben 0.00"], "\(balances.stdout)")
        }
        #expect(try snapshot(ben) == snapshot(ana))
        // The same statement again, on Ana's device now: it matches and adds nothing.
        let again = try ana.run("import", path)
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(try ReconcileEndToEndTests.list(ana).count == 1)
    }
}
