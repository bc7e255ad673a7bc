import Foundation
import TestSupport
import Testing

/// Issue 34, item 5: a card statement imported into a group trip is paid and split as `trip add`
/// pays and splits, so its purchases count in the balances.
@Suite("End to end: card statements in group trips")
struct StatementGroupEndToEndTests {
    /// Spending positive, money back negative: a ¥-free EUR trip so the balances are the amounts.
    static let statement = """
        Date,Description,Amount
        2026-03-01,Coffee,4.00
        2026-03-02,Dinner,30.00
        2026-03-03,Coffee,-4.00

        """

    /// A EUR trip with Ana and Ben; `whoami` when given.
    static func trip(_ folder: TemporaryFolder, whoami: String?) throws -> (TripProcess, String) {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2026-03-05")
        var steps = [["new", "Lisbon", "--currency", "EUR", "--home", "EUR"], ["member", "add", "Ana", "Ben"]]
        if let whoami { steps.append(["whoami", whoami]) }
        for args in steps {
            let r = try trip.run(args)
            try #require(r.exitCode == 0, "\(args): \(r.stderr)")
        }
        let path = folder.file("statement.csv")
        try statement.write(toFile: path, atomically: true, encoding: .utf8)
        return (trip, path)
    }

    static let mapping = ["--date-column", "Date", "--amount-column", "Amount", "--note-column", "Description"]

    static func balances(_ trip: TripProcess) throws -> [String] {
        let r = try trip.run("balances", "--format", "json")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.json["unsplit_purchases"] as? Int == 0)
        return ((r.json["members"] as? [[String: Any]]) ?? []).map { "\($0["name"]!) \($0["paid"]!) \($0["share"]!) \($0["balance"]!)" }
    }

    @Test func thisDevicesMemberPaysAndEveryoneShares() throws {
        let folder = TemporaryFolder()
        let (trip, path) = try Self.trip(folder, whoami: "ana")
        let r = try trip.run(["import", path] + Self.mapping)
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("linked 1 refund"), "\(r.stdout)")
        // The coffee came back (its refund takes the coffee's split): Ana paid the 30.00 dinner, 15.00 each.
        #expect(try Self.balances(trip) == ["Ana 30.00 15.00 15.00", "Ben 0.00 15.00 -15.00"])
        let text = try trip.run("balances").stdout
        #expect(!text.contains("before the trip had members"), "\(text)")
    }

    @Test func paidByAndSplitAreTakenAsTripAddTakesThem() throws {
        let folder = TemporaryFolder()
        let (trip, path) = try Self.trip(folder, whoami: nil)
        let r = try trip.run(["import", path] + Self.mapping + ["--paid-by", "ben", "--split", "ana=1,ben=3"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(try Self.balances(trip) == ["Ana 0.00 7.50 -7.50", "Ben 30.00 22.50 7.50"])
    }

    @Test func withNoWhoamiAndNoPaidByTheImportIsRefusedAsAddIs() throws {
        let folder = TemporaryFolder()
        let (trip, path) = try Self.trip(folder, whoami: nil)
        let add = try trip.run("add", "4", "coffee")
        let before = try dumpLedger(folder.file("ledger.sqlite"))
        let r = try trip.run(["import", path] + Self.mapping)
        #expect(r.exitCode == add.exitCode && r.exitCode != 0)
        #expect(r.stderr == add.stderr, "\(r.stderr)")
        #expect(try dumpLedger(folder.file("ledger.sqlite")) == before)
    }
}
