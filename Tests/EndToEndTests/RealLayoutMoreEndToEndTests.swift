import Foundation
import TestSupport
import Testing

/// More card statements in the exact layouts banks write (issue 37), each recognised by its header
/// alone: header text, delimiter, quoting, preamble, encoding and date forms as public importers'
/// fixtures show them (each layout names where), with invented rows. The layouts are `static let`s
/// so the inference tests can read them with their profile removed.
@Suite("End to end: more real statement layouts")
struct RealLayoutMoreEndToEndTests {
    typealias Card = CardStatementEndToEndTests

    static func row(_ trip: TripProcess, note: String) throws -> [String: Any]? {
        try Card.list(trip).first { $0["note"] as? String == note }
    }

    /// Lloyds: the header ends in a `,` the rows do not have, Debit Amount and Credit Amount
    /// unsigned (a whole pound written `2000`), the sort code with a leading apostrophe, the
    /// description padded with spaces. Layout: Metasaura/ofxstatement-lloyds,
    /// tests/sample-statement.csv.
    static let lloyds = """
        Transaction Date,Transaction Type,Sort Code,Account Number,Transaction Description,Debit Amount,Credit Amount,Balance,
        28/03/2026,FPI,'30-91-74,02344812,A FRIEND DINNER SPLIT 28MAR26 ,,20,1204.61
        27/03/2026,DEB,'30-91-74,02344812,PRET A MANGER    CD 1417 ,6.45,,1184.61
        26/03/2026,DD,'30-91-74,02344812,VODAFONE ROAMING ,12.00,,1191.06
        25/03/2026,DEB,'30-91-74,02344812,PRET A MANGER    CD 1417 ,,6.45,1203.06

        """

    @Test func lloydsLayout() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "GBP", home: "GBP")
        try Card.imported(
            trip, try Card.write(Self.lloyds, folder), readAs: "a Lloyds statement", saying: ["imported 3 purchases", "skipped 1 row: 1 transfer"])
        #expect(try Self.row(trip, note: "VODAFONE ROAMING")?["date"] as? String == "2026-03-26")
        // 6.45 + 12.00 - 6.45
        #expect(try Card.net(trip) == "12.00")
    }
    // MARK: PayPal

    /// PayPal's activity download: a USD payment paid from EUR is three rows, the payment and a
    /// conversion in two legs whose Reference Txn ID is the payment's Transaction ID; a payment the
    /// conversion paid only in part keeps no charge. Layout: OCA/bank-statement-import,
    /// account_statement_import_paypal/tests/fixtures/activity_en.csv (unquoted, DD/MM/YYYY, `84`
    /// without decimals, the conversion legs before the payment).
    static let paypal = """
        Date,Time,TimeZone,Name,Type,Status,Currency,Gross,Fee,Net,From Email Address,To Email Address,Transaction ID,Address Status,Sales Tax,Reference Txn ID,Invoice Number,Receipt ID,Balance,Contact Phone Number,Subject,Note
        22/06/2026,02:43:36,PDT,,General Currency Conversion,Completed,EUR,-13.92,0,-13.92,me@example.com,,7KX01,,0,7KX03,DC-1,,0,,Dinner,
        22/06/2026,02:43:36,PDT,,General Currency Conversion,Completed,USD,15,0,15,,me@example.com,7KX02,,0,7KX03,DC-1,,15,,Dinner,
        22/06/2026,02:43:36,PDT,Diner Corner,Express Checkout Payment,Completed,USD,-15,0,-15,me@example.com,shop@diner.example,7KX03,Confirmed,0,,DC-1,,0,,Dinner,
        23/06/2026,10:05:10,PDT,Museum Shop,Website Payment,Completed,EUR,-20.50,0,-20.50,me@example.com,shop@museum.example,7KX04,Confirmed,0,,M-77,,-20.50,,Tickets,
        23/06/2026,10:05:10,PDT,,Bank Deposit to PP Account ,Completed,EUR,20.50,0,20.50,,me@example.com,7KX05,,0,7KX04,M-77,,0,,Tickets,
        24/06/2026,18:30:00,PDT,,General Currency Conversion,Completed,EUR,-4.64,0,-4.64,me@example.com,,7KX06,,0,7KX08,,,0,,Taxi,
        24/06/2026,18:30:00,PDT,,General Currency Conversion,Completed,USD,5,0,5,,me@example.com,7KX07,,0,7KX08,,,8.40,,Taxi,
        24/06/2026,18:30:00,PDT,City Taxi,Express Checkout Payment,Completed,USD,-8.40,0,-8.40,me@example.com,taxi@example.com,7KX08,Confirmed,0,,,,0,,Taxi,

        """

    @Test func paypalPaymentIsChargedWhatItsConversionTook() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "USD", home: "EUR")
        try Card.imported(
            trip, try Card.write(Self.paypal, folder), readAs: "a PayPal statement",
            saying: ["imported 3 purchases", "skipped 5 rows: 4 exchanges, 1 top-up"])
        let diner = try Self.row(trip, note: "Diner Corner")
        #expect(diner?["date"] as? String == "2026-06-22")
        #expect(diner?["currency"] as? String == "USD" && diner?["price"] as? String == "15.00")
        #expect(diner?["charged"] as? String == "13.92", "\(String(describing: diner))")
        #expect(try Self.row(trip, note: "Museum Shop")?["price"] as? String == "20.50")
        // Paid partly from a USD balance: the conversion does not say what the payment cost.
        let taxi = try Self.row(trip, note: "City Taxi")
        #expect(taxi?["currency"] as? String == "USD" && taxi?["price"] as? String == "8.40")
        #expect(taxi?["charged"] == nil || taxi?["charged"] is NSNull, "\(String(describing: taxi))")
    }

    /// The same download with every cell quoted and decimal commas (an account set to a European
    /// country), the bank's pending deposit beside the payment it paid for. Layout: a beangulp
    /// PayPal importer's tests (`test_currency_conversion`, module `beangulp_paypal`).
    static let paypalQuoted = """
        "Date","Time","TimeZone","Name","Type","Status","Currency","Gross","Fee","Net","From Email Address","To Email Address","Transaction ID","Reference Txn ID","Receipt ID","Balance","Subject"
        "13/08/2026","07:00:00","PDT","Grocery Store","PreApproved Payment Bill User Payment","Completed","USD","-15,00","0,00","-15,00","me@example.com","shop@grocery.example","5TX2343","B-9934","","-15,00","Apples and eggs"
        "13/08/2026","07:00:00","PDT","","Bank Deposit to PP Account ","Pending","EUR","13,92","0,00","13,92","","me@example.com","5TX2344","5TX2343","","13,92","Apples and eggs"
        "13/08/2026","07:00:00","PDT","","General Currency Conversion","Completed","EUR","-13,92","0,00","-13,92","me@example.com","","5TX2345","5TX2343","","0,00","Apples and eggs"
        "13/08/2026","07:00:00","PDT","","General Currency Conversion","Completed","USD","15,00","0,00","15,00","","me@example.com","5TX2346","5TX2343","","0,00","Apples and eggs"

        """

    @Test func paypalQuotedWithDecimalCommas() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "USD", home: "EUR")
        try Card.imported(
            trip, try Card.write(Self.paypalQuoted, folder), readAs: "a PayPal statement",
            saying: ["imported 1 purchase", "skipped 3 rows: 2 exchanges, 1 pending"])
        let grocery = try Self.row(trip, note: "Grocery Store")
        #expect(grocery?["date"] as? String == "2026-08-13")
        #expect(grocery?["currency"] as? String == "USD" && grocery?["price"] as? String == "15.00")
        #expect(grocery?["charged"] as? String == "13.92", "\(String(describing: grocery))")
    }

    // MARK: Wise

    /// Wise's multi-currency transaction history: unsigned amounts with a Direction, a card payment
    /// paid from the EUR balance (13.25 EUR for 14.38 USD, a 0.07 EUR fee apart), one paid from the
    /// USD balance, an exchange between the account's own balances (NEUTRAL, with its fee), a
    /// cancelled transfer. Rows as in BeanyLedger/Beany, importers/test/fixtures/wise_0.dart; the
    /// columns as jeremychia/personal-finances-dbt reads them.
    static let wiseHistory = """
        ID,Status,Direction,"Created on","Finished on","Source fee amount","Source fee currency","Target fee amount","Target fee currency","Source name","Source amount (after fees)","Source currency","Target name","Target amount (after fees)","Target currency","Exchange rate",Reference,Batch
        "CARD_TRANSACTION-1279770001",COMPLETED,OUT,"2026-02-26 12:13:29","2026-02-26 12:13:29",0.07,EUR,,,"Ana Traveller",13.25,EUR,"Blue Bottle Coffee",14.38,USD,1.08530000,,
        "CARD_TRANSACTION-1352810002",COMPLETED,OUT,"2026-03-01 18:55:30","2026-03-01 18:55:30",0.00,USD,,,"Ana Traveller",8.90,USD,"Yellow Cab",8.90,USD,1.00000000,,
        "BALANCE_TRANSACTION-1734930003",COMPLETED,NEUTRAL,"2026-02-24 23:56:13","2026-02-24 23:56:13",1.52,EUR,,,"Ana Traveller",298.48,EUR,"Ana Traveller",320.00,USD,1.07210000,,
        TRANSFER-996240004,COMPLETED,IN,"2026-02-20 18:06:56","2026-02-20 18:07:02",0.00,EUR,,,"Ana Traveller",300.00,EUR,"Ana Traveller",300.00,EUR,1.0,,
        TRANSFER-996240005,CANCELLED,OUT,"2026-02-21 09:00:00","2026-02-21 09:00:00",0.00,EUR,,,"Ana Traveller",50.00,EUR,"Landlord",50.00,EUR,1.0,,

        """

    @Test func wiseTransactionHistory() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "USD", home: "EUR")
        try Card.imported(
            trip, try Card.write(Self.wiseHistory, folder), readAs: "a Wise (transaction history) statement",
            saying: ["skipped 3 rows: 1 cancelled, 1 exchange, 1 transfer"])
        let coffee = try Self.row(trip, note: "Blue Bottle Coffee")
        #expect(coffee?["date"] as? String == "2026-02-26")
        #expect(coffee?["currency"] as? String == "USD" && coffee?["price"] as? String == "14.38")
        #expect(coffee?["charged"] as? String == "13.25", "\(String(describing: coffee))")
        let cab = try Self.row(trip, note: "Yellow Cab")
        #expect(cab?["currency"] as? String == "USD" && cab?["price"] as? String == "8.90")
        let fees = try Card.list(trip).filter { $0["category"] as? String == "fees" }
        #expect(fees.compactMap { $0["price"] as? String }.sorted() == ["0.07", "1.52"], "\(fees)")
    }

    /// Wise's balance statement as the ledger_cli Dart app reads it: `Total fees` last and no
    /// `Exchange To Amount`, so a GBP payment from the EUR balance is its EUR amount. Layout:
    /// amos-joshua/ledger_cli_dart, test/core/test_formats.dart (`dd-mm-y`, the description in
    /// column 13) and its tests' Wise rows.
    static let wiseBalance = """
        TransferWise ID,Date,Amount,Currency,Description,Payment Reference,Running Balance,Exchange From,Exchange To,Exchange Rate,Payer Name,Payee Name,Payee Account Number,Merchant,Card Last Four Digits,Card Holder Full Name,Attachment,Note,Total fees
        CARD-58213,08-01-2026,-4.99,EUR,Card transaction of 4.99 EUR issued by Cafe Nero,,146.65,,,,,,,Cafe Nero,1234,Ana Traveller,,,0
        CARD-58214,06-01-2026,-40.88,EUR,Card transaction of 35.98 GBP issued by Tesco,,151.64,EUR,GBP,0.88025,,,,Tesco,1234,Ana Traveller,,,0.31
        TRANSFER-9911,04-01-2026,200.00,EUR,Received money from Ana Traveller,,192.52,,,,Ana Traveller,,,,,,,,0

        """

    @Test func wiseBalanceStatementWithoutExchangeToAmount() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "EUR")
        try Card.imported(
            trip, try Card.write(Self.wiseBalance, folder), readAs: "a Wise statement", saying: ["imported 2 purchases", "skipped 1 row: 1 transfer"])
        #expect(try Self.row(trip, note: "Card transaction of 35.98 GBP issued by Tesco")?["date"] as? String == "2026-01-06")
        #expect(try Card.net(trip) == "45.87")
    }

    // MARK: bunq

    /// bunq: `;`, every cell quoted, decimal commas with `.` between thousands, no currency column.
    /// Layout: VibeNL/GhostfolioSidekick, GhostfolioSidekick.UnitTests/FileImporter/TestFiles/Bunq/
    /// Example1/Example1.csv (`"1.000,00"`, `bunq Payday … EUR`).
    static let bunq = """
        "Date";"Interest Date";"Amount";"Account";"Counterparty";"Name";"Description"
        "2026-07-21";"2026-07-21";"-1.250,00";"NL00BUNQ0123456789";"";"Hotel Kaiserhof";"Hotel Kaiserhof WIEN, AT"
        "2026-07-22";"2026-07-22";"-12,80";"NL00BUNQ0123456789";"";"Cafe Central";"Cafe Central WIEN, AT"
        "2026-07-23";"2026-07-23";"3,50";"NL00BUNQ0123456789";"NL00BUNQ0123456789";"bunq";"bunq Payday 2026-07-23 EUR"
        "2026-07-24";"2026-07-24";"12,80";"NL00BUNQ0123456789";"";"Cafe Central";"Cafe Central WIEN, AT"

        """

    @Test func bunqWithDecimalCommas() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "EUR")
        try Card.imported(trip, try Card.write(Self.bunq, folder), readAs: "a bunq statement", saying: ["skipped 1 row: 1 interest"])
        #expect(try Self.row(trip, note: "Hotel Kaiserhof")?["price"] as? String == "1250.00")
        #expect(try Self.row(trip, note: "Hotel Kaiserhof")?["date"] as? String == "2026-07-21")
        // 1,250.00 + 12.80 - 12.80 (the café's refund)
        #expect(try Card.net(trip) == "1250.00")
    }

    // MARK: comdirect

    /// comdirect's download holding the current account and the Visa card, in ISO-8859-1: a `;`
    /// line, each account's own preamble, `;` after every cell, `offen` for a row not booked yet,
    /// the Visa card's table below the account's. Layout: pb-/beancount-comdirect,
    /// tests/test_multi_importer.py and beancount_comdirect/multi_importer.py (ISO-8859-1, `offen`).
    static let comdirect = RealLayoutEndToEndTests.cp1252(
        """
        ;
        "Umsätze Girokonto";"Zeitraum: 01.12.2025 - 10.01.2026";
        "Neuer Kontostand";"1.134,11 EUR";

        "Buchungstag";"Wertstellung (Valuta)";"Vorgang";"Buchungstext";"Umsatz in EUR";
        "offen";"offen";"Lastschrift / Belastung";"Auftraggeber: Bäckerei Müller Buchungstext: Brötchen";"-4,50";
        "06.01.2026";"06.01.2026";"Lastschrift / Belastung";"Auftraggeber: Café Größenwahn Buchungstext: Frühstück Ref. AA00000000000001/0001";"-19,80";
        "05.01.2026";"05.01.2026";"Übertrag / Überweisung";"Empfänger: Max Muster Buchungstext: Miete Ref. A000000000000002/0";"-1.200,00";
        "04.01.2026";"04.01.2026";"Auszahlung GAA";"Buchungstext: GA NR00000001 WIEN 03.01/10.15UHR EUR 100,00 Ref. 6AL00000000000003/1";"-100,00";
        "02.01.2026";"02.01.2026";"Visa-Kartenabrechnung";" SUMME MONATSABRECHNUNG VISA ";"-56,10";



        "Umsätze Visa-Karte (Kreditkarte)";"Zeitraum: 01.12.2025 - 10.01.2026";
        "Neuer Kontostand";"0,00 EUR";

        "Buchungstag";"Umsatztag";"Vorgang";"Referenz";"Buchungstext";"Umsatz in EUR";
        "30.12.2025";"29.12.2025";"Visa-Umsatz";"000000000000802";"HOTEL SACHER WIEN";"-320,00";

        """)

    @Test func comdirectAccountThenVisaCard() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "EUR")
        let path = try RealLayoutEndToEndTests.write(Self.comdirect, folder)
        try Card.imported(
            trip, path, readAs: "a comdirect statement", saying: ["imported 2 purchases", "skipped 3 rows: 1 card settlement, 1 pending, 1 transfer"])
        let cafe = "Auftraggeber: Café Größenwahn Buchungstext: Frühstück Ref. AA00000000000001/0001"
        #expect(try Self.row(trip, note: cafe)?["date"] as? String == "2026-01-06")
        #expect(try Card.net(trip) == "119.80")
        // The card's table, below the account's, by its profile.
        let visa = try trip.run("import", path, "--profile", "comdirect-visa")
        #expect(visa.exitCode == 0, "\(visa.stderr)")
        #expect(visa.stdout.contains("imported 1 purchase"), "\(visa.stdout)")
        #expect(try Self.row(trip, note: "HOTEL SACHER WIEN")?["date"] as? String == "2025-12-29")
        #expect(try Card.net(trip) == "439.80")
    }

    /// comdirect's download of 2013: empty lines and the bank's name first (`UMS&Auml;TZE` as the
    /// bank wrote it), no `;` after the last cell, dates padded with a space, the closing balance
    /// below the rows. Layout: lkleen/comdirect-csv-parser,
    /// core/src/test/resources/umsaetze_8115990_20130526-1520.testdata.csv.
    static let comdirect2013 = RealLayoutEndToEndTests.cp1252(
        """




        "comdirect bank AG"
        "UMS&Auml;TZE: ANA TRAVELLER"
        "Erstellt am: 26.05.2026, 15:20 Uhr"

        "Kunden-Nummer:";"1231230"
        "BLZ:";"20041144"
        "Verfügbarer Betrag:";"2.234,67 EUR"
        "Kontostand:";"+2.134,56 EUR"

        "Ums&auml;tze Girokonto";" - Zeitraum: 30 Tage"

        "Neuer Kontostand";"+2.134,56"

        "Buchungstag";"Wertstellung (Valuta)";"Vorgang";"Buchungstext";"Umsatz in EUR"
        "21.05.2026 ";"21.05.2026 ";"Lastschrift Einzug";"Auftraggeber: BLUMENLADEN Buchungstext: EC 60981180 Ref. 0RK13151D1555835/18675 ";"-33,11"
        "17.05.2026 ";"17.05.2026 ";"Übertrag/Überweisung";"Auftraggeber: HANS WURST GMBH Buchungstext: KONTO1118353611 Ref. JG11313791816110/3013 ";"33,12"
        "15.05.2026 ";"15.05.2026 ";"Lastschrift Einzug";"Auftraggeber: BUCHHANDLUNG Buchungstext: EC 60958305 Ref. 6LD1313551033344/5071 ";"-12,40"

        "Alter Kontostand";"+2.146,95"



        """)

    @Test func comdirectOf2013() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "EUR")
        try Card.imported(
            trip, try RealLayoutEndToEndTests.write(Self.comdirect2013, folder), readAs: "a comdirect statement",
            saying: ["imported 2 purchases", "skipped 1 row: 1 transfer"])
        #expect(try Card.net(trip) == "45.51")
    }

    // MARK: N26

    /// N26's export before 2024 with its `Category` column, every cell quoted, a card payment in
    /// pesos beside its euros. Layout: siddhantgoel/beancount-n26, beancount_n26/__init__.py
    /// (`HEADER_FIELDS`) and tests/test_n26_importer.py (the quoted rows).
    static let n26WithCategory = """
        "Date","Payee","Account number","Transaction type","Payment reference","Category","Amount (EUR)","Amount (Foreign Currency)","Type Foreign Currency","Exchange Rate"
        "2019-10-10","Muster GmbH","DE99999999999999999999","Outgoing Transfer","Muster payment","Miscellaneous","-12.34","","",""
        "2019-10-11","CAFE DE FLORE","","MasterCard Payment","","Bars & Restaurants","-9.90","","",""
        "2019-10-12","TACO STAND","","MasterCard Payment","","Bars & Restaurants","-13.95","-320.0","MXN","22.9391"
        "2019-10-13","MAX MUSTERMANN","DE99999999999999999999","Income","Salary","Income","1500.00","","",""

        """

    @Test func n26BeforeTheAppRelaunch() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "MXN", home: "EUR")
        try Card.imported(
            trip, try Card.write(Self.n26WithCategory, folder), readAs: "an N26 statement",
            saying: ["imported 2 purchases", "skipped 2 rows: 1 salary, 1 transfer"])
        let taco = try Self.row(trip, note: "TACO STAND")
        #expect(taco?["date"] as? String == "2019-10-12")
        #expect(taco?["currency"] as? String == "MXN" && taco?["price"] as? String == "320.00")
        #expect(taco?["charged"] as? String == "13.95", "\(String(describing: taco))")
        #expect(try Self.row(trip, note: "CAFE DE FLORE")?["currency"] as? String == "EUR")
    }

    /// N26's export since 2024 as the app writes it: `Type` the one header cell unquoted, rows
    /// unquoted but for text with spaces, `Original Amount` unsigned beside its currency.
    /// Layout: BeanyLedger/Beany, importers/test/fixtures/n26.dart.
    static let n26Of2024 = """
        "Booking Date","Value Date","Partner Name","Partner Iban",Type,"Payment Reference","Account Name","Amount (EUR)","Original Amount","Original Currency","Exchange Rate"
        2026-01-02,2026-01-04,"GOOGLE*CLOUD LXXXXX",,Presentment,-,"Main Account",-0.04,0.04,EUR,1
        2026-01-09,2026-01-10,"TRAVEL INSURANCE CO S.A.",ES0000000000000000,"Direct Debit","Policy 4867 monthly premium 01/01/2026-01/02/2026. Total:69,66","Main Account",-69.66,,,
        2026-01-18,2026-01-19,"CHATGPT SUBSCRIPTION",,Presentment,-,"Main Account",-18.42,20,USD,0.921
        2026-01-22,2026-01-23,"Stripe Technology Europe Ltd",DK0000000000000000,"Credit Transfer","GitHub Sponsors","Main Account",1.80,,,

        """

    /// A `Direct Debit` is money the account paid a merchant (BeanyLedger/Beany's fixture has an
    /// insurer's monthly premium, with its IBAN): spending, not the settlement of a card's bill,
    /// which an N26 current account does not have. Before, it was skipped as a card settlement.
    @Test func n26Of2024AsTheAppWritesIt() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "USD", home: "EUR")
        let r = try trip.run("import", try Card.write(Self.n26Of2024, folder))
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("imported 3 purchases"), "\(r.stdout)")
        #expect(r.stdout.contains("skipped 1 row: 1 transfer"), "\(r.stdout)")
        let premium = try Self.row(trip, note: "TRAVEL INSURANCE CO S.A.")
        #expect(premium?["currency"] as? String == "EUR" && premium?["price"] as? String == "69.66", "\(String(describing: premium))")
        let chat = try Self.row(trip, note: "CHATGPT SUBSCRIPTION")
        #expect(chat?["currency"] as? String == "USD" && chat?["price"] as? String == "20.00")
        #expect(chat?["charged"] as? String == "18.42", "\(String(describing: chat))")
    }

    // MARK: Curve

    /// Curve: a space after every comma, the funding card's amount positive for a purchase and
    /// negative for a refund, a foreign spend beside it. Layout: CumpsD/financial-converter,
    /// src/FinancialConverter/Statements/CurveStatement.cs (the header; read with delimiter ", ").
    static let curve = """
        Export Format, Date (YYYY-MM-DD as UTC), Time (HH:MM:SS), Merchant, Txn Amount (Funding Card), Txn Currency (Funding Card), Txn Amount (Foreign Spend), Txn Currency (Foreign Spend), Card Name, Card Last 4 Digits, Type, Category, Notes
        CSV, 2026-05-02, 09:14:55, Pret A Manger, 6.45, GBP, , , Visa Debit, 8480, Personal, Food & Drink,
        CSV, 2026-05-03, 19:40:12, Trattoria Da Enzo, 41.38, GBP, 48.00, EUR, Visa Debit, 8480, Personal, Food & Drink,
        CSV, 2026-05-04, 11:02:37, Trattoria Da Enzo, -8.62, GBP, -10.00, EUR, Visa Debit, 8480, Personal, Food & Drink,

        """

    @Test func curveWithForeignSpend() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "GBP")
        try Card.imported(trip, try Card.write(Self.curve, folder), readAs: "a Curve statement")
        let enzo = try Card.list(trip).filter { $0["note"] as? String == "Trattoria Da Enzo" }
        let meal = enzo.first { $0["kind"] as? String == "purchase" }
        #expect(meal?["currency"] as? String == "EUR" && meal?["price"] as? String == "48.00", "\(enzo)")
        #expect(meal?["charged"] as? String == "41.38", "\(enzo)")
        #expect(meal?["date"] as? String == "2026-05-03")
        // The refund in euros, linked to the meal.
        let back = enzo.first { $0["kind"] as? String == "refund" }
        #expect(back?["refund_of"] as? Int == meal?["id"] as? Int, "\(enzo)")
        #expect(back?["currency"] as? String == "EUR" && back?["price"] as? String == "10.00", "\(enzo)")
        #expect(back?["charged"] as? String == "8.62", "\(enzo)")
        #expect(try Self.row(trip, note: "Pret A Manger")?["price"] as? String == "6.45")
        // 6.45 + 41.38 - 8.62, what the card paid
        #expect(try Card.net(trip) == "39.21")
    }

    // MARK: Revolut Business

    /// Revolut Business: the merchant's amount unsigned in `Orig amount`, the account's signed in
    /// `Amount` with the fee apart (`Total amount` adds it), a pending row without its completed
    /// date. Columns and dates as TolgaV/revolut-business-to-freeagent
    /// (revolut-business-fee-splitter.py) and jamesfreeman959/python-revolut-business-csv-to-freeagent
    /// (revolut_to_qif.py, `%Y-%m-%d`) read them; the header's order as importers' tests write it.
    static let revolutBusiness = """
        Date started (UTC),Date completed (UTC),ID,Type,State,Description,Reference,Payer,Card number,Card label,Card state,Orig currency,Orig amount,Payment currency,Amount,Total amount,Exchange rate,Fee,Fee currency,Balance,Account,Beneficiary account number,Beneficiary sort code or routing number,Beneficiary IBAN,Beneficiary BIC,MCC,Related transaction id,Spend program,Card references
        2026-04-10,2026-04-11,6a1f0c2e-0001,CARD_PAYMENT,COMPLETED,Trattoria Roma,,Ana Traveller,443252******0000,Virtual,ACTIVE,EUR,48.00,GBP,-41.38,-41.38,0.862083,0.00,GBP,1958.62,GBP Main,,,,,5812,,,
        2026-04-12,2026-04-13,6a1f0c2e-0002,CARD_PAYMENT,COMPLETED,Hotel Bellevue,,Ana Traveller,443252******0000,Virtual,ACTIVE,EUR,320.00,GBP,-276.80,-278.80,0.865,2.00,GBP,1679.82,GBP Main,,,,,7011,,,
        2026-04-09,2026-04-09,6a1f0c2e-0003,TOPUP,COMPLETED,Money added from ANA TRAVELLER,REVOGB21,,,,,,,GBP,2000.00,2000.00,,0.00,GBP,2000.00,GBP Main,,,,,,,,
        2026-04-14,,6a1f0c2e-0004,CARD_PAYMENT,PENDING,Taxi Milano,,Ana Traveller,443252******0000,Virtual,ACTIVE,EUR,22.00,GBP,-19.03,-19.03,0.865,0.00,GBP,,GBP Main,,,,,4121,,,

        """

    @Test func revolutBusiness() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "EUR", home: "GBP")
        try Card.imported(
            trip, try Card.write(Self.revolutBusiness, folder), readAs: "a Revolut Business statement",
            saying: ["skipped 2 rows: 1 pending, 1 top-up"])
        let meal = try Self.row(trip, note: "Trattoria Roma")
        #expect(meal?["date"] as? String == "2026-04-10")
        #expect(meal?["currency"] as? String == "EUR" && meal?["price"] as? String == "48.00")
        #expect(meal?["charged"] as? String == "41.38", "\(String(describing: meal))")
        #expect(try Self.row(trip, note: "Hotel Bellevue")?["charged"] as? String == "276.80")
        #expect(try Self.row(trip, note: "fee: Hotel Bellevue")?["price"] as? String == "2.00")
        // 41.38 + 276.80 + 2.00 (the fee), what the account paid
        #expect(try Card.net(trip) == "320.18")
    }

    // MARK: Barclaycard US

    /// Barclaycard US: a preamble (the bank, the masked account number, the balance, a line of one
    /// space), then `Transaction Date,Description,Category,Amount`, Description and Category quoted
    /// (descriptions padded with spaces), `MM/DD/YYYY`, spending negative, Category `DEBIT` or
    /// `CREDIT`. Layout: johannesgerer/buchhaltung, example_input/barclaycardus.csv.
    static let barclaycardUS = """
        Barclays Bank Delaware
        Account Number: XXXXXXXXXXXX4321
        Account Balance as of May 20 2026:    $310.45
         
        Transaction Date,Description,Category,Amount
        05/16/2026,"MUSEUM STORE      212","CREDIT",15.00
        05/15/2026,"METRO CARD        173","DEBIT",-13.50
        05/14/2026,"MUSEUM STORE      212","DEBIT",-45.00
        05/13/2026,"DINER ON 5TH","DEBIT",-31.20
        05/12/2026,"Payment Received","CREDIT",250.00

        """

    @Test func barclaycardUSLayout() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "USD", home: "USD")
        try Card.imported(
            trip, try Card.write(Self.barclaycardUS, folder), readAs: "a Barclaycard US statement",
            saying: ["imported 4 purchases", "skipped 1 row: 1 card settlement"])
        #expect(try Self.row(trip, note: "DINER ON 5TH")?["date"] as? String == "2026-05-13")
        // 13.50 + 45.00 + 31.20 - 15.00 (the store's refund)
        #expect(try Card.net(trip) == "74.70")
    }

    /// The header is one other banks could write: a file under it whose amounts are mostly
    /// positive (spending written positive) is refused, not read with the signs turned.
    @Test func barclaycardUSHeaderWithMostlyPositiveAmountsIsRefused() throws {
        let folder = TemporaryFolder()
        let trip = try Card.trip(folder, local: "USD", home: "USD")
        let flipped = Self.barclaycardUS.replacingOccurrences(of: ",-", with: ",+").replacingOccurrences(of: ",+", with: ",")
        let r = try trip.run("import", try Card.write(flipped, folder))
        #expect(r.exitCode == 65, "\(r.stdout)")
        #expect(r.stderr.contains("are positive") && r.stderr.contains("--spending positive"), "\(r.stderr)")
        #expect(try Card.list(trip).isEmpty)
        let given = try trip.run("import", try Card.write(flipped, folder), "--spending", "positive")
        #expect(given.exitCode == 0, "\(given.stderr)")
    }
}
