import Foundation
import TestSupport
import Testing

/// What issue 37 left last: PayPal's Fee column, PayPal's German download, Curve's current export
/// and N26's older layouts, each through the binary in the exact layout a public importer's fixture
/// shows (named beside each), with invented rows.
@Suite("End to end: PayPal fees, German PayPal, Curve, older N26")
struct RealLayoutLastEndToEndTests {
    typealias Card = CardStatementEndToEndTests

    static func row(_ trip: TripProcess, note: String, kind: String = "purchase") throws -> [String: Any]? {
        try Card.list(trip).first { $0["note"] as? String == note && $0["kind"] as? String == kind }
    }

    // MARK: PayPal's Fee column

    /// PayPal writes Gross, Fee and Net signed as the account's money, Net = Gross + Fee: a personal
    /// payment the traveller sent with its fee (`-100.00, -3.20, -103.20`), a payment received from
    /// a friend whose fee PayPal took (`30.00, -1.17, 28.83`), and the sent payment refunded with its
    /// fee given back (`100.00, 3.20, 103.20`). Layout: OCA/bank-statement-import,
    /// account_statement_import_paypal/tests/fixtures/activity_en.csv.
    static let paypalFees = """
        Date,Time,TimeZone,Name,Type,Status,Currency,Gross,Fee,Net,From Email Address,To Email Address,Transaction ID,Address Status,Sales Tax,Reference Txn ID,Invoice Number,Receipt ID,Balance,Contact Phone Number,Subject,Note
        13/07/2026,09:12:40,CEST,Hostel Lisboa,Express Checkout Payment,Completed,EUR,-45.00,0.00,-45.00,me@example.com,stay@hostel.example,3FE01,Confirmed,0,,H-31,,-45.00,,Two nights,
        14/07/2026,20:01:05,CEST,Ana Costa,General Payment,Completed,EUR,-100.00,-3.20,-103.20,me@example.com,ana@example.com,3FE02,,0,,,,-148.20,,Surf lessons,
        16/07/2026,11:30:00,CEST,Rui Santos,General Payment,Completed,EUR,30.00,-1.17,28.83,rui@example.com,me@example.com,3FE03,,0,,,,-119.37,,Dinner share,
        19/07/2026,16:45:12,CEST,Ana Costa,Payment Refund,Completed,EUR,100.00,3.20,103.20,ana@example.com,me@example.com,3FE04,,0,3FE02,,,-16.17,,Surf lessons,

        """

    /// Before, the Fee column was ignored: no fee line, and the net 3.20 + 1.17 short of what PayPal took.
    @Test func paypalFeesAreLinesBesideTheirRowsSignedAsPayPalWritesThem() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "EUR")
        try Card.imported(trip, try Card.write(Self.paypalFees, folder), readAs: "a PayPal statement", saying: ["imported 7 purchases"])
        let rows = try Card.list(trip)
        func row(_ note: String, _ kind: String = "purchase") -> [String: Any]? {
            rows.first { $0["note"] as? String == note && $0["kind"] as? String == kind }
        }
        let sent = try #require(row("Ana Costa"), "\(rows)")
        #expect(sent["price"] as? String == "100.00")
        let sentFee = try #require(row("fee: Ana Costa"), "\(rows)")
        #expect(sentFee["price"] as? String == "3.20" && sentFee["category"] as? String == "fees")
        #expect(sentFee["id"] as? Int == (sent["id"] as? Int).map { $0 + 1 } && sentFee["date"] as? String == "2026-07-14")
        // A payment received: money in, and the fee PayPal took from it spent.
        #expect(row("Rui Santos", "credit")?["price"] as? String == "30.00", "\(rows)")
        #expect(row("fee: Rui Santos")?["price"] as? String == "1.17", "\(rows)")
        // The refund is linked to the payment; its fee given back is money back in fees.
        #expect(row("Ana Costa", "refund")?["refund_of"] as? Int == sent["id"] as? Int, "\(rows)")
        let back = try #require(row("fee: Ana Costa", "credit"), "\(rows)")
        #expect(back["price"] as? String == "3.20" && back["category"] as? String == "fees")
        // 45.00 + 100.00 + 3.20 - 30.00 + 1.17 - 100.00 - 3.20: what left the PayPal balance
        #expect(try Card.net(trip) == "16.17")
    }

    /// A fee that does not add up (`Fee` written positive though `Net` took it) is not guessed at.
    @Test func aPayPalRowWhoseFeeDoesNotAddUpIsRefusedNamingIt() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "EUR")
        let file = Self.paypalFees.replacingOccurrences(of: "-100.00,-3.20,-103.20", with: "-100.00,3.20,-103.20")
        let r = try trip.run("import", try Card.write(file, folder))
        #expect(r.exitCode == 65, "\(r.stdout)")
        #expect(r.stderr.contains("row 2, column Fee: \"3.20\" is not understood"), "\(r.stderr)")
        #expect(r.stderr.contains("Gross \"-100.00\"") && r.stderr.contains("Net \"-103.20\""), "\(r.stderr)")
        #expect(try Card.list(trip).isEmpty)
    }

    /// A refund the traveller sent (they refund Rui's payment: `Payment Refund` with money going out)
    /// is not money back. Before, it was read as a refund of 30.00 to the traveller, with exit 0.
    @Test func aRefundTheTravellerSentIsRefusedNotCountedAsMoneyBack() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "EUR")
        let file = Self.paypalFees.replacingOccurrences(
            of: "19/07/2026,16:45:12,CEST,Ana Costa,Payment Refund,Completed,EUR,100.00,3.20,103.20,ana@example.com,me@example.com,3FE04,,0,3FE02",
            with: "19/07/2026,16:45:12,CEST,Rui Santos,Payment Refund,Completed,EUR,-30.00,0.00,-30.00,me@example.com,rui@example.com,3FE04,,0,3FE03")
        try #require(file != Self.paypalFees)
        let refused = try trip.run("import", try Card.write(file, folder))
        #expect(refused.exitCode == 65, "\(refused.stdout)")
        #expect(refused.stderr.contains("row 4, column Gross: \"-30.00\""), "\(refused.stderr)")
        #expect(refused.stderr.contains("is money going out on a refund row (\"Payment Refund\")"), "\(refused.stderr)")
        #expect(try Card.list(trip).isEmpty)
        let rest = try trip.run("import", "--skip-bad-rows", try Card.write(file, folder))
        #expect(rest.exitCode == 0, "\(rest.stderr)")
        #expect(try Self.row(trip, note: "Rui Santos", kind: "refund") == nil)
        #expect(try Self.row(trip, note: "Rui Santos", kind: "credit")?["price"] as? String == "30.00")
    }

    // MARK: PayPal in German

    /// The columns of PayPal's German activity download, in its order (41, every one quoted).
    /// Layout: replikativ/kontor, modules/bank-de/test/resources/paypal.csv (`DD.MM.YYYY`, decimal
    /// commas, `Abgeschlossen` / `Ausstehend`, holds and their release, `Auswirkung auf Guthaben`).
    static let paypalGermanColumns = [
        "Datum", "Uhrzeit", "Zeitzone", "Name", "Typ", "Status", "Währung", "Brutto", "Gebühr", "Netto", "Absender E-Mail-Adresse",
        "Empfänger E-Mail-Adresse", "Transaktionscode", "Lieferadresse", "Adress-Status", "Artikelbezeichnung", "Artikelnummer",
        "Versand- und Bearbeitungsgebühr", "Versicherungsbetrag", "Umsatzsteuer", "Option 1 Name", "Option 1 Wert", "Option 2 Name",
        "Option 2 Wert", "Zugehöriger Transaktionscode", "Rechnungsnummer", "Zollnummer", "Anzahl", "Empfangsnummer", "Guthaben",
        "Adresszeile 1", "Adresszusatz", "Ort", "Bundesland", "PLZ", "Land", "Telefon", "Betreff", "Hinweis", "Ländervorwahl",
        "Auswirkung auf Guthaben",
    ]

    /// One row of the German download: the cells given by column, the others empty, all quoted.
    static func paypalGermanRow(_ cells: [String: String]) -> String {
        paypalGermanColumns.map { "\"\(cells[$0] ?? "")\"" }.joined(separator: ",")
    }

    static func paypalGermanRow(
        _ date: String, _ name: String, _ type: String, _ status: String, _ currency: String, _ gross: String, fee: String = "0,00",
        net: String? = nil, id: String, of: String = "", impact: String
    ) -> String {
        paypalGermanRow([
            "Datum": date, "Uhrzeit": "10:15:02", "Zeitzone": "CEST", "Name": name, "Typ": type, "Status": status, "Währung": currency,
            "Brutto": gross, "Gebühr": fee, "Netto": net ?? gross, "Transaktionscode": id, "Zugehöriger Transaktionscode": of,
            "Auswirkung auf Guthaben": impact,
        ])
    }

    /// A USD payment paid from euros (two `Allgemeine Währungsumrechnung` legs naming it), a hold
    /// and its release, a top-up from the bank, and a friend's payment whose fee PayPal took.
    static let paypalGerman =
        ([paypalGermanColumns.map { "\"\($0)\"" }.joined(separator: ",")]
        + [
            paypalGermanRow(
                "03.08.2026", "Deutsche Bahn AG", "PayPal Express-Zahlung", "Abgeschlossen", "EUR", "-29,90", id: "6TX01", impact: "Soll"),
            paypalGermanRow(
                "04.08.2026", "Blue Bottle Coffee Inc.", "PayPal Express-Zahlung", "Abgeschlossen", "USD", "-25,00", id: "6TX02", impact: "Soll"),
            paypalGermanRow(
                "04.08.2026", "", "Allgemeine Währungsumrechnung", "Abgeschlossen", "USD", "25,00", id: "6TX03", of: "6TX02", impact: "Haben"),
            paypalGermanRow(
                "04.08.2026", "", "Allgemeine Währungsumrechnung", "Abgeschlossen", "EUR", "-23,10", id: "6TX04", of: "6TX02", impact: "Soll"),
            paypalGermanRow(
                "05.08.2026", "PayPal", "Einbehaltung für offene Autorisierung", "Ausstehend", "EUR", "-13,21", id: "6TX05", impact: "Soll"),
            paypalGermanRow(
                "05.08.2026", "PayPal", "Rückbuchung allgemeiner Einbehaltung", "Abgeschlossen", "EUR", "13,21", id: "6TX06", of: "6TX05",
                impact: "Haben"),
            paypalGermanRow(
                "06.08.2026", "PayPal Inc.", "Überweisung als Zahlungsquelle", "Abgeschlossen", "EUR", "100,00", id: "6TX07", impact: "Haben"),
            paypalGermanRow(
                "07.08.2026", "Lena Becker", "Allgemeine Zahlung", "Abgeschlossen", "EUR", "40,00", fee: "-1,71", net: "38,29", id: "6TX08",
                impact: "Haben"),
        ]).joined(separator: "\n") + "\n"

    /// Before, no profile knew the German header.
    @Test func paypalInGerman() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "USD", home: "EUR")
        try Card.imported(
            trip, try Card.write(Self.paypalGerman, folder), readAs: "a PayPal statement",
            saying: ["imported 4 purchases", "skipped 5 rows: 2 exchanges, 1 hold, 1 pending, 1 top-up"])
        let bahn = try Self.row(trip, note: "Deutsche Bahn AG")
        #expect(bahn?["date"] as? String == "2026-08-03" && bahn?["price"] as? String == "29.90", "\(String(describing: bahn))")
        let coffee = try Self.row(trip, note: "Blue Bottle Coffee Inc.")
        #expect(coffee?["currency"] as? String == "USD" && coffee?["price"] as? String == "25.00")
        #expect(coffee?["charged"] as? String == "23.10", "\(String(describing: coffee))")
        #expect(try Self.row(trip, note: "fee: Lena Becker")?["price"] as? String == "1.71")
        // 29.90 + 23.10 - 40.00 + 1.71
        #expect(try Card.net(trip) == "14.71")
    }

    // MARK: Curve

    /// Curve's export as the app writes it now: plain commas, `Time (HH:MM:SS as UTC)`, a `Fees`
    /// column of text (the weekend fee is in the funding card's amount already), a foreign spend,
    /// and Curve Cash earned (`Curve Cash: …` in points, `CPT`). Layout: the Curve app export in
    /// importers' tests (the fourteen columns of a Kotlin ledger's `transactionsHeaders`, a Python
    /// budget app's `test_curve_app_export_parser`); CumpsD/financial-converter,
    /// src/FinancialConverter/Statements/CurveStatement.cs, has the older header with `, `.
    static let curveCurrent = """
        Export Format,Date (YYYY-MM-DD as UTC),Time (HH:MM:SS as UTC),Merchant,Txn Amount (Funding Card),Txn Currency (Funding Card),Txn Amount (Foreign Spend),Txn Currency (Foreign Spend),Card Name,Card Last 4 Digits,Type,Category,Notes,Fees
        CSV,2026-05-02,09:14:55,Pret A Manger,6.45,GBP,,,Visa Debit,8480,Personal,Food & Drink,,
        CSV,2026-05-03,19:40:12,Trattoria Da Enzo,41.86,GBP,48.00,EUR,Visa Debit,8480,Personal,Food & Drink,,Weekend Currency Conversion Fee: £0.48
        CSV,2026-05-04,08:00:00,Curve Cash: Pret A Manger,25,CPT,,,Curve Cash,,,,,

        """

    /// The dinner logged in euros on the trip gets the pounds the funding card paid; the coffee
    /// never logged is added; the points earned are not spending. Before, the `CPT` row refused the file.
    @Test func curveAsTheAppWritesItNowReconcilesWithWhatWasLogged() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "GBP")
        #expect(try trip.run("add", "48", "EUR", "--date", "2026-05-03", "--note", "dinner").exitCode == 0)
        try Card.imported(
            trip, try Card.write(Self.curveCurrent, folder), readAs: "a Curve statement",
            saying: ["matched 1 (charged set), added 1, ambiguous 0, skipped 1 (1 cashback)"])
        let rows = try Card.list(trip)
        #expect(rows.count == 2, "\(rows)")
        let dinner = try Self.row(trip, note: "dinner")
        #expect(dinner?["currency"] as? String == "EUR" && dinner?["price"] as? String == "48.00", "\(rows)")
        #expect(dinner?["charged"] as? String == "41.86", "\(rows)")
        #expect(try Self.row(trip, note: "Pret A Manger")?["price"] as? String == "6.45")
        #expect(try Card.net(trip) == "48.31")
        let again = try trip.run("import", try Card.write(Self.curveCurrent, folder, "again.csv"))
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(try Card.list(trip).count == 2)
    }

    /// A purchase paid with Curve Cash is in points (`180`, `CPT`) beside the merchant's pounds: no
    /// currency says what the traveller paid, so the row is refused by name, not guessed; the
    /// others import with `--skip-bad-rows`.
    @Test func aCurvePurchasePaidWithPointsIsRefusedNamingItsRow() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "GBP")
        let file = Self.curveCurrent + "CSV,2026-05-05,12:00:00,Bexley Ringo Ecom,180,CPT,1.8,GBP,Curve Cash,,Personal,Travel,,\n"
        let path = try Card.write(file, folder)
        let r = try trip.run("import", path)
        #expect(r.exitCode == 65, "\(r.stdout)")
        #expect(r.stderr.contains("row 4") && r.stderr.contains("CPT"), "\(r.stderr)")
        #expect(try Card.list(trip).isEmpty)
        let rest = try trip.run("import", path, "--skip-bad-rows")
        #expect(rest.exitCode == 0, "\(rest.stderr)")
        #expect(try Card.list(trip).count == 2)
    }

    // MARK: N26, older layouts

    /// N26's export before 2024 in German: the same columns as the English one, translated, every
    /// cell quoted, ISO dates, decimal points; `Lastschrift` is a direct debit (spending),
    /// `Überweisung` and `Gutschrift` transfers out and in. Layout: siddhantgoel/beancount-n26,
    /// beancount_n26/__init__.py (`HEADER_FIELDS["de"]`); the quoted `"MasterCard Zahlung"` row as
    /// in Nef10/SwiftBeanCountImporter's N26 importer tests.
    static let n26German = """
        "Datum","Empfänger","Kontonummer","Transaktionstyp","Verwendungszweck","Kategorie","Betrag (EUR)","Betrag (Fremdwährung)","Fremdwährung","Wechselkurs"
        "2019-10-11","CAFE DE FLORE","","MasterCard Zahlung","","Sonstiges","-9.9","","",""
        "2019-10-12","TACO STAND","","MasterCard Zahlung","","Sonstiges","-13.95","-320.0","MXN","22.9391"
        "2019-10-14","Stadtwerke Berlin","DE89370400440532013000","Lastschrift","Abschlag Oktober","Sonstiges","-60.0","","",""
        "2019-10-15","Muster GmbH","DE99999999999999999999","Überweisung","Miete Oktober","Sonstiges","-500.0","","",""
        "2019-10-16","MAX MUSTERMANN","DE99999999999999999999","Gutschrift","Essen","Sonstiges","25.0","","",""

        """

    /// Before, no profile knew the German header.
    @Test func n26OlderLayoutInGerman() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "MXN", home: "EUR")
        try Card.imported(
            trip, try Card.write(Self.n26German, folder), readAs: "an N26 statement", saying: ["imported 3 purchases", "skipped 2 rows: 2 transfers"])
        let taco = try Self.row(trip, note: "TACO STAND")
        #expect(taco?["currency"] as? String == "MXN" && taco?["price"] as? String == "320.00")
        #expect(taco?["charged"] as? String == "13.95", "\(String(describing: taco))")
        #expect(try Self.row(trip, note: "Stadtwerke Berlin")?["price"] as? String == "60.00")
        // 9.90 + 13.95 + 60.00
        #expect(try Card.net(trip) == "83.85")
    }

    /// The English export before 2024 writes a merchant paid by direct debit as `Direct Debit` (a
    /// utility's monthly instalment, with its IBAN, as importers' fixtures of that layout show):
    /// spending. Before, it was skipped as a card settlement. Layout: siddhantgoel/beancount-n26,
    /// `HEADER_FIELDS["en"]` and tests/test_n26_importer.py (every cell quoted).
    static let n26DirectDebit = """
        "Date","Payee","Account number","Transaction type","Payment reference","Category","Amount (EUR)","Amount (Foreign Currency)","Type Foreign Currency","Exchange Rate"
        "2019-10-11","CAFE DE FLORE","","MasterCard Payment","","Bars & Restaurants","-9.90","","",""
        "2019-10-14","Stadtwerke Berlin","DE89370400440532013000","Direct Debit","Abschlag Oktober","Household & Utilities","-60.0","","",""

        """

    @Test func n26OlderEnglishDirectDebitIsSpending() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "EUR")
        let r = try trip.run("import", try Card.write(Self.n26DirectDebit, folder))
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("imported 2 purchases"), "\(r.stdout)")
        #expect(!r.stdout.contains("card settlement"), "\(r.stdout)")
        #expect(try Self.row(trip, note: "Stadtwerke Berlin")?["price"] as? String == "60.00")
        #expect(try Card.net(trip) == "69.90")
    }
}
