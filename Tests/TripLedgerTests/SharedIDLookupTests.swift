import TestSupport
import Testing
import TripCore
import TripModel

@testable import Storage
@testable import SyncRules
@testable import TripLedger

/// The one place commands read an id (`SyncRules/SharedIDs.swift`), on a real SQLite ledger:
/// a shared id names its row, and two rows whose five characters agree are told apart, not guessed.
@Suite("Shared ids: reading an id")
struct SharedIDLookupTests {
    /// Two global ids whose shared ids agree in their first five characters (found by search).
    static let clash = ("gid-3236", "gid-3472")

    func sharedTripWithThreePurchases() throws -> TestLedger {
        let t = try TestLedger()
        let trip = try t.ledger.createTrip(NewTrip(name: "Group", localCurrency: "EUR", homeCurrency: "EUR"))
        for note in ["one", "two", "three"] { _ = try t.ledger.addPurchase(PurchaseDraft(amount: "10", note: note)) }
        _ = try t.ledger.markShared(trip, gid: GlobalID.make(), owner: "ana")
        for (id, gid) in [(1, Self.clash.0), (2, Self.clash.1), (3, "gid-unique")] as [(Int64, String)] {
            try t.ledger.syncStore.insertIdentity(kind: "purchase", localID: id, gid: gid, trip: trip.id)
        }
        return t
    }

    @Test func theClashIsReal() {
        #expect(SharedID.code(.purchase, gid: Self.clash.0) == SharedID.code(.purchase, gid: Self.clash.1))
    }

    @Test func aSharedIDNamesItsRowInEveryCommandAndLocalNumbersStillWork() throws {
        let t = try sharedTripWithThreePurchases()
        let three = SharedID.code(.purchase, gid: "gid-unique")
        #expect(try t.ledger.editPurchase(three.uppercased(), PurchaseDraft(note: "3!")).id == 3)
        #expect(try t.ledger.removePurchase(three).id == 3)
        #expect(try t.ledger.restorePurchase(three).id == 3)
        #expect(try t.ledger.addRefund(three, amount: "1", date: nil, charged: nil).refundOf == 3)
        #expect(try t.ledger.editPurchase("#1", PurchaseDraft(note: "1!")).id == 1)
        #expect(try t.ledger.sharedID(.purchase, localID: 3) == three)
        #expect(try t.ledger.sharedID(.purchase, localID: 4) == nil, "the refund has no global id before its first sync")
    }

    @Test func aCodeThatNamesTwoRowsIsRefusedNamingEachWithEnoughCharacters() throws {
        let t = try sharedTripWithThreePurchases()
        let short = SharedID.code(.purchase, gid: Self.clash.0)
        let gids = [Self.clash.0, Self.clash.1]
        let one = SharedID.distinguishing(.purchase, gid: Self.clash.0, among: gids)
        let two = SharedID.distinguishing(.purchase, gid: Self.clash.1, among: gids)
        do {
            _ = try t.ledger.editPurchase(short, PurchaseDraft(note: "which?"))
            Issue.record("an ambiguous shared id was taken")
        } catch let e as TripError {
            #expect("\(e)".contains("names 2 purchases here: \(one) (#1 here), \(two) (#2 here)"), "\(e)")
        }
        #expect(try t.ledger.editPurchase(two, PurchaseDraft(note: "two!")).id == 2)
        #expect(try t.ledger.purchase(id: 1).note == "one")
    }

    @Test func aSharedIDOfAnotherKindOrOfNoRowIsRefused() throws {
        let t = try sharedTripWithThreePurchases()
        #expect(throws: TripError.self) { try t.ledger.editPurchase("t-12345", PurchaseDraft(note: "x")) }
        #expect(
            throws: TripError.badTextValue(
                field: "id", value: "p-zzzzz", reason: "names no purchase on this device; `trip sync` brings what the others logged")
        ) { try t.ledger.editPurchase("p-zzzzz", PurchaseDraft(note: "x")) }
        #expect(throws: TripError.self) { try t.ledger.resolveConflict("c-12345", keep: "1") }
    }
}
