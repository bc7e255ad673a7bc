import Foundation
import TestSupport
import Testing

/// Re-importing a Splitwise export doubled the trip and still printed "balances equal Splitwise's
/// totals" (issue 29, finding 3): its check compared only what the import changed.
@Suite("End to end: Splitwise duplicates")
struct SplitwiseDuplicatesEndToEndTests {
    @Test func reimportingTheSameExportAddsNothingAndChecksTheTripsBalances() throws {
        let (folder, trip) = try SplitwiseImportEndToEndTests.lisbon()
        let file = folder.file("splitwise.csv")
        try SplitwiseImportEndToEndTests.export.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try trip.run("import", file, "--splitwise").exitCode == 0)
        let expected = ["EUR: Ana -75.00, Ben -95.00, Carla 170.00", "JPY: Ana -1000, Ben 2000, Carla -1000"]
        let again = try trip.run("import", file, "--splitwise", "--format", "json")
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(again.json["imported"] as? Int == 0)
        #expect(again.json["transfers"] as? Int == 0)
        #expect(again.json["skipped"] as? Int == 5)
        #expect(again.json["checked_currencies"] as? [String] == ["EUR", "JPY"])
        #expect(try SplitwiseImportEndToEndTests.balances(trip) == expected)
        let text = try trip.run("import", file, "--splitwise")
        #expect(text.stdout.contains("5 already imported"), "\(text.stdout)")
        #expect(text.stdout.contains("the trip's balances equal Splitwise's totals"), "\(text.stdout)")
    }

    /// A later export of the same group holds the earlier rows and new ones: only the new are added,
    /// and the trip's balances (not the change) are compared with its totals.
    @Test func aLaterOverlappingExportAddsOnlyTheNewRows() throws {
        let (folder, trip) = try SplitwiseImportEndToEndTests.lisbon()
        let first = folder.file("first.csv")
        try """
        Date,Description,Category,Cost,Currency,Ana,Ben
        2026-03-01,Dinner,Dining out,90.00,EUR,45.00,-45.00

        2026-03-05,Total balance, , ,EUR,45.00,-45.00

        """.write(toFile: first, atomically: true, encoding: .utf8)
        let later = folder.file("later.csv")
        try """
        Date,Description,Category,Cost,Currency,Ana,Ben
        2026-03-01,Dinner,Dining out,90.00,EUR,45.00,-45.00
        2026-03-02,Taxi,Taxi,10.00,EUR,-5.00,5.00

        2026-03-05,Total balance, , ,EUR,40.00,-40.00

        """.write(toFile: later, atomically: true, encoding: .utf8)
        #expect(try trip.run("import", first, "--splitwise").exitCode == 0)
        let r = try trip.run("import", later, "--splitwise", "--format", "json")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.json["imported"] as? Int == 1)
        #expect(r.json["skipped"] as? Int == 1)
        #expect(try SplitwiseImportEndToEndTests.balances(trip) == ["EUR: Ana 40.00, Ben -40.00"])
    }
}

/// `--payers-by-net` told the user to add `--payers-by-net` when it was given (issue 29, finding 5):
/// a row whose columns are all zero records no payer, which no option can recover.
@Suite("End to end: Splitwise rows with no payer")
struct SplitwiseNoPayerEndToEndTests {
    @Test func aRowWithEveryMemberAtZeroSaysThePayerWasNotRecorded() throws {
        let (folder, trip) = try SplitwiseImportEndToEndTests.lisbon()
        let file = folder.file("splitwise.csv")
        try """
        Date,Description,Category,Cost,Currency,Ana,Ben
        2026-03-01,Dinner,Dining out,90.00,EUR,45.00,-45.00
        2026-03-02,Museum,Entertainment,20.00,EUR,0.00,0.00

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try trip.run("import", file, "--splitwise", "--payers-by-net")
        #expect(r.exitCode == 65)
        #expect(!r.stderr.contains("Add --payers-by-net"), "\(r.stderr)")
        #expect(r.stderr.contains("row 2 (Museum)"), "\(r.stderr)")
        #expect(r.stderr.contains("Splitwise did not record who paid"), "\(r.stderr)")
    }
}
