/// A word typed where a currency may stand (`trip add 8900 won bibimbap`, `trip convert 20
/// dollars`): an ISO code, a currency's name or symbol, a slip of a code (`eur0`), or a note word.
///
/// A name used to be read as the note, so `trip add 8900 won bibimbap` logged 8,900 in the trip's
/// currency. Now a name is read as the currency it names when it names exactly one: on its own
/// (`won` is only KRW), or else among the currencies the trip uses, or else among those the
/// ledger uses (`dollars` on a trip in SGD). Otherwise, and for a slip of a code, it is refused
/// with the candidates: a word is never silently read one way when it may mean another.
public struct CurrencyWord: Equatable, Sendable {
    /// What a word can be.
    public enum Kind: Equatable, Sendable {
        /// An ISO 4217 code in any case (`jpy`).
        case code(String)
        /// A currency's name or symbol, with every currency it may name, the likeliest first.
        /// `ordinary` marks a word of everyday English (`real`, `pound`), read only when it names
        /// a currency in use.
        case name(candidates: [String], ordinary: Bool)
        /// Made like a code but none (`eur0`, `USDD`, `KFC`), with the nearest codes.
        case nearMiss(nearest: [String])
        /// Any other word: part of the note.
        case note
    }

    /// The currencies a trip and its ledger use, to tell which dollar `dollars` is.
    public struct InUse: Equatable, Sendable {
        /// The trip's own currency, its home currency and those of its purchases.
        public var trip: Set<String>
        /// Every trip's own and home currency, and the ledger's home currency.
        public var ledger: Set<String>

        public init(trip: Set<String>, ledger: Set<String>) {
            self.trip = trip
            self.ledger = ledger
        }
    }

    public let word: String
    public let kind: Kind

    public init(_ word: String) {
        self.word = word
        self.kind = CurrencyWord.kind(of: word)
    }

    /// Whether `currency(among:)` needs the currencies in use: a name with more than one
    /// candidate, or an ordinary word. Everything else is decided by the word alone, so that
    /// `trip add` asks the ledger nothing for `1200 ramen` or `1200 JPY`.
    public var needsCurrenciesInUse: Bool {
        guard case .name(let candidates, let ordinary) = kind else { return false }
        return candidates.count > 1 || ordinary
    }

    /// The code this word stands for, or `nil` for a note word.
    ///
    /// `retype` spells the command line with `code` in place of the word, `asNote` the one that
    /// keeps the word in the note (`nil` where there is no note, as for `trip convert`); both
    /// only go into the error.
    public func currency(
        among inUse: InUse?, field: String = "currency", retype: ((_ code: String) -> String)? = nil, asNote: String? = nil
    ) throws(TripError) -> String? {
        switch kind {
        case .code(let code): return code
        case .note: return nil
        case .nearMiss(let nearest):
            guard let asNote else { throw .unknownCurrency(word, suggestions: nearest) }
            throw .unknownCurrencyOrNote(word, suggestions: nearest, asNote: asNote)
        case .name(let candidates, let ordinary):
            // The trip's currencies first, then the ledger's: `dollars` on a trip in SGD is SGD
            // though the ledger has USD too.
            let used = [inUse?.trip, inUse?.ledger].lazy.map { tier in candidates.filter { tier?.contains($0) ?? false } }
                .first { !$0.isEmpty }
            if let used, used.count == 1 { return used[0] }
            if used == nil, candidates.count == 1, !ordinary { return candidates[0] }
            throw CurrencyWord.refusal(field: field, word: word, candidates: used ?? candidates, retype: retype, asNote: asNote)
        }
    }

    /// `"dollars" could be USD, SGD: give the code (trip add 10 USD hat); if it is part of the
    /// note, type: trip add 10 --note 'dollars hat'`.
    static func refusal(
        field: String, word: String, candidates: [String], retype: ((String) -> String)?, asNote: String?
    ) -> TripError {
        let shown = candidates.prefix(5).joined(separator: ", ") + (candidates.count > 5 ? ", …" : "")
        let again = retype.map { " (\($0(candidates[0])))" } ?? ""
        let note = asNote.map { "; if it is part of the note, type: \($0)" } ?? ""
        return .badTextValue(field: field, value: word, reason: "could be \(shown): give the code\(again)\(note)")
    }

    /// What `word` is, by itself.
    public static func kind(of word: String) -> Kind {
        let table = CurrencyTable.shared
        if let c = table.lookup(word) { return .code(c.code) }
        if let name = names[word.lowercased()] { return .name(candidates: name.codes, ordinary: name.ordinary) }
        if let codes = symbols[word] { return .name(candidates: codes, ordinary: false) }
        let ascii = word.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        guard ascii, (3...4).contains(word.count) else { return .note }
        // Three capitals are a code to anyone reading them (`KFC` too): refused with the nearest
        // codes, as before, so that a note that is one says so.
        if word.count == 3, word.allSatisfy({ $0.isUppercase }) {
            do {
                _ = try table.currency(for: word)
            } catch {
                if case .unknownCurrency(_, let nearest) = error { return .nearMiss(nearest: nearest) }
            }
            // A code that holds no money (`XAU`): refused as such where it is used.
            return .code(word)
        }
        // A code with a slip only: `eur0`, `usd1`, `U5D`, `USDD`. A word that becomes a code
        // only by a larger change stays a note word.
        let slips = nearCodes(word)
        let hasDigit = word.contains { $0.isNumber }
        guard !slips.isEmpty, hasDigit || word.allSatisfy({ $0.isUppercase }) else { return .note }
        return .nearMiss(nearest: slips)
    }

    /// The active codes one slip away from `word`: one character too many, or a digit typed for
    /// the letter it looks like (`0` for `O`, `5` for `S`).
    static func nearCodes(_ word: String) -> [String] {
        let chars = Array(word.uppercased())
        var found: [String] = []
        func consider(_ candidate: [Character]) {
            let code = String(candidate)
            if CurrencyTable.shared.isActiveCode(code), !found.contains(code) { found.append(code) }
        }
        if chars.count == 4 {
            for i in chars.indices {
                var shorter = chars
                shorter.remove(at: i)
                consider(shorter)
            }
        } else {
            let lookAlike: [Character: Character] = ["0": "O", "1": "I", "5": "S", "8": "B", "2": "Z"]
            consider(chars.map { lookAlike[$0] ?? $0 })
        }
        return found
    }

    /// Names people say for currencies, in the forms they type them, with every currency each
    /// may name, the likeliest for a traveller first. `ordinary` words are everyday English too.
    static let names: [String: (codes: [String], ordinary: Bool)] = {
        let dollars = [
            "USD", "SGD", "AUD", "CAD", "NZD", "HKD", "TWD", "BND", "FJD", "JMD", "BSD", "BBD", "BZD", "BMD", "KYD", "TTD", "XCD",
            "NAD", "LRD", "GYD", "SRD", "SBD",
        ]
        let entries: [(forms: [String], codes: [String], ordinary: Bool)] = [
            (["won"], ["KRW"], false),
            (["yen"], ["JPY"], false),
            (["euro", "euros"], ["EUR"], false),
            (["dollar", "dollars"], dollars, false),
            (["baht"], ["THB"], false),
            (["pound", "pounds", "quid"], ["GBP", "EGP", "LBP", "SYP", "SDG", "SSP", "GIP", "FKP", "SHP"], true),
            (["franc", "francs"], ["CHF", "XOF", "XAF", "XPF", "CDF", "GNF", "RWF", "BIF", "DJF", "KMF"], false),
            (["peso", "pesos"], ["MXN", "PHP", "ARS", "CLP", "COP", "CUP", "DOP", "UYU"], false),
            (["rupee", "rupees"], ["INR", "LKR", "NPR", "PKR", "MUR", "SCR"], false),
            (["ringgit", "ringgits"], ["MYR"], false),
            (["dong"], ["VND"], false),
            (["lira", "lire", "liras"], ["TRY"], false),
            (["krona", "kronor", "króna", "krónur"], ["SEK", "ISK"], false),
            (["krone", "kroner"], ["NOK", "DKK"], false),
            (["zloty", "zlotys", "zlote", "zlotych", "złoty", "złote", "złotych"], ["PLN"], false),
            (["forint", "forints"], ["HUF"], false),
            (["koruna", "koruny", "korun"], ["CZK"], false),
            (["real", "reais", "reals"], ["BRL"], true),
            (["yuan", "rmb", "renminbi"], ["CNY"], false),
            (["rupiah", "rupiahs"], ["IDR"], false),
            (["shekel", "shekels", "sheqel", "sheqalim"], ["ILS"], false),
            (["ruble", "rubles", "rouble", "roubles"], ["RUB", "BYN"], false),
            (["dirham", "dirhams"], ["AED", "MAD"], false),
            (["riyal", "riyals"], ["SAR", "QAR"], false),
            (["rand"], ["ZAR"], true),
        ]
        var map: [String: (codes: [String], ordinary: Bool)] = [:]
        for entry in entries {
            for form in entry.forms { map[form] = (entry.codes, entry.ordinary) }
        }
        return map
    }()

    /// Symbols typed as a word of their own (`trip add 100 € souvenir`), as `PastedAmount`
    /// reads them beside a number; the letter ones there (`RMB`, `RM`) are names or codes here.
    static let symbols: [String: [String]] = {
        var map: [String: [String]] = [:]
        for (symbol, codes) in PastedAmount.symbols where !symbol.allSatisfy({ $0.isASCII && $0.isLetter }) {
            map[symbol] = codes
        }
        return map
    }()
}
