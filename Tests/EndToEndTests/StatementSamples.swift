import Foundation

/// A card statement in a real bank's layout, as the file the bank writes: the bytes, and the trip
/// it is imported into. Its expected rows are what its profile imports, which the layout's own
/// test checks row by row (`RealLayoutEndToEndTests`); the inference test compares against them.
struct StatementSample: Sendable, CustomStringConvertible {
    let name: String
    let bytes: [UInt8]
    let local: String
    let home: String

    var description: String { name }

    init(_ name: String, _ text: String, local: String, home: String = "EUR", encoding: Encoding = .utf8) {
        self.name = name
        self.local = local
        self.home = home
        bytes =
            switch encoding {
            case .utf8: Array(text.utf8)
            case .utf8BOM: [0xEF, 0xBB, 0xBF] + Array(text.utf8)
            case .windows1252: Array(text.data(using: .windowsCP1252)!)
            case .latin1: Array(text.data(using: .isoLatin1)!)
            }
    }

    init(_ name: String, bytes: [UInt8], local: String, home: String = "EUR") {
        self.name = name
        self.local = local
        self.home = home
        self.bytes = bytes
    }

    enum Encoding: Sendable { case utf8, utf8BOM, windows1252, latin1 }
}

extension StatementSample {
    typealias Layouts = RealLayoutEndToEndTests
    typealias More = RealLayoutMoreEndToEndTests
    typealias Last = RealLayoutLastEndToEndTests

    /// Every real-layout sample; adding one is one line here.
    static let all: [StatementSample] = [
        StatementSample("revolut-2018", Layouts.revolut2018April, local: "EUR"),
        StatementSample("revolut-2019", Layouts.revolut2019, local: "GBP"),
        StatementSample("dkb-v1", Layouts.dkbV1, local: "USD", encoding: .windows1252),
        StatementSample("dkb-older", Layouts.dkbOlder, local: "EUR", encoding: .latin1),
        StatementSample("amex-short", Layouts.amexShort, local: "USD", home: "USD"),
        StatementSample("dkb-2023", Layouts.dkb2023, local: "MXN", encoding: .utf8BOM),
        StatementSample("chase", Layouts.chase, local: "USD", home: "USD"),
        StatementSample("capital-one", Layouts.capitalOne, local: "USD", home: "USD"),
        StatementSample("discover", Layouts.discover, local: "USD", home: "USD"),
        StatementSample("starling", Layouts.starling, local: "GBP", home: "GBP"),
        StatementSample("citi", Layouts.citi, local: "USD", home: "USD"),
        StatementSample("ing-de", Layouts.ingDE, local: "EUR", encoding: .latin1),
        StatementSample("ing-nl", Layouts.ingNL, local: "EUR", encoding: .latin1),
        StatementSample("sparkasse", Layouts.sparkasse, local: "EUR", encoding: .latin1),
        StatementSample("lloyds", More.lloyds, local: "GBP", home: "GBP"),
        StatementSample("paypal", More.paypal, local: "USD"),
        StatementSample("paypal-quoted", More.paypalQuoted, local: "USD"),
        StatementSample("wise-history", More.wiseHistory, local: "USD"),
        StatementSample("wise-balance", More.wiseBalance, local: "EUR"),
        StatementSample("bunq", More.bunq, local: "EUR"),
        StatementSample("comdirect", bytes: More.comdirect, local: "EUR"),
        StatementSample("comdirect-2013", bytes: More.comdirect2013, local: "EUR"),
        StatementSample("n26-category", More.n26WithCategory, local: "MXN"),
        StatementSample("n26-2024", More.n26Of2024, local: "USD"),
        StatementSample("curve", More.curve, local: "EUR", home: "GBP"),
        StatementSample("revolut-business", More.revolutBusiness, local: "EUR", home: "GBP"),
        StatementSample("barclaycard-us", More.barclaycardUS, local: "USD", home: "USD"),
        StatementSample("paypal-fees", Last.paypalFees, local: "EUR"),
        StatementSample("paypal-de", Last.paypalGerman, local: "USD"),
        StatementSample("curve-current", Last.curveCurrent, local: "EUR", home: "GBP"),
        StatementSample("n26-de", Last.n26German, local: "MXN"),
        StatementSample("n26-direct-debit", Last.n26DirectDebit, local: "EUR"),
    ]
}
