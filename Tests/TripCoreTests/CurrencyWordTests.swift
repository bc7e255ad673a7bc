import Testing

@testable import TripCore

/// The words after an amount (issue 34): currency names, slips of a code, operator words.
@Suite("Currency words and the words after an amount")
struct CurrencyWordTests {
    /// The error `body` throws. (`#expect(throws:)` on a typed-throws closure crashes the test
    /// process with Swift 6.3.)
    static func error(_ body: () throws(TripError) -> String?) -> TripError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("jpy", CurrencyWord.Kind.code("JPY")), ("USD", .code("USD")),
        ("won", .name(candidates: ["KRW"], ordinary: false)), ("Yen", .name(candidates: ["JPY"], ordinary: false)),
        ("EURO", .name(candidates: ["EUR"], ordinary: false)), ("euros", .name(candidates: ["EUR"], ordinary: false)),
        ("złoty", .name(candidates: ["PLN"], ordinary: false)), ("RMB", .name(candidates: ["CNY"], ordinary: false)),
        ("reais", .name(candidates: ["BRL"], ordinary: true)), ("₩", .name(candidates: ["KRW"], ordinary: false)),
        ("eur0", .nearMiss(nearest: ["EUR"])), ("usd1", .nearMiss(nearest: ["USD"])), ("U5D", .nearMiss(nearest: ["USD"])),
        ("USDT", .nearMiss(nearest: ["USD"])),
        ("ramen", .note), ("jpn", .note), ("2nd", .note), ("Taxi", .note), ("x", .note), ("b2b", .note), ("1st", .note),
    ])
    func kinds(word: String, kind: CurrencyWord.Kind) {
        #expect(CurrencyWord.kind(of: word) == kind)
    }

    @Test func threeCapitalsThatAreNoCodeAreANearMissAsBefore() {
        guard case .nearMiss(let nearest) = CurrencyWord.kind(of: "KFC") else {
            Issue.record("KFC is not refused")
            return
        }
        #expect(nearest == CurrencyTable.shared.suggestions(for: "KFC"))
    }

    @Test func everyCandidateIsAnActiveCode() {
        for (word, name) in CurrencyWord.names {
            for code in name.codes { #expect(CurrencyTable.shared.isActiveCode(code), "\(word): \(code)") }
        }
        for (symbol, codes) in CurrencyWord.symbols {
            for code in codes { #expect(CurrencyTable.shared.isActiveCode(code), "\(symbol): \(code)") }
        }
    }

    /// The trip's currencies first, then the ledger's, then the word alone.
    static let reads: [(word: String, trip: Set<String>, ledger: Set<String>, code: String)] = [
        ("dollars", ["USD"], ["USD", "SGD"], "USD"),
        ("dollars", ["SGD", "JPY"], ["USD", "SGD"], "SGD"),
        ("dollars", ["JPY"], ["JPY", "AUD"], "AUD"),
        ("won", ["JPY"], ["JPY"], "KRW"),
        ("yen", ["USD"], ["USD"], "JPY"),
        ("real", ["BRL"], ["BRL"], "BRL"),
        ("pounds", ["JPY"], ["JPY", "GBP"], "GBP"),
        ("krone", ["DKK"], ["DKK", "NOK"], "DKK"),
    ]

    @Test(arguments: reads)
    func namesReadAmongTheCurrenciesInUse(example: (word: String, trip: Set<String>, ledger: Set<String>, code: String)) throws {
        let inUse = CurrencyWord.InUse(trip: example.trip, ledger: example.ledger)
        #expect(try CurrencyWord(example.word).currency(among: inUse) == example.code)
    }

    static let refusals: [(word: String, trip: Set<String>, ledger: Set<String>, candidates: [String])] = [
        ("dollars", ["USD", "SGD"], ["USD", "SGD"], ["USD", "SGD"]),
        ("dollars", ["JPY"], ["JPY", "USD", "SGD"], ["USD", "SGD"]),
        ("dollars", ["JPY"], ["JPY"], Array(CurrencyWord.names["dollars"]!.codes)),
        ("real", ["JPY"], ["JPY"], ["BRL"]),
        ("krona", ["EUR"], ["EUR"], ["SEK", "ISK"]),
    ]

    @Test(arguments: refusals)
    func namesThatNameNoSingleCurrencyAreRefused(example: (word: String, trip: Set<String>, ledger: Set<String>, candidates: [String])) {
        let refusal = TripError.badTextValue(
            field: "currency", value: example.word,
            reason: "could be \(example.candidates.prefix(5).joined(separator: ", "))\(example.candidates.count > 5 ? ", …" : ""): give the code")
        let inUse = CurrencyWord.InUse(trip: example.trip, ledger: example.ledger)
        #expect(Self.error { () throws(TripError) in try CurrencyWord(example.word).currency(among: inUse) } == refusal)
    }

    @Test func onlyNamesThatNeedThemAskForTheCurrenciesInUse() {
        #expect(!CurrencyWord("ramen").needsCurrenciesInUse)
        #expect(!CurrencyWord("JPY").needsCurrenciesInUse)
        #expect(!CurrencyWord("won").needsCurrenciesInUse)
        #expect(CurrencyWord("dollars").needsCurrenciesInUse)
        #expect(CurrencyWord("real").needsCurrenciesInUse)
    }

    @Test func aNearMissIsRefusedWithTheNoteToTypeOrAsAnUnknownCode() {
        let asNote = "trip add 100 --note 'eur0 x'"
        let withNote = Self.error { () throws(TripError) in try CurrencyWord("eur0").currency(among: nil, asNote: asNote) }
        #expect(withNote == .unknownCurrencyOrNote("eur0", suggestions: ["EUR"], asNote: asNote))
        let alone = Self.error { () throws(TripError) in try CurrencyWord("eur0").currency(among: nil) }
        #expect(alone == .unknownCurrency("eur0", suggestions: ["EUR"]))
    }

    @Test func theErrorNamesTheCandidatesAndBothWaysToRetype() {
        let error = CurrencyWord.refusal(
            field: "currency", word: "dollars", candidates: ["USD", "SGD", "AUD", "CAD", "NZD", "HKD"],
            retype: { "trip add 10 \($0) hat" }, asNote: "trip add 10 --note 'dollars hat'")
        #expect(
            error.description
                == "currency: \"dollars\" could be USD, SGD, AUD, CAD, NZD, …: give the code (trip add 10 USD hat); "
                + "if it is part of the note, type: trip add 10 --note 'dollars hat'")
    }

    // MARK: EntryWords

    static let continued: [(amount: String, words: [String], joined: String, currency: String?, rest: [String])] = [
        ("700", ["x", "3", "vending", "drinks"], "700 x 3", "vending", ["drinks"]),
        ("1200", ["+", "300", "coffee"], "1200 + 300", "coffee", []),
        ("1200", ["-", "300"], "1200 - 300", nil, []),
        ("700", ["x3", "JPY"], "700 x3", "JPY", []),
        ("700", ["×", "3", "*", "(1+1)", "won"], "700 × 3 * (1+1)", "won", []),
        ("20", ["x", "large", "pizza"], "20", "x", ["large", "pizza"]),
        ("20", ["x"], "20", "x", []),
        ("5", ["-3"], "5", "-3", []),
        ("5", ["+", "3rd", "floor"], "5", "+", ["3rd", "floor"]),
    ]

    @Test(arguments: continued)
    func operatorWordsContinueTheAmount(
        example: (amount: String, words: [String], joined: String, currency: String?, rest: [String])
    ) {
        let read = EntryWords(amount: example.amount, words: example.words)
        #expect(read.amount == example.joined)
        #expect(read.currency?.word == example.currency)
        #expect(read.rest == example.rest)
    }

    @Test func theCommandsOfferedToRetype() {
        let read = EntryWords(amount: "700", words: ["x", "3", "dollars", "it's", "hot"])
        #expect(read.retype(code: "USD") == "trip add 700 x 3 USD 'it'\\''s' hot")
        #expect(read.asNote == "trip add 700 x 3 --note 'dollars it'\\''s hot'")
        #expect(read.note(currencyRead: true) == ["it's", "hot"])
        #expect(read.note(currencyRead: false) == ["dollars", "it's", "hot"])
    }

    // MARK: --tip 15

    @Test(arguments: [("15", true), ("100", true), ("0.5", true), ("150", false), ("0", false), ("3*5", false), ("15%", false)])
    func anAmountThatReadsAsAPercentageSaysWhichWasTaken(text: String, hinted: Bool) throws {
        let spec = try AdjustmentSpec.parse(text, field: "tip")
        let eur = try CurrencyTable.shared.currency(for: "EUR")
        let hint = spec.amountHint(field: "tip", amount: Money(minorUnits: 1500, currency: eur))
        #expect((hint != nil) == hinted)
        if text == "15" {
            #expect(hint == "note: --tip 15 was taken as an amount, EUR 15.00; for 15% type --tip 15%")
        }
    }
}
