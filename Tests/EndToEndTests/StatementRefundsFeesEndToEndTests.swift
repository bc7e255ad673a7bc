import Foundation
import TestSupport
import Testing

/// What issue 29 left after its profiles landed, through the binary: a statement's money back is a
/// refund of its purchase when exactly one fits; a fee sits beside its row; rows dated outside the
/// trip are counted in one warning on every import path; messages quote values as typed.
@Suite("End to end: statement refunds, fees, dates and messages")
struct StatementRefundsFeesEndToEndTests {
    typealias Card = CardStatementEndToEndTests

    static func purchase(_ rows: [[String: Any]], note: String, kind: String = "purchase") -> [String: Any]? {
        rows.first { $0["note"] as? String == note && $0["kind"] as? String == kind }
    }

    // MARK: refunds

    @Test func aRefundInTheSameStatementIsLinkedToItsPurchase() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "EUR")
        let r = try trip.run("import", try Card.write(Card.revolut, folder))
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\nlinked 1 refund to its purchase\n"), "\(r.stdout)")
        let rows = try Card.list(trip)
        let taxi = try #require(Self.purchase(rows, note: "Taxi"))
        let refund = try #require(Self.purchase(rows, note: "Taxi", kind: "refund"), "\(rows)")
        #expect(refund["refund_of"] as? Int == taxi["id"] as? Int)
        // The same net as before: a linked refund is money back all the same.
        #expect(try Card.net(trip) == "11.85")
        let json = try trip.run("import", try Card.write(Card.revolut, folder, "again.csv"), "--format", "json")
        #expect(json.json["refunds_linked"] as? Int == 0, "\(json.stdout)")
    }

    /// Revolut 2018: `Refund from Boots` names its merchant through the profile's `Refund from *`.
    @Test func aRefundOfAPurchaseAlreadyInTheLedgerIsLinked() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "GBP", home: "EUR")
        #expect(try trip.run("import", try Card.write(Card.revolut2018, folder)).exitCode == 0)
        let later = """
            Completed Date ; Description ; Paid Out (EUR) ; Paid In (EUR) ; Exchange Out; Exchange In; Balance (EUR); Category; Notes
            September 20 ; Refund from Boots ;  ; 4.50 ; ; ; 62.70; shopping;

            """
        let r = try trip.run("import", try Card.write(later, folder, "later.csv"))
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("linked 1 refund to its purchase"), "\(r.stdout)")
        let rows = try Card.list(trip)
        let boots = try #require(Self.purchase(rows, note: "Boots"))
        let refund = try #require(rows.first { $0["kind"] as? String == "refund" }, "\(rows)")
        #expect(refund["refund_of"] as? Int == boots["id"] as? Int)
        #expect(try Card.net(trip) == "17.30")
    }

    /// Two taxis the refund could be of, or a refund larger than its purchase: a credit, as before.
    @Test func anAmbiguousOrTooLargeRefundStaysACredit() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "EUR")
        let file = """
            Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance
            CARD_PAYMENT,Current,2026-03-01 12:30:00,2026-03-02 08:00:00,Taxi,-12.40,0.00,EUR,COMPLETED,1.00
            CARD_PAYMENT,Current,2026-03-02 12:30:00,2026-03-03 08:00:00,Taxi,-9.00,0.00,EUR,COMPLETED,1.00
            CARD_PAYMENT,Current,2026-03-02 13:30:00,2026-03-03 08:00:00,Museum,-8.00,0.00,EUR,COMPLETED,1.00
            CARD_REFUND,Current,2026-03-03 11:00:00,2026-03-04 09:00:00,Taxi,5.00,0.00,EUR,COMPLETED,1.00
            CARD_REFUND,Current,2026-03-03 11:00:00,2026-03-04 09:00:00,Museum,9.00,0.00,EUR,COMPLETED,1.00
            CARD_REFUND,Current,2026-02-03 11:00:00,2026-02-04 09:00:00,Museum,1.00,0.00,EUR,COMPLETED,1.00

            """
        let r = try trip.run("import", try Card.write(file, folder))
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("linked"), "\(r.stdout)")
        let rows = try Card.list(trip)
        #expect(rows.filter { $0["kind"] as? String == "credit" }.count == 3, "\(rows)")
        #expect(!rows.contains { $0["kind"] as? String == "refund" })
    }

    // MARK: fees

    /// A fee column's amount is the purchase right after its row's, same date, `fee: ` and the
    /// row's description; a row that is not spending (an exchange) still has its fee imported.
    @Test func feesSitBesideTheirRowEvenOnRowsThatAreNotSpending() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "EUR")
        let file = """
            Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance
            CARD_PAYMENT,Current,2026-03-02 6:11:59,2026-03-03 08:00:00,Taxi,-12.40,0.25,EUR,COMPLETED,183.15
            EXCHANGE,Current,2026-03-07 10:00:00,2026-03-07 10:00:00,Exchanged to GBP,-50.00,0.50,EUR,COMPLETED,133.15
            CARD_PAYMENT,Current,2026-03-08 12:30:00,2026-03-08 12:30:00,Pastelaria,-4.20,0.00,EUR,COMPLETED,128.95

            """
        let r = try trip.run("import", try Card.write(file, folder))
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("imported 4 purchases"), "\(r.stdout)")
        #expect(r.stdout.contains("skipped 1 row: 1 exchange"), "\(r.stdout)")
        let rows = try Card.list(trip)
        let taxi = try #require(Self.purchase(rows, note: "Taxi"))
        let taxiFee = try #require(Self.purchase(rows, note: "fee: Taxi"), "\(rows)")
        #expect(taxiFee["id"] as? Int == (taxi["id"] as? Int).map { $0 + 1 })
        #expect(taxiFee["date"] as? String == taxi["date"] as? String && taxiFee["category"] as? String == "fees")
        let exchangeFee = try #require(Self.purchase(rows, note: "fee: Exchanged to GBP"), "\(rows)")
        #expect(exchangeFee["price"] as? String == "0.50" && exchangeFee["date"] as? String == "2026-03-07")
        #expect(exchangeFee["category"] as? String == "fees")
        #expect(try Card.net(trip) == "17.35")
    }

    // MARK: rows outside the trip's dates

    @Test func theExportFormatWarnsOnceForRowsOutsideTheTrip() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("a.sqlite"), today: "2026-11-25")
        try #require(trip.run("new", "Trip", "--currency", "EUR", "--home", "EUR", "--start", "2026-03-02", "--end", "2026-03-09").exitCode == 0)
        for (amount, date) in [("4", "2026-03-01"), ("5", "2026-03-03"), ("6", "2026-03-10")] {
            #expect(try trip.run("add", amount, "--date", date).exitCode == 0)
        }
        let csv = try trip.run("export", "--format", "csv")
        let file = try Card.write(csv.stdout, folder, "export.csv")
        let other = TripProcess(ledgerPath: folder.file("b.sqlite"), today: "2026-11-25")
        try #require(other.run("new", "Trip", "--currency", "EUR", "--home", "EUR", "--start", "2026-03-02", "--end", "2026-03-09").exitCode == 0)
        let r = try other.run("import", file)
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("imported 3 purchases"), "\(r.stdout)")
        #expect(r.stderr == "warning: 2 rows are dated outside Trip (from 2026-03-02 to 2026-03-09); imported all the same\n")
    }

    @Test func aSplitwiseExportWarnsOnceForRowsOutsideTheTrip() throws {
        let folder = TemporaryFolder()
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2026-11-25")
        try #require(trip.run("new", "Lisbon", "--currency", "EUR", "--home", "EUR", "--start", "2026-03-02").exitCode == 0)
        let file = try Card.write(
            """
            Date,Description,Category,Cost,Currency,Ana,Ben
            2026-03-01,Dinner,Dining out,90.00,EUR,45.00,-45.00
            2026-03-02,Taxi,Taxi,10.00,EUR,-5.00,5.00

            2026-03-05,Total balance, , ,EUR,40.00,-40.00

            """, folder, "splitwise.csv")
        let r = try trip.run("import", file, "--splitwise")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stderr == "warning: 1 row is dated outside Lisbon (from 2026-03-02); imported all the same\n")
    }

    // MARK: values as typed

    @Test func aChargedAmountErrorQuotesWhatTheStatementSays() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "EUR")
        let path = try Card.write("Date;Amount;Billed\n2026-03-02;10,00;12,5\n", folder)
        let r = try trip.run(
            "import", path, "--date-column", "Date", "--amount-column", "Amount", "--charged-column", "Billed", "--currency", "EUR")
        #expect(r.exitCode == 65)
        #expect(r.stderr.contains("column Billed: \"12,5\" is not the total"), "\(r.stderr)")
    }
}
