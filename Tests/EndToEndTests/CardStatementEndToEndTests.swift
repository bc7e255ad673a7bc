import Foundation
import TestSupport
import Testing

/// Card statements from real banks (issue 29), through the binary: each file is written here in
/// the layout its bank publishes (the column names, date forms, signs and preambles of their
/// exports), and must import with the right purchases, credits, fees and skipped rows, or be
/// refused with exit 65 and nothing written, never imported with wrong money and exit 0.
@Suite("End to end: card statements")
struct CardStatementEndToEndTests {
    /// A ledger whose trip has `local` and `home` currencies, today 2026-11-25.
    static func trip(_ folder: TemporaryFolder, local: String, home: String, start: String? = nil) throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2026-11-25")
        var args = ["new", "Trip", "--currency", local, "--home", home]
        if let start { args += ["--start", start] }
        try #require(trip.run(args).exitCode == 0)
        return trip
    }

    static func write(_ text: String, _ folder: TemporaryFolder, _ name: String = "statement.csv") throws -> String {
        let path = folder.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `trip import FILE` into `trip`: it exits 0, its first line is "read as `layout`" ("a DKB Visa
    /// statement"), and it says each of `saying`. The import's output, for further checks.
    @discardableResult
    static func imported(
        _ trip: TripProcess, _ file: String, readAs layout: String, saying: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TripResult {
        let r = try trip.run("import", file)
        #expect(r.exitCode == 0, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stdout.hasPrefix("read as \(layout)\n"), "\(r.stdout)", sourceLocation: sourceLocation)
        for text in saying { #expect(r.stdout.contains(text), "\(r.stdout)", sourceLocation: sourceLocation) }
        return r
    }

    /// `net` of `trip report --format json`'s totals, as text.
    static func net(_ trip: TripProcess) throws -> String? {
        let r = try trip.run("report", "--format", "json")
        return ((r.json["totals"] as? [String: Any])?["net"] as? String)
    }

    static func list(_ trip: TripProcess) throws -> [[String: Any]] {
        let r = try trip.run("list", "--format", "json")
        return (r.json["purchases"] as? [[String: Any]]) ?? []
    }

    // MARK: finding 1: signs

    static let revolutLikeGeneric = """
        Date,Description,Amount,Currency
        2026-03-01,Coffee,-3.50,EUR
        2026-03-02,Museum,-18.00,EUR
        2026-03-02,Top-up,100.00,EUR
        2026-03-03,Dinner,-42.10,EUR

        """

    @Test func mostlyNegativeAmountsWithoutAConventionAreRefused() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "EUR", home: "EUR")
        let path = try Self.write(Self.revolutLikeGeneric, folder)
        let r = try trip.run("import", path, "--date-column", "Date", "--amount-column", "Amount", "--currency-column", "Currency")
        #expect(r.exitCode == 65, "\(r.stdout)")
        #expect(r.stderr.contains("3 of 4 amounts in column Amount are negative"), "\(r.stderr)")
        #expect(r.stderr.contains("--spending negative"))
        #expect(try Self.list(trip).isEmpty)
        let ok = try trip.run(
            "import", path, "--date-column", "Date", "--amount-column", "Amount", "--currency-column", "Currency", "--negate",
            "--note-column", "Description")
        #expect(ok.exitCode == 0, "\(ok.stderr)")
        // Three purchases (63.60) and the top-up as money in (100.00): spending stays spending.
        let rows = try Self.list(trip)
        #expect(rows.filter { $0["kind"] as? String == "purchase" }.count == 3)
        #expect(rows.first { $0["note"] as? String == "Top-up" }?["kind"] as? String == "credit")
    }

    // MARK: finding 6: cells are data

    @Test func aDateInTheAmountColumnIsRefusedNotComputed() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "EUR", home: "EUR")
        let path = try Self.write("Date,Amount\n2026-01-02,2026-01-03\n2026-01-02,12.00\n", folder)
        let r = try trip.run("import", path, "--date-column", "Date", "--amount-column", "Amount")
        #expect(r.exitCode == 65)
        #expect(r.stderr.hasPrefix("trip: import: row 1, column Amount: \"2026-01-03\" is not an amount"), "\(r.stderr)")
        #expect(try Self.list(trip).isEmpty)
    }

    @Test func aChargedAmountOfTheOtherSignIsNamedAsSuch() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "JPY", home: "USD")
        let path = try Self.write("Date,Amount,Currency,Billed\n2026-03-02,1200,JPY,-8.10\n", folder)
        let r = try trip.run(
            "import", path, "--date-column", "Date", "--amount-column", "Amount", "--currency-column", "Currency",
            "--charged-column", "Billed")
        #expect(r.exitCode == 65)
        #expect(r.stderr.contains("column Billed: \"-8.10\" has the opposite sign of the amount"), "\(r.stderr)")
    }

    // MARK: finding 2: currency

    @Test func aFileNamingNoCurrencyInATripOfTwoIsRefusedNamingBoth() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "USD", home: "EUR")
        let path = try Self.write("Date,Amount\n2026-03-02,21.97\n", folder)
        let r = try trip.run("import", path, "--date-column", "Date", "--amount-column", "Amount")
        #expect(r.exitCode == 65)
        #expect(r.stderr.contains("local USD, home EUR"), "\(r.stderr)")
        let ok = try trip.run("import", path, "--date-column", "Date", "--amount-column", "Amount", "--currency", "EUR")
        #expect(ok.exitCode == 0, "\(ok.stderr)")
        #expect(try Self.list(trip).first?["currency"] as? String == "EUR")
    }

    @Test func decimalPlacesErrorsNameTheCurrency() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "JPY", home: "JPY")
        let path = try Self.write("Date,Amount\n2026-03-02,21.97\n", folder)
        let r = try trip.run("import", path, "--date-column", "Date", "--amount-column", "Amount")
        #expect(r.exitCode == 65)
        #expect(r.stderr.contains("\"21.97\" has 2 decimal places; JPY has 0"), "\(r.stderr)")
    }

    // MARK: profiles

    /// DKB Visa: seven preamble lines, `;`, German numbers, `Betrag (EUR)`, foreign amounts in one cell.
    static let dkb = """
        "Kreditkarte:";"4930********1234 Kreditkarte";

        "Von:";"01.03.2026";
        "Bis:";"31.03.2026";
        "Saldo:";"-118.31 EUR";
        "Datum:";"31.03.2026";

        "Umsatz abgerechnet und nicht im Saldo enthalten";"Wertstellung";"Belegdatum";"Beschreibung";"Betrag (EUR)";"Ursprünglicher Betrag";
        "Ja";"03.03.2026";"02.03.2026";"WHOLE FOODS NEW YORK";"-21,97";"-23,95 USD";
        "Ja";"05.03.2026";"04.03.2026";"HOTEL XY NEW YORK";"-113,30";"-125,00 USD";
        "Ja";"06.03.2026";"05.03.2026";"Auslandseinsatzentgelt";"-2,05";"";
        "Ja";"10.03.2026";"10.03.2026";"Ausgleich Kreditkarte";"500,00";"";
        "Nein";"12.03.2026";"11.03.2026";"Gutschrift WHOLE FOODS";"5,00";"5,45 USD";

        """

    @Test func dkbVisaWithItsPreambleInAUSDTripHomeEUR() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "USD", home: "EUR")
        let path = try Self.write(Self.dkb, folder)
        try Self.imported(trip, path, readAs: "a DKB Visa statement", saying: ["imported 4 purchases", "skipped 1 row: 1 card settlement"])
        let rows = try Self.list(trip)
        // The merchant's USD amounts, charged in EUR; the fee in EUR, category fees; the refund a credit.
        let hotel = rows.first { $0["note"] as? String == "HOTEL XY NEW YORK" }
        #expect(hotel?["currency"] as? String == "USD" && hotel?["price"] as? String == "125.00")
        #expect(hotel?["charged"] as? String == "113.30")
        let fee = rows.first { $0["category"] as? String == "fees" }
        #expect(fee?["currency"] as? String == "EUR" && fee?["price"] as? String == "2.05")
        #expect(rows.first { ($0["note"] as? String)?.hasPrefix("Gutschrift") == true }?["kind"] as? String == "credit")
        // 21.97 + 113.30 + 2.05 - 5.00
        #expect(try Self.net(trip) == "132.32")
        // The same statement again adds nothing.
        let again = try trip.run("import", path)
        #expect(again.exitCode == 0)
        #expect(again.stdout.contains("imported 0 purchases"), "\(again.stdout)")
        #expect(try Self.net(trip) == "132.32")
    }

    /// Revolut's current export: Type, Started Date, State; pending rows, top-ups, exchanges, a fee column.
    static let revolut = """
        Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance
        TOPUP,Current,2026-03-01 09:12:01,2026-03-01 09:12:05,Top-Up by *1234,200.00,0.00,EUR,COMPLETED,200.00
        CARD_PAYMENT,Current,2026-03-01 12:30:00,2026-03-02 08:00:00,Pastelaria,-4.20,0.00,EUR,COMPLETED,195.80
        CARD_PAYMENT,Current,2026-03-02 6:11:59,2026-03-03 08:00:00,Taxi,-12.40,0.25,EUR,COMPLETED,183.15
        EXCHANGE,Current,2026-03-02 10:00:00,2026-03-02 10:00:00,Exchanged to GBP,-50.00,0.00,EUR,COMPLETED,133.15
        CARD_REFUND,Current,2026-03-03 11:00:00,2026-03-04 09:00:00,Taxi,5.00,0.00,EUR,COMPLETED,138.15
        TRANSFER,Current,2026-03-03 12:00:00,2026-03-03 12:00:00,To Ana,-20.00,0.00,EUR,COMPLETED,118.15
        CARD_PAYMENT,Current,2026-03-04 20:00:00,,Restaurante,-31.00,0.00,EUR,PENDING,87.15
        CARD_PAYMENT,Current,2026-03-04 21:00:00,,Bar,-9.00,0.00,EUR,REVERTED,87.15

        """

    @Test func revolutCurrentLayout() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "EUR", home: "EUR")
        let path = try Self.write(Self.revolut, folder)
        try Self.imported(
            trip, path, readAs: "a Revolut statement",
            saying: ["imported 4 purchases", "skipped 5 rows: 1 exchange, 1 pending, 1 reverted, 1 top-up, 1 transfer"])
        // 4.20 + 12.40 + 0.25 fee - 5.00 refund
        #expect(try Self.net(trip) == "11.85")
        // The pending dinner, once it completes, is the same purchase as with --include-pending.
        #expect(try trip.run("import", path, "--include-pending").stdout.contains("imported 1 purchase "))
        let completed = Self.revolut.replacingOccurrences(
            of: "2026-03-04 20:00:00,,Restaurante,-31.00,0.00,EUR,PENDING",
            with: "2026-03-04 20:00:00,2026-03-05 08:00:00,Restaurante,-31.00,0.00,EUR,COMPLETED")
        let later = try trip.run("import", try Self.write(completed, folder, "later.csv"))
        #expect(later.stdout.contains("imported 0 purchases"), "\(later.stdout)")
        #expect(try Self.net(trip) == "42.85")
    }

    /// Revolut 2018-2019: `;`, spaces around it, year-less dates, `Paid Out (EUR)`, `Exchange Out`.
    static let revolut2018 = """
        Completed Date ; Description ; Paid Out (EUR) ; Paid In (EUR) ; Exchange Out; Exchange In; Balance (EUR); Category; Notes
        September 15 ; Top-Up by *1234 ;  ; 100.00 ; ; ; 100.00; general;
        September 16 ; Pret A Manger ; 17.30 ;  ; GBP 15.00; ; 82.70; restaurants;
        September 17 ; Exchanged to GBP ; 20.00 ;  ; ; GBP 17.50; 62.70; general;
        September 18 ; Boots ; 4.50 ;  ; ; ; 58.20; shopping;

        """

    @Test func revolut2018LayoutWithYearlessDates() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "GBP", home: "EUR")
        let path = try Self.write(Self.revolut2018, folder)
        try Self.imported(
            trip, path, readAs: "a Revolut (2018-2019) statement", saying: ["imported 2 purchases", "skipped 2 rows: 1 exchange, 1 top-up"])
        let rows = try Self.list(trip)
        // Today is 2026-11-25: September 16 is 2026-09-16.
        let pret = rows.first { $0["note"] as? String == "Pret A Manger" }
        #expect(pret?["date"] as? String == "2026-09-16")
        #expect(pret?["currency"] as? String == "GBP" && pret?["price"] as? String == "15.00" && pret?["charged"] as? String == "17.30")
        #expect(rows.first { $0["note"] as? String == "Boots" }?["currency"] as? String == "EUR")
        #expect(try Self.net(trip) == "21.80")
    }

    static let wise = """
        TransferWise ID,Date,Amount,Currency,Description,Payment Reference,Running Balance,Exchange From,Exchange To,Exchange Rate,Payer Name,Payee Name,Payee Account Number,Merchant,Card Last Four Digits,Card Holder Full Name,Attachment,Note,Total fees,Exchange To Amount
        CARD-1001,02-03-2026,-17.52,EUR,Card transaction of 15.00 GBP issued by Pret London,,82.48,EUR,GBP,0.8562,,,,Pret,1234,A Traveller,,,0.00,15.00
        CARD-1002,03-03-2026,-9.80,EUR,Card transaction of 9.80 EUR issued by Cafe Lisboa,,72.68,,,,,,,Cafe Lisboa,1234,A Traveller,,,0.00,
        BALANCE-2001,03-03-2026,-50.00,EUR,Converted 50.00 EUR to 42.81 GBP,,22.68,EUR,GBP,0.8562,,,,,,,,,0.00,42.81
        TRANSFER-3001,01-03-2026,100.00,EUR,Received money from A Traveller,,100.00,,,,A Traveller,,,,,,,,0.00,
        CARD-1003,04-03-2026,2.00,EUR,Card transaction of 2.00 EUR refunded by Cafe Lisboa,,24.68,,,,,,,Cafe Lisboa,1234,A Traveller,,,0.00,

        """

    @Test func wiseLayout() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "GBP", home: "EUR")
        try Self.imported(
            trip, try Self.write(Self.wise, folder), readAs: "a Wise statement",
            saying: ["imported 3 purchases", "skipped 2 rows: 1 exchange, 1 transfer"])
        let pret = try Self.list(trip).first { ($0["note"] as? String)?.contains("Pret") == true }
        #expect(pret?["currency"] as? String == "GBP" && pret?["charged"] as? String == "17.52")
        #expect(try Self.net(trip) == "25.32")
    }

    static let monzo = """
        Transaction ID,Date,Time,Type,Name,Emoji,Category,Amount,Currency,Local amount,Local currency,Notes and #tags,Address,Receipt,Description,Category split,Money Out,Money In
        tx_0001,01/03/2026,09:00:00,Faster payment,Salary Ltd,,Income,1500.00,GBP,1500.00,GBP,,,,SALARY,,,1500.00
        tx_0002,02/03/2026,12:10:00,Card payment,Le Bistro,,Eating out,-25.86,GBP,-30.00,EUR,,Paris,,LE BISTRO PARIS,,-25.86,
        tx_0003,03/03/2026,08:00:00,Pot transfer,Savings,,Savings,-100.00,GBP,-100.00,GBP,,,,,,-100.00,
        tx_0004,13/03/2026,18:00:00,Card payment,Tesco,,Groceries,-12.35,GBP,-12.35,GBP,,,,TESCO,,-12.35,

        """

    @Test func monzoLayout() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "EUR", home: "GBP")
        try Self.imported(
            trip, try Self.write(Self.monzo, folder), readAs: "a Monzo statement", saying: ["imported 2 purchases", "skipped 2 rows: 2 transfers"])
        let bistro = try Self.list(trip).first { $0["note"] as? String == "Le Bistro" }
        #expect(bistro?["currency"] as? String == "EUR" && bistro?["price"] as? String == "30.00")
        #expect(bistro?["charged"] as? String == "25.86" && bistro?["category"] as? String == "eating out")
        #expect(try Self.net(trip) == "38.21")
    }

    static let n26 = """
        "Date","Payee","Account number","Transaction type","Payment reference","Amount (EUR)","Amount (Foreign Currency)","Type Foreign Currency","Exchange Rate"
        "2026-03-02","Starbucks NYC","","MasterCard Payment","","-5.12","-5.60","USD","1.09375"
        "2026-03-03","Employer GmbH","DE123","Income","Salary","2000.0","","",""
        "2026-03-04","Duane Reade","","MasterCard Payment","","-9.14","-10.00","USD","1.09409"

        """

    @Test func n26Layout() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "USD", home: "EUR")
        try Self.imported(
            trip, try Self.write(Self.n26, folder), readAs: "an N26 statement", saying: ["imported 2 purchases", "skipped 1 row: 1 salary"])
        #expect(try Self.net(trip) == "14.26")
    }

    /// N26 since 2024 (the layout its app exports now, as public importers' fixtures show it):
    /// card payments are `Presentment`, the foreign amount is written without its sign.
    static let n26of2024 = """
        "Booking Date","Value Date","Partner Name","Partner Iban",Type,"Payment Reference","Account Name","Amount (EUR)","Original Amount","Original Currency","Exchange Rate"
        2026-03-02,2026-03-02,"Starbucks NYC",,Presentment,,"Main Account",-5.12,5.60,USD,1.09375
        2026-03-03,2026-03-03,"Employer GmbH",DE123,"Credit Transfer",Salary,"Main Account",2000.00,,,
        2026-03-04,2026-03-04,"Duane Reade",,Presentment,,"Main Account",-9.14,10.00,USD,1.09409
        2026-03-04,2026-03-04,N26,,Fee,"ATM Withdrawal Fee","Main Account",-2.00,,,

        """

    @Test func n26LayoutOf2024() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "USD", home: "EUR")
        try Self.imported(
            trip, try Self.write(Self.n26of2024, folder), readAs: "an N26 statement", saying: ["imported 3 purchases", "skipped 1 row: 1 transfer"])
        let rows = try Self.list(trip)
        let starbucks = rows.first { $0["note"] as? String == "Starbucks NYC" }
        #expect(starbucks?["currency"] as? String == "USD" && starbucks?["price"] as? String == "5.60")
        #expect(starbucks?["charged"] as? String == "5.12")
        #expect(rows.first { $0["category"] as? String == "fees" }?["price"] as? String == "2.00")
        #expect(try Self.net(trip) == "16.26")
    }

    static let amex = """
        Date,Description,Card Member,Account #,Amount
        03/02/2026,DELTA AIR LINES,A TRAVELLER,-11005,412.50
        03/04/2026,UBER TRIP,A TRAVELLER,-11005,23.10
        03/05/2026,UBER TRIP CREDIT,A TRAVELLER,-11005,-5.00
        03/10/2026,AUTOPAY PAYMENT - THANK YOU,A TRAVELLER,-11005,-430.60
        03/11/2026,FOREIGN TRANSACTION FEE,A TRAVELLER,-11005,0.69

        """

    @Test func amexLayout() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "USD", home: "USD")
        let r = try trip.run("import", try Self.write(Self.amex, folder), "--date-format", "MM/DD/YYYY")
        #expect(r.exitCode == 0, "\(r.stderr)")
        // Before, "read as a American Express statement": the article is the name's.
        #expect(r.stdout.hasPrefix("read as an American Express statement\n"), "\(r.stdout)")
        #expect(r.stdout.contains("imported 4 purchases"), "\(r.stdout)")
        #expect(r.stdout.contains("skipped 1 row: 1 card settlement"), "\(r.stdout)")
        #expect(try Self.list(trip).first { $0["category"] as? String == "fees" }?["price"] as? String == "0.69")
        #expect(try Self.net(trip) == "431.29")
    }

    // MARK: finding 4: layouts

    @Test func amountsWithTheirCurrencyInOneCellAndAccountingSigns() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "ISK", home: "EUR")
        let path = try Self.write(
            """
            Date;Description;Amount
            02.03.2026 ; Bonus ; ISK 1,612
            03.03.2026 ; Blue Lagoon ; "27,60 EUR"
            04.03.2026 ; Cafe ; 42,00 €
            05.03.2026 ; Return ; (12.50) EUR
            06.03.2026 ; Book ; 12.50 CR EUR

            """, folder)
        let r = try trip.run("import", path, "--date-column", "Date", "--amount-column", "Amount", "--note-column", "Description")
        #expect(r.exitCode == 0, "\(r.stderr)")
        let rows = try Self.list(trip)
        #expect(rows.first { $0["note"] as? String == "Bonus" }?["price"] as? String == "1612")
        #expect(rows.first { $0["note"] as? String == "Cafe" }?["currency"] as? String == "EUR")
        #expect(rows.first { $0["note"] as? String == "Return" }?["kind"] as? String == "credit")
    }

    @Test func oneEmptyAmountIsNamedAndSkipBadRowsImportsTheRest() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "EUR", home: "EUR")
        let path = try Self.write("Date,Amount\n2026-03-01,4.00\n2026-03-02,\n2026-03-03,5.00\n2026-03-04,abc\n", folder)
        let r = try trip.run("import", path, "--date-column", "Date", "--amount-column", "Amount")
        #expect(r.exitCode == 65)
        #expect(r.stderr.contains("row 2, column Amount: \"\" is empty"), "\(r.stderr)")
        #expect(r.stderr.contains("row 4 is refused too"), "\(r.stderr)")
        #expect(try Self.list(trip).isEmpty)
        let skip = try trip.run("import", path, "--date-column", "Date", "--amount-column", "Amount", "--skip-bad-rows")
        #expect(skip.exitCode == 0, "\(skip.stderr)")
        #expect(skip.stdout.contains("imported 2 purchases"))
        #expect(skip.stderr.contains("row 2") && skip.stderr.contains("row 4"), "\(skip.stderr)")
    }

    @Test func rowsOutsideTheTripAreCountedInOneWarning() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "EUR", home: "EUR", start: "2026-03-02")
        let path = try Self.write("Date,Amount\n2026-03-01,4.00\n2026-02-28,5.00\n2026-03-03,6.00\n", folder)
        let r = try trip.run("import", path, "--date-column", "Date", "--amount-column", "Amount")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stderr == "warning: 2 rows are dated outside Trip (from 2026-03-02); imported all the same\n")
    }

    @Test func aSemicolonFileWithoutDelimiterIsReadAndDatesDashed() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "EUR", home: "EUR")
        let path = try Self.write("Datum;Betrag\n01-03-2026;4,50\n", folder)
        let r = try trip.run("import", path, "--date-column", "Datum", "--amount-column", "Betrag", "--date-format", "DD-MM-YYYY")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(try Self.list(trip).first?["date"] as? String == "2026-03-01")
    }

    /// A user's own layout in ~/.config/trip/profiles is recognised like a shipped one.
    @Test func aUsersOwnProfileIsRecognised() throws {
        let folder = TemporaryFolder()
        let config = folder.file("config")
        try FileManager.default.createDirectory(atPath: config + "/trip/profiles", withIntermediateDirectories: true)
        try """
        title = "My Bank"
        detect = "Buchungstag, Umsatz, Verwendungszweck"
        date = "Buchungstag"
        date_format = "DD.MM.YYYY"
        amount = "Umsatz"
        note = "Verwendungszweck"
        spending = "negative"

        [rows]
        top-up = "Aufladung*"

        """.write(toFile: config + "/trip/profiles/mybank.toml", atomically: true, encoding: .utf8)
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"), today: "2026-11-25", extra: ["XDG_CONFIG_HOME": config])
        try #require(trip.run("new", "Trip", "--currency", "EUR", "--home", "EUR").exitCode == 0)
        let path = try Self.write(
            "Buchungstag\tUmsatz\tVerwendungszweck\n02.03.2026\t-4,50\tBäckerei\n03.03.2026\t50,00\tAufladung Karte\n", folder)
        let r = try trip.run("import", path)
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout == "read as a My Bank statement\nimported 1 purchase into \"Trip\" (0 duplicates skipped)\nskipped 1 row: 1 top-up\n")
        #expect(try Self.net(trip) == "4.50")
    }

    /// --skip-lines names where the header is when a preamble looks like one.
    @Test func skipLinesFindsTheHeader() throws {
        let folder = TemporaryFolder()
        let trip = try Self.trip(folder, local: "EUR", home: "EUR")
        let path = try Self.write("Date,Amount\nexported,today\nDate,Amount\n2026-03-02,4.00\n", folder)
        let r = try trip.run("import", path, "--date-column", "Date", "--amount-column", "Amount", "--skip-lines", "2")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("imported 1 purchase "))
    }
}
