import Foundation
import TestSupport
import Testing

/// Issue 34, "Never silently wrong": words after the amount that were read as the note (a
/// currency's name, spaced arithmetic), `--tip 15` taken as an amount without a word, and
/// `trip help add` claiming what `trip add` refuses; each through the built `trip` binary.
@Suite("End to end: never silently wrong")
struct NeverSilentlyWrongEndToEndTests {
    /// A ledger at home in EUR with a current trip `Japan` in JPY, and the trips of `others`
    /// (name and currency) beside it.
    func japan(_ folder: TemporaryFolder, others: [(String, String)] = [], home: String = "EUR") throws -> TripProcess {
        let trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        try #require(trip.run("init", "--home", home).exitCode == 0)
        for (name, currency) in others {
            try #require(trip.run("new", name, "--currency", currency).exitCode == 0)
        }
        try #require(trip.run("new", "Japan", "--currency", "JPY").exitCode == 0)
        return trip
    }

    func purchaseCount(_ trip: TripProcess) throws -> Int {
        (try trip.run("list", "-O", "json").json["purchases"] as? [Any])?.count ?? -1
    }

    // MARK: currency words

    @Test func wonAfterTheAmountIsKRWNotANote() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let r = try trip.run("add", "8900", "won", "bibimbap", "-O", "json")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.json["currency"] as? String == "KRW")
        #expect(r.json["price"] as? String == "8900")
        #expect(r.json["note"] as? String == "bibimbap")
    }

    @Test(arguments: ["EURO", "euro", "Euros", "€"])
    func aNameOfTheEuroIsEUR(word: String) throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let r = try trip.run("add", "100", word, "souvenir", "-O", "json")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.json["currency"] as? String == "EUR")
        #expect(r.json["price"] as? String == "100.00")
        #expect(r.json["note"] as? String == "souvenir")
    }

    @Test(arguments: [("eur0", "EUR"), ("usd1", "USD"), ("USDT", "USD")])
    func aSlipOfACodeIsRefusedWithTheNearestCode(word: String, code: String) throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let r = try trip.run("add", "100", word, "souvenir")
        #expect(r.exitCode == 65)
        #expect(r.stderr.contains("\"\(word)\"; did you mean \(code)"), "\(r.stderr)")
        #expect(r.stderr.contains("type: trip add 100 --note '\(word) souvenir'"), "\(r.stderr)")
        #expect(try purchaseCount(trip) == 0)
    }

    /// `dollars` is the one dollar the trip uses, else the one the ledger uses; else refused.
    @Test func dollarsIsTheDollarInUseAndRefusedWhenThereAreSeveral() throws {
        let folder = TemporaryFolder()
        let none = try japan(folder)
        let refused = try none.run("add", "10", "dollars", "hat")
        #expect(refused.exitCode == 65)
        #expect(
            refused.stderr.contains("currency: \"dollars\" could be USD, SGD, AUD"), "\(refused.stderr)")
        #expect(refused.stderr.contains("trip add 10 USD hat"))
        #expect(refused.stderr.contains("trip add 10 --note 'dollars hat'"))
        #expect(try purchaseCount(none) == 0)

        let usFolder = TemporaryFolder()
        let us = try japan(usFolder, others: [("US", "USD")])
        #expect(try us.run("add", "10", "dollars", "hat", "-O", "json").json["currency"] as? String == "USD")

        // A trip in SGD reads SGD, even with USD elsewhere in the ledger.
        let sgFolder = TemporaryFolder()
        let sg = try japan(sgFolder, others: [("US", "USD")])
        try #require(sg.run("new", "Singapore", "--currency", "SGD").exitCode == 0)
        #expect(try sg.run("add", "10", "dollars", "-O", "json").json["currency"] as? String == "SGD")
        // Two dollars in the ledger, none in the trip: refused, naming those two.
        let two = try sg.run("add", "10", "dollars", "--trip", "Japan")
        #expect(two.exitCode == 65)
        #expect(two.stderr.contains("\"dollars\" could be USD, SGD: give the code"), "\(two.stderr)")

        // A trip in SGD with a home in USD uses both: refused.
        let homeFolder = TemporaryFolder()
        let home = TripProcess(ledgerPath: homeFolder.file("ledger.sqlite"))
        try #require(home.run("init", "--home", "USD").exitCode == 0)
        try #require(home.run("new", "Singapore", "--currency", "SGD").exitCode == 0)
        let both = try home.run("add", "10", "dollars")
        #expect(both.exitCode == 65)
        #expect(both.stderr.contains("\"dollars\" could be USD, SGD: give the code"), "\(both.stderr)")
    }

    /// An everyday word (`pounds`, `real`) is read only when it names a currency in use.
    @Test func anEverydayWordIsACurrencyOnlyWhenItsCurrencyIsInUse() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let apples = try trip.run("add", "5", "pounds", "of", "apples")
        #expect(apples.exitCode == 65)
        #expect(apples.stderr.contains("trip add 5 --note 'pounds of apples'"), "\(apples.stderr)")
        let ale = try trip.run("add", "12", "real", "ale")
        #expect(ale.exitCode == 65)
        #expect(ale.stderr.contains("\"real\" could be BRL: give the code (trip add 12 BRL ale)"), "\(ale.stderr)")
        try #require(trip.run("new", "London", "--currency", "GBP").exitCode == 0)
        let london = try trip.run("add", "5", "pounds", "of", "apples", "-O", "json")
        #expect(london.json["currency"] as? String == "GBP")
        #expect(london.json["note"] as? String == "of apples")
    }

    @Test func plainNotesStayNotes() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        for words in [["ramen", "at", "Ichiran"], ["x", "large", "pizza"], ["jpn", "rail"], ["2nd", "floor"], ["Taxi"]] {
            let r = try trip.run(["add", "1200"] + words + ["-O", "json"])
            #expect(r.exitCode == 0, "\(words): \(r.stderr)")
            #expect(r.json["currency"] as? String == "JPY")
            #expect(r.json["note"] as? String == words.joined(separator: " "))
        }
    }

    @Test func convertReadsCurrencyNames() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let won = try trip.run("convert", "8900", "won", "-O", "json")
        #expect(won.exitCode == 0, "\(won.stderr)")
        #expect(won.stdout.contains("\"KRW\""), "\(won.stdout)")
        let yen = try trip.run("convert", "1000", "yen", "euros", "-O", "json")
        #expect(yen.exitCode == 0, "\(yen.stderr)")
        #expect(yen.stdout.contains("\"JPY\"") && yen.stdout.contains("\"EUR\""), "\(yen.stdout)")
        let dollars = try trip.run("convert", "10", "dollars")
        #expect(dollars.exitCode == 65)
        #expect(dollars.stderr.contains("from: \"dollars\" could be USD, SGD, AUD"), "\(dollars.stderr)")
        #expect(!dollars.stderr.contains("--note"))
    }

    @Test func transferAndRefundReadCurrencyNames() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        try #require(trip.run("member", "add", "Ana", "Ben").exitCode == 0)
        let t = try trip.run("transfer", "Ana", "Ben", "20", "euros", "-O", "json")
        #expect(t.exitCode == 0, "\(t.stderr)")
        #expect(t.json["currency"] as? String == "EUR", "\(t.stdout)")
        try #require(trip.run("add", "1200", "ramen", "--paid-by", "Ana").exitCode == 0)
        let wrong = try trip.run("refund", "1", "500", "won")
        #expect(wrong.exitCode == 65)
        #expect(wrong.stderr.contains("currency: \"won\" is not JPY"), "\(wrong.stderr)")
        let refund = try trip.run("refund", "1", "500", "yen", "-O", "json")
        #expect(refund.exitCode == 0, "\(refund.stderr)")
        #expect(refund.json["total"] as? String == "500")
    }

    // MARK: spaced arithmetic

    @Test(arguments: [
        (["700", "x", "3", "vending", "drinks"], "2100", "vending drinks"),
        (["1200", "+", "300", "coffee"], "1500", "coffee"),
        (["1200", "-", "300", "coffee"], "900", "coffee"),
        (["700", "×", "3", "*", "2"], "4200", ""),
        (["700", "x3", "JPY", "drinks"], "2100", "drinks"),
        (["3000", "/", "2", "yen", "split"], "1500", "split"),
    ])
    func anOperatorWordContinuesTheAmount(words: [String], price: String, note: String) throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let r = try trip.run(["add"] + words + ["-O", "json"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.json["currency"] as? String == "JPY")
        #expect(r.json["price"] as? String == price)
        #expect((r.json["note"] as? String ?? "") == note)
    }

    // MARK: --tip 15

    @Test func aTipThatReadsAsAPercentageSaysItWasTakenAsAnAmount() throws {
        let folder = TemporaryFolder()
        let trip = try japan(folder)
        let r = try trip.run("add", "10", "EUR", "coffee", "--tip", "15", "-O", "json")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.json["tip"] as? String == "15.00")
        #expect(r.stderr.contains("--tip 15 was taken as an amount, EUR 15.00; for 15% type --tip 15%"), "\(r.stderr)")
        let percent = try trip.run("add", "10", "EUR", "coffee", "--tip", "15%")
        #expect(percent.exitCode == 0)
        #expect(percent.stderr.isEmpty, "\(percent.stderr)")
        let edit = try trip.run("edit", "2", "--tax", "10")
        #expect(edit.stderr.contains("--tax 10 was taken as an amount"), "\(edit.stderr)")
    }

    // MARK: trip help add

    @Test(arguments: [nil, "80"])
    func addHelpFitsEightyColumnsAndClaimsOnlyWhatAddDoes(columns: String?) throws {
        let folder = TemporaryFolder()
        var trip = TripProcess(ledgerPath: folder.file("ledger.sqlite"))
        if let columns { trip.environment["COLUMNS"] = columns }
        let r = try trip.run("help", "add")
        #expect(r.exitCode == 0)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines {
            #expect(line.count <= 80, "\(line.count) columns: \(line)")
            // A wrapped line of one word, besides headings (`OPTIONS:`), option names and paths.
            let words = line.split(separator: " ")
            if words.count == 1, !line.hasSuffix(":"), !words[0].hasPrefix("-"), !words[0].contains("/") {
                Issue.record("a lone word on a line: \(line)")
            }
        }
        let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(!text.contains("first member"), "--paid-by is refused without trip whoami")
        #expect(text.contains("D/M when date_order is set"), "D/M is refused without date_order")
    }
}
