import Foundation
import TestSupport
import Testing

/// `trip import FILE --splitwise`: a Splitwise group export, for groups moving over.
@Suite("End to end: Splitwise import")
struct SplitwiseImportEndToEndTests {
    static let export = """
        Date,Description,Category,Cost,Currency,Ana,Ben,Carla
        2026-03-01,Dinner,Dining out,90.00,EUR,60.00,-30.00,-30.00
        2026-03-02,Taxi,Taxi,10.00,EUR,-5.00,5.00,0.00
        2026-03-02,"Hotel, two nights",Hotel,300.00,EUR,-100.00,-100.00,200.00
        2026-03-03,Payment,Payment,30.00,EUR,-30.00,30.00,0.00
        2026-03-04,Sushi,Dining out,3000,JPY,-1000,2000,-1000

        2026-03-05,Total balance, , ,EUR,-75.00,-95.00,170.00
        2026-03-05,Total balance, , ,JPY,-1000,2000,-1000

        """

    static func lisbon() throws -> (TemporaryFolder, TripProcess) {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(try trip.run("new", "Lisbon", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        return (folder, trip)
    }

    static func balances(_ trip: TripProcess) throws -> [String] {
        let all = try #require(try trip.run("balances", "--by-currency", "--format", "json").json["by_currency"] as? [[String: Any]])
        return all.map { t in
            "\(t["currency"]!): "
                + ((t["members"] as? [[String: Any]]) ?? []).map { "\($0["name"]!) \($0["balance"]!)" }
                .joined(separator: ", ")
        }
    }

    @Test func importsWithTheBalancesSplitwiseShowed() throws {
        let (folder, trip) = try Self.lisbon()
        let file = folder.file("splitwise.csv")
        try Self.export.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try trip.run("import", file, "--splitwise", "--format", "json")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.json["imported"] as? Int == 4)
        #expect(r.json["transfers"] as? Int == 1)
        #expect(r.json["checked_currencies"] as? [String] == ["EUR", "JPY"])
        #expect(try Self.balances(trip) == ["EUR: Ana -75.00, Ben -95.00, Carla 170.00", "JPY: Ana -1000, Ben 2000, Carla -1000"])
        // The one-payer rows come back exactly: the hotel was Carla's, shared 100 each.
        let hotel = try trip.run("edit", "3", "--format", "json").json
        #expect((hotel["paid_by"] as? [[String: Any]])?.map { "\($0["name"]!)=\($0["paid"]!)" } == ["Carla=300.00"])
        #expect(
            (hotel["split"] as? [[String: Any]])?.map { "\($0["name"]!)=\($0["share"]!)" }
                == ["Ana=100.00", "Ben=100.00", "Carla=100.00"])
        #expect(hotel["note"] as? String == "Hotel, two nights")
    }

    @Test func severalPayersAreNamedAndNothingIsImportedUnlessAsked() throws {
        let (folder, trip) = try Self.lisbon()
        let file = folder.file("splitwise.csv")
        let twoPayers = Self.export.replacingOccurrences(
            of: "2026-03-04,Sushi,Dining out,3000,JPY,-1000,2000,-1000",
            with: "2026-03-04,Sushi,Dining out,3000,JPY,-1500,1000,500"
        )
        .replacingOccurrences(of: "JPY,-1000,2000,-1000\n", with: "JPY,-1500,1000,500\n")
        try twoPayers.write(toFile: file, atomically: true, encoding: .utf8)
        let refused = try trip.run("import", file, "--splitwise")
        #expect(refused.exitCode == 65)
        #expect(refused.stderr.contains("row 5 (Sushi: 2 payers)"), "\(refused.stderr)")
        #expect(try LedgerInspection.count(trip.ledgerPath, "SELECT count(*) FROM purchases") == 0)
        #expect(try LedgerInspection.count(trip.ledgerPath, "SELECT count(*) FROM members") == 0)

        let r = try trip.run("import", file, "--splitwise", "--payers-by-net")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(try Self.balances(trip) == ["EUR: Ana -75.00, Ben -95.00, Carla 170.00", "JPY: Ana -1500, Ben 1000, Carla 500"])
    }

    @Test func aTotalThatDoesNotMatchImportsNothing() throws {
        let (folder, trip) = try Self.lisbon()
        let file = folder.file("splitwise.csv")
        try Self.export.replacingOccurrences(of: "EUR,-75.00,-95.00,170.00", with: "EUR,-76.00,-94.00,170.00")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let r = try trip.run("import", file, "--splitwise")
        #expect(r.exitCode == 65)
        #expect(r.stderr.contains("Total balance"), "\(r.stderr)")
        #expect(try LedgerInspection.count(trip.ledgerPath, "SELECT count(*) FROM purchases") == 0)
        #expect(try LedgerInspection.count(trip.ledgerPath, "SELECT count(*) FROM transfers") == 0)
    }
}
