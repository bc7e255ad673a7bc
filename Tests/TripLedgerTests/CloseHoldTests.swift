import Storage
import SyncRules
import Testing

/// The server's hold of a push to a trip another device closed, as pure rules (`CloseHold`):
/// `ChangeLog` on PostgreSQL and the tests' `InMemoryLog` call the same ones.
@Suite("Close hold: who closed the trip, what waits, the log's versions")
struct CloseHoldTests {
    typealias TripVersion = CloseHold.TripVersion

    static func row(_ gid: String, kind: String = "purchase", op: String = "put", hlc: Int64, device: String, payload: String? = "{}")
        -> SyncChange
    {
        SyncChange(changeID: "\(gid)@\(hlc)\(device)", kind: kind, gid: gid, op: op, hlc: hlc, baseHLC: 0, device: device, payload: payload)
    }

    static func trip(hlc: Int64, device: String) -> SyncChange {
        row("trip-1", kind: "trip", hlc: hlc, device: device)
    }

    /// Every order of `items`.
    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { i in
            var rest = items
            let first = rest.remove(at: i)
            return permutations(rest).map { [first] + $0 }
        }
    }

    @Test func theTripRowsWinnerIsTheLatestVersionInWhateverOrderTheLogHasThem() {
        let versions = [
            TripVersion(hlc: 100, device: "d-ana", author: "ana", closed: false),
            TripVersion(hlc: 300, device: "d-ben", author: "ben", closed: true),
            // Same clock, smaller device: loses to ben's.
            TripVersion(hlc: 300, device: "d-ana", author: "ana", closed: false),
            TripVersion(hlc: 200, device: "d-carla", author: "carla", closed: false),
        ]
        let push = [Self.row("p1", hlc: 50, device: "d-dan")]
        for order in Self.permutations(versions) {
            #expect(CloseHold.winner(of: order) == versions[1], "\(order)")
            #expect(CloseHold(tripVersions: order, pushing: push, device: "d-dan")?.closedBy == "ben", "\(order)")
        }
        // The reopen wins in every order: nothing is held.
        let reopened = versions + [TripVersion(hlc: 301, device: "d-carla", author: "carla", closed: false)]
        for order in Self.permutations(reopened) {
            #expect(CloseHold(tripVersions: order, pushing: push, device: "d-dan") == nil, "\(order)")
        }
        #expect(CloseHold.winner(of: []) == nil)
        #expect(CloseHold(tripVersions: [], pushing: push, device: "d-dan") == nil)
    }

    @Test func onlyTheTripsRowsAreHeldAndNotThoseSentPastTheClose() throws {
        let closed = [TripVersion(hlc: 300, device: "d-ana", author: "ana", closed: true)]
        var chosen = Self.row("p2", hlc: 400, device: "d-ben")
        chosen.pastClose = true
        let push = [
            Self.row("m1", kind: "member", hlc: 400, device: "d-ben"), Self.row("p1", hlc: 401, device: "d-ben"), chosen,
            Self.row("t1", kind: "transfer", hlc: 402, device: "d-ben"), Self.row("r1", kind: "rate", hlc: 403, device: "d-ben"),
            Self.row("h1", kind: SyncChange.heldKind, hlc: 404, device: "d-ben"),
        ]
        let hold = try #require(CloseHold(tripVersions: closed, pushing: push, device: "d-ben"))
        #expect(hold.held.map(\.gid) == ["m1", "p1", "t1"])
        #expect(hold.closedBy == "ana")
        // Nothing the close can hold: no hold.
        #expect(CloseHold(tripVersions: closed, pushing: [chosen, push[4], push[5]], device: "d-ben") == nil)
    }

    @Test func aPushByTheCloserItselfIsNeverHeld() {
        let closed = [
            TripVersion(hlc: 100, device: "d-ben", author: "ben", closed: false),
            TripVersion(hlc: 300, device: "d-ana", author: "ana", closed: true),
        ]
        let push = [Self.row("p1", hlc: 200, device: "d-ana")]
        #expect(CloseHold(tripVersions: closed, pushing: push, device: "d-ana") == nil)
        #expect(CloseHold(tripVersions: closed, pushing: push, device: "d-ben")?.closedBy == "ana")
    }

    @Test func aPushWhoseOwnTripChangeIsNewerThanTheCloseIsNotHeld() {
        let closed = [TripVersion(hlc: 300, device: "d-ana", author: "ana", closed: true)]
        let rows = [Self.row("p1", hlc: 305, device: "d-ben")]
        // A reopen made after the close, pushed with the row.
        #expect(CloseHold(tripVersions: closed, pushing: [Self.trip(hlc: 301, device: "d-ben")] + rows, device: "d-ben") == nil)
        // Same clock: the larger device wins (`Version`), so ben's "d-ben" > "d-ana" opens it.
        #expect(CloseHold(tripVersions: closed, pushing: [Self.trip(hlc: 300, device: "d-ben")] + rows, device: "d-ben") == nil)
        // One made before it does not open the trip.
        let older = CloseHold(tripVersions: closed, pushing: [Self.trip(hlc: 299, device: "d-ben")] + rows, device: "d-ben")
        #expect(older?.held.map(\.gid) == ["p1"])
    }

    @Test func aTripChangeOfTheLogReadsItsCloseAsTheServerDoes() {
        func closed(_ payload: String?) -> Bool? {
            var c = Self.trip(hlc: 1, device: "d")
            c.payload = payload
            return TripVersion(c)?.closed
        }
        #expect(closed(#"{"v":"1.0","name":"Lima","closed_at":"2026-11-29 10:00:00"}"#) == true)
        #expect(closed(#"{"v":"1.0","name":"Lima","closed_at":null}"#) == false)
        #expect(closed(#"{"v":"1.0","name":"Lima"}"#) == false)
        #expect(closed(nil) == nil, "a trip change without a payload is no version")
        #expect(TripVersion(Self.row("p1", hlc: 1, device: "d")) == nil)
    }

    /// With the clocks of the row's latest removal and restore there, which a held removal or
    /// restore goes back to (`revertVersion`).
    @Test func theLogsVersionOfEachHeldRowIsItsWinnerAndARemovalLeavesNone() throws {
        let snapshot = SyncChange(
            changeID: "s", kind: PurchaseSnapshot.kind, gid: "snapshot:trip-1", op: "put", hlc: 10, baseHLC: 0, device: "d-ana",
            payload: #"{"count":2,"columns":["gid","hlc","note"],"rows":[["p1",10,"tea"],["p2",11,"bus"]]}"#)
        let rows = [
            Self.row("p2", hlc: 50, device: "d-carla", payload: #"{"note":"train"}"#),
            Self.row("p2", hlc: 40, device: "d-ben", payload: #"{"note":"taxi"}"#),
            Self.row("p3", hlc: 20, device: "d-ben", payload: #"{"note":"map"}"#),
            Self.row("p3", op: "delete", hlc: 30, device: "d-carla", payload: nil),
            Self.row("p4", hlc: 20, device: "d-ben", payload: #"{"note":"fee"}"#),
            Self.row("p4", op: "delete", hlc: 30, device: "d-carla", payload: #"{"note":"fees"}"#),
            Self.row("p4", op: "restore", hlc: 35, device: "d-ben", payload: #"{"note":"fees"}"#),
            Self.row("other", hlc: 99, device: "d-ben", payload: #"{"note":"not asked"}"#),
        ]
        let gids = ["p1", "p2", "p3", "p4", "p5"]
        let expected = [
            "p1": ServerVersion(gid: "p1", payload: #"{"note":"tea"}"#, hlc: 10, device: "d-ana"),
            "p2": ServerVersion(gid: "p2", payload: #"{"note":"train"}"#, hlc: 50, device: "d-carla"),
            "p3": ServerVersion(gid: "p3", payload: nil, hlc: 20, device: "d-ben", removedPayload: #"{"note":"map"}"#, removedAt: 30),
            "p4": ServerVersion(gid: "p4", payload: #"{"note":"fees"}"#, hlc: 35, device: "d-ben", removedAt: 30, restoredAt: 35),
        ]
        // Whatever order the rows' versions reached the log in, and wherever the snapshot is.
        for order in [rows, rows.reversed(), Array(rows[3...] + rows[..<3])] {
            for log in [[snapshot] + order, order + [snapshot]] {
                let versions = CloseHold.serverVersions(of: gids, in: log)
                #expect(Dictionary(uniqueKeysWithValues: versions.map { ($0.gid, $0) }) == expected)
            }
        }
        // Stored as they travel: the wire format's version is not part of the row.
        let stamped = [Self.row("p1", hlc: 60, device: "d-ben", payload: #"{"v":"1.0","note":"tea!"}"#)]
        #expect(CloseHold.serverVersions(of: ["p1"], in: stamped).first?.payload == #"{"note":"tea!"}"#)
    }
}
