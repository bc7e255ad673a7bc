import Foundation
import Storage
import SyncRules
import TestSupport
import Testing
import TripCore
import TripLedger
import TripModel

/// Many seeds of random adds, edits, removals, restores, closes, reopens and syncs on four devices
/// of one trip, through an in-memory log (`InMemoryLog`, no PostgreSQL): once every device synced
/// enough rounds with the trip finally reopened, all show the same purchases and the same total,
/// nothing waits for a close any more, and no row change entered the log while another device's
/// close was the trip's winning version (the log holds them as the server does, `CloseHold`).
/// 20 seeds, 400 under `make test-long`.
/// Seeded and replayable: a failure names its seed; `TRIP_SEED=N` runs that seed alone (the
/// actions replay; the clocks read the wall clock, so two devices ticking in one millisecond may
/// not). This covers the rules' order-independence, not the server's checks (`ConvergenceTests` does,
/// against a real PostgreSQL, through the binary).
@Suite("In-memory convergence: four devices, many seeds")
struct InMemoryConvergenceTests {
    static let seeds: [Int] =
        ProcessInfo.processInfo.environment["TRIP_SEED"].flatMap { Int($0) }.map { [$0] }
        ?? Array(
            1...HardeningScale.pick(short: 20, long: 400))

    struct Device {
        let test: TestLedger
        var ledger: Ledger { test.ledger }
        var removed: [Int64] = []

        init(_ role: String, log: InMemoryLog) throws {
            test = try TestLedger()
            log.roles[try test.ledger.deviceID()] = role
            if try !test.ledger.knowsOwnAuthor() { try test.ledger.noteOwnAuthor(role) }
        }

        func shared() throws -> SharedTrip { try #require(try ledger.sharedTrips().first { $0.trip.name == "Group" }) }

        func sync(_ log: InMemoryLog) throws {
            let shared = try shared()
            _ = try ledger.syncRound(
                shared, log: log, device: try ledger.deviceID(), onServer: log.lastSeq, before: try ledger.netTotal(shared), here: nil)
        }

        /// What every device must agree on: each purchase's note, date and amount, and the total.
        func view() throws -> [String] {
            let purchases = try ledger.purchases(PurchaseFilter(trip: "Group")).purchases
            return purchases.map { "\($0.note) \($0.date) \($0.expression) \($0.currency.code)" }.sorted()
                + ["total \(try ledger.netTotal(try shared()))"]
        }
    }

    @Test(arguments: seeds)
    func everyDeviceConverges(seed: Int) throws {
        var d = SplitMix64(seed: UInt64(seed))
        let log = InMemoryLog(batchSize: d.int(1...8))
        var devices = try ["ana", "ben", "cat", "dan"].map { try Device($0, log: log) }
        let trip = try devices[0].ledger.createTrip(NewTrip(name: "Group", localCurrency: "JPY", homeCurrency: "USD"))
        _ = try devices[0].ledger.addPurchase(PurchaseDraft(amount: "1000", note: "first"))
        _ = try devices[0].ledger.markShared(trip, gid: GlobalID.make(), owner: "ana")
        try devices[0].sync(log)
        for k in 1..<devices.count {
            let first = try #require(try log.pull(after: 0).first { $0.kind == "trip" })
            _ = try devices[k].ledger.createJoinedTrip(first, owner: "ana")
            try devices[k].sync(log)
        }
        var refused = 0
        for step in 0..<60 {
            let k = d.int(0...devices.count - 1)
            let ledger = devices[k].ledger
            let ids = try ledger.purchases(PurchaseFilter(trip: "Group")).purchases.map(\.id)
            do throws(any Error) {
                switch d.int(0...11) {
                case 0...2: _ = try ledger.addPurchase(PurchaseDraft(amount: "\(d.int(1...5000))", note: "p\(seed)-\(step)"))
                case 3:
                    if let id = d.pick(ids) { _ = try ledger.editPurchase("\(id)", PurchaseDraft(note: "e\(seed)-\(step)")) }
                case 4:
                    if let id = d.pick(ids) { _ = try ledger.editPurchase("\(id)", PurchaseDraft(amount: "\(d.int(1...5000))")) }
                case 5:
                    if let id = d.pick(ids) {
                        _ = try ledger.removePurchase("\(id)")
                        devices[k].removed.append(id)
                    }
                case 6:
                    if let id = d.pick(devices[k].removed) { _ = try ledger.restorePurchase("\(id)") }
                case 7...9: try devices[k].sync(log)
                case 10: _ = try ledger.closeTrip("Group")
                default: _ = try ledger.reopenTrip("Group")
                }
            } catch is TripError {
                refused += 1  // a guess that no longer holds (a row removed elsewhere, the trip closed): refused, fine
            }
        }
        // Every device pushes what it has; the first, having pulled it all, reopens the trip if
        // the log left it closed; then each sync releases what waited and brings the rest.
        for device in devices { try device.sync(log) }
        try devices[0].sync(log)
        if try devices[0].shared().trip.closedAt != nil { _ = try devices[0].ledger.reopenTrip("Group") }
        for _ in 0..<3 { for device in devices { try device.sync(log) } }
        let views = try devices.map { try $0.view() }
        for k in 1..<views.count {
            #expect(views[k] == views[0], "seed \(seed): device \(k) differs from device 0 (TRIP_SEED=\(seed) replays it)")
        }
        for (k, device) in devices.enumerated() {
            #expect(try device.shared().trip.closedAt == nil, "seed \(seed): device \(k) still shows the trip closed")
            #expect(try device.ledger.heldCount(try device.shared()) == 0, "seed \(seed): device \(k) still holds changes for a close")
        }
        // The log took no row change while another device's close won: each was held.
        for (i, c) in log.changes.enumerated() where SyncChange.rowKinds.contains(c.kind) {
            let trip = log.changes[..<i].compactMap(CloseHold.TripVersion.init)
            #expect(CloseHold(tripVersions: trip, pushing: [c], device: c.device) == nil, "seed \(seed): change \(i + 1) entered a closed trip")
        }
    }
}

extension SplitMix64 {
    /// A draw in `range`, as the seeds' recorded runs drew it.
    fileprivate mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    fileprivate mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[int(0...items.count - 1)] }
}
