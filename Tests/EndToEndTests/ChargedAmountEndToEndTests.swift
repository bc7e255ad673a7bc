import Foundation
import TestSupport
import Testing

/// A charged amount is a rate in disguise (issue 29, finding 7): `trip add 10 EUR --charged 12` in
/// a EUR-home trip stored a rate of 1.2, and `--charged 0` a rate of 0, both with exit 0. The
/// refusal quotes the amount as typed (`12`, not `12.00`).
@Suite("End to end: charged amounts are checked")
struct ChargedAmountEndToEndTests {
    static func trip(_ folder: TemporaryFolder, local: String, home: String) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("new", "Trip", "--currency", local, "--home", home).exitCode == 0)
        return trip
    }

    @Test func aHomeCurrencyPurchaseIsChargedItsTotalAndNeverZero() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "EUR", home: "EUR")
        let twelve = try trip.run("add", "10", "EUR", "--charged", "12")
        #expect(twelve.exitCode == 65)
        #expect(twelve.stderr.contains("charged: \"12\" is not the total 10.00"), "\(twelve.stderr)")
        #expect(try trip.run("add", "10", "EUR", "--charged", "10").exitCode == 0)
        let other = TemporaryFolder()
        let jpy = try Self.trip(other, local: "JPY", home: "EUR")
        let zero = try jpy.run("add", "1200", "--charged", "0")
        #expect(zero.exitCode == 65)
        #expect(zero.stderr.contains("charged: \"0\" must be more than zero"), "\(zero.stderr)")
        #expect(try jpy.run("list", "--format", "json").stdout.contains("\"purchases\":[]"))
    }
}
