import Foundation
import TestSupport
import Testing

/// Issue 37, "Any other bank: inferred, shown, never wrong": a statement no profile recognises is
/// read by inference through the `trip` binary. It imports and prints the mapping it used, or
/// imports nothing (exit 65) and names the choice and the option that makes it. Before, every such
/// file was refused with "unknown columns".
@Suite("End to end: statements read by inference")
struct StatementInferenceEndToEndTests {
    static func trip(_ folder: TemporaryFolder, local: String, home: String, extra: [String: String] = [:]) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2026-11-25", extra: extra)
        try #require(trip.run("new", "Trip", "--currency", local, "--home", home).exitCode == 0)
        return trip
    }

    static func write(_ bytes: [UInt8], _ folder: TemporaryFolder, _ name: String = "statement.csv") throws -> String {
        let path = folder.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What a purchase is in money: date, kind, currency, price and charged, sorted.
    static func money(_ trip: TripProcess) throws -> [String] {
        let rows = (try trip.run("list", "--format", "json").json["purchases"] as? [[String: Any]]) ?? []
        return rows.map { r in
            ["date", "kind", "currency", "price", "charged"].map { r[$0].flatMap { $0 is NSNull ? nil : "\($0)" } ?? "-" }.joined(separator: " ")
        }.sorted()
    }

    /// Each real layout with its profile left out: inference imports what the profile imports, or
    /// refuses and imports nothing. Never something else with exit 0.
    @Test func everyRealLayoutWithoutItsProfileIsReadAsTheProfileReadsItOrRefused() throws {
        var inferred: [String] = []
        for sample in StatementSample.all {
            let folder = TemporaryFolder()
            let withProfile = try Self.trip(folder, local: sample.local, home: sample.home)
            let path = try Self.write(sample.bytes, folder)
            let expected = try withProfile.run("import", path)
            try #require(expected.exitCode == 0, "\(sample): \(expected.stderr)")
            let other = TemporaryFolder()
            let byInference = try Self.trip(other, local: sample.local, home: sample.home, extra: ["TRIP_TEST_WITHOUT_PROFILES": "*"])
            let r = try byInference.run("import", path)
            if r.exitCode == 0 {
                inferred.append(sample.name)
                #expect(r.stdout.hasPrefix("read as: date "), "\(sample): \(r.stdout)")
                #expect(try Self.money(byInference) == Self.money(withProfile), "\(sample): \(r.stdout)")
            } else {
                #expect(r.exitCode == 65, "\(sample): \(r.stderr)")
                #expect(r.stderr.contains("not decided by the file") && r.stderr.contains("give --"), "\(sample): \(r.stderr)")
                #expect(try Self.money(byInference).isEmpty, "\(sample)")
            }
        }
        // Refusing every file would pass the loop: most of these layouts are decided by their rows.
        #expect(inferred.count >= 8, "inferred: \(inferred)")
    }

    /// A US card no profile knows: `Pending` dates, 12/31 deciding month/day, the payment to the card deciding the sign.
    static let usCard = """
        Transaction Date,Description,Amount,Balance
        Pending,COFFEE SHOP,-4.20,
        12/28/2026,DELTA AIR LINES,-412.50,1412.50
        12/31/2026,UBER TRIP,-23.10,1435.60
        01/02/2027,PAYMENT - THANK YOU,435.60,1000.00
        01/03/2027,UBER TRIP,5.00,995.00

        """

    @Test func aCardNoProfileKnowsIsImportedAndItsMappingPrinted() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "USD", home: "USD")
        let r = try trip.run("import", try Self.write(Array(Self.usCard.utf8), folder))
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(
            r.stdout.hasPrefix(
                "read as: date \"Transaction Date\" (month/day, MM/DD/YYYY), amount \"Amount\" (spending negative, decimal point), description \"Description\"\n"
            ), "\(r.stdout)")
        #expect(r.stdout.contains("skipped 2 rows: 1 card settlement, 1 pending"), "\(r.stdout)")
        #expect(try Self.money(trip) == ["2026-12-28 purchase USD 412.50 -", "2026-12-31 purchase USD 23.10 -", "2027-01-03 refund USD 5.00 -"])
    }

    /// bunq / ING-style: `;`, decimal commas, thousands dots, a preamble, Latin-1.
    @Test func decimalCommasAndAPreambleInLatin1() throws {
        let text = """
            Kontoauszug;Girokonto
            Zeitraum;01.03.2026 - 31.03.2026
            Datum;Empfänger;Betrag;Währung
            02.03.2026;Bäckerei Süß;-3,40;EUR
            03.03.2026;Hôtel Zürich;-1.234,50;EUR
            04.03.2026;Café Größe;-12,00;EUR
            15.03.2026;Café Größe;2,00;EUR

            """
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "EUR", home: "EUR")
        let r = try trip.run("import", try Self.write(Array(text.data(using: .isoLatin1)!), folder))
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("amount \"Betrag\" (spending negative, decimal comma)"), "\(r.stdout)")
        #expect(
            try Self.money(trip) == [
                "2026-03-02 purchase EUR 3.40 -", "2026-03-03 purchase EUR 1234.50 -", "2026-03-04 purchase EUR 12.00 -",
                "2026-03-15 refund EUR 2.00 -",
            ])
    }

    /// A choice the file leaves open imports nothing and names its option; the option settles it.
    @Test(arguments: [
        (
            "When,Details,Amount\n2026-03-02,Cafe,-3.50\n2026-03-03,Bar,4.00\n", "sign of spending not decided",
            ["--spending", "negative"], "2026-03-02 purchase EUR 3.50 -"
        ),
        (
            "When,Details,Amount\n03/04/2026,Cafe,3.50\n04/05/2026,Bar,4.00\n03/05/2026,Shop,1.00\n02/04/2026,Taxi,9.00\n",
            "date order not decided", ["--date-format", "DD/MM/YYYY"], "2026-04-03 purchase EUR 3.50 -"
        ),
        (
            "When,Details,Amount\n2026-03-02,Cafe,\"1,234\"\n2026-03-03,Bar,12\n2026-03-04,Shop,7\n2026-03-05,Taxi,9\n",
            "decimal mark not decided", ["--decimal-mark", "."], "2026-03-02 purchase EUR 1234.00 -"
        ),
    ])
    func anOpenChoiceIsRefusedNamingTheOptionThatMakesIt(_ text: String, _ refusal: String, _ option: [String], _ row: String) throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "EUR", home: "EUR")
        let path = try Self.write(Array(text.utf8), folder)
        let refused = try trip.run("import", path)
        #expect(refused.exitCode == 65, "\(refused.stdout)")
        #expect(refused.stderr.contains(refusal) && refused.stderr.contains(option.joined(separator: " ")), "\(refused.stderr)")
        #expect(try Self.money(trip).isEmpty)
        let settled = try trip.run(["import", path] + option)
        #expect(settled.exitCode == 0, "\(settled.stderr)")
        let money = try Self.money(trip)
        #expect(money.contains(row), "\(money)")
    }

    /// `--save-profile NAME` keeps the mapping as a file the user can edit; the next statement in
    /// that layout is recognised by it, and `--profile NAME` chooses it.
    @Test func aSavedProfileRecognisesTheNextStatement() throws {
        let folder = TemporaryFolder()
        let config = folder.file("config")
        let trip = try Self.trip(folder, local: "USD", home: "USD", extra: ["XDG_CONFIG_HOME": config])
        let r = try trip.run("import", try Self.write(Array(Self.usCard.utf8), folder), "--save-profile", "my-card")
        #expect(r.exitCode == 0, "\(r.stderr)")
        let file = config + "/trip/profiles/my-card.toml"
        #expect(r.stdout.contains("saved the mapping as \(file)"), "\(r.stdout)")
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(saved.contains("date = \"Transaction Date\"\ndate_format = \"MM/DD/YYYY\"\namount = \"Amount\""), "\(saved)")
        #expect(saved.contains("spending = \"negative\""), "\(saved)")
        // The next month's file: its dates alone (all below 13) would not decide the order.
        let next = "Transaction Date,Description,Amount,Balance\n02/03/2027,MUSEUM,-18.00,982.00\n02/04/2027,CAFE,-3.00,979.00\n"
        let n = try trip.run("import", try Self.write(Array(next.utf8), folder, "next.csv"))
        #expect(n.exitCode == 0, "\(n.stderr)")
        #expect(n.stdout.hasPrefix("read as a my-card statement\n"), "\(n.stdout)")
        #expect(try Self.money(trip).contains("2027-02-03 purchase USD 18.00 -"))
        let again = try trip.run("import", try Self.write(Array(next.utf8), folder, "again.csv"), "--profile", "my-card")
        #expect(again.exitCode == 0, "\(again.stderr)")
        // An existing profile is never replaced.
        let twice = try trip.run("import", try Self.write(Array(Self.usCard.utf8), folder, "b.csv"), "--save-profile", "my-card")
        #expect(twice.exitCode == 64, "\(twice.stderr)")
    }
}
