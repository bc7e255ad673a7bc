/// The words of `trip add AMOUNT [CUR] [NOTE…]` as typed, read as the amount, the word that may
/// be its currency, and the note.
///
/// The amount goes on through operator words the shell split off it: `700 x 3 drinks` is
/// `700 x 3` as `700x3` is, and `1200 + 300 coffee` is 1,500, not 1,200 with the note
/// "+ 300 coffee". The word after it is then read by `CurrencyWord`.
public struct EntryWords: Equatable, Sendable {
    /// The amount with the `OPERATOR NUMBER` words that continue it, joined by spaces.
    public let amount: String
    /// The word after the amount, which may be its currency; `nil` when none was typed.
    public let currency: CurrencyWord?
    /// The words after that one.
    public let rest: [String]

    /// Operators that continue an amount as a word of their own; `x` as in `700x3`.
    static let operators: Set<String> = ["x", "X", "×", "*", "+", "-", "−", "/", "÷"]

    public init(amount: String, words: [String]) {
        var amount = amount
        var rest = words[...]
        while let word = rest.first {
            if EntryWords.operators.contains(word), rest.count > 1, EntryWords.isNumber(rest[rest.startIndex + 1]) {
                amount += " \(word) \(rest[rest.startIndex + 1])"
                rest = rest.dropFirst(2)
            } else if let op = word.first, op != "-", EntryWords.operators.contains(String(op)), EntryWords.isNumber(word.dropFirst()) {
                // `700 x3`, `1200 +300`; never `-300`, which the shell user meant as an option.
                amount += " \(word)"
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        self.amount = amount
        self.currency = rest.first.map(CurrencyWord.init)
        self.rest = Array(rest.dropFirst())
    }

    /// The note's words, once the currency word is known to be a currency (`true`) or a note word.
    public func note(currencyRead: Bool) -> [String] {
        guard let currency, !currencyRead else { return rest }
        return [currency.word] + rest
    }

    /// `trip add` again with `code` for the currency word, for an error to offer.
    public func retype(code: String) -> String {
        (["trip add", amount, code] + rest.map(EntryWords.shellWord)).joined(separator: " ")
    }

    /// `trip add` again with every word after the amount as the note, for an error to offer.
    public var asNote: String {
        "trip add \(amount) --note \(EntryWords.shellWord(note(currencyRead: false).joined(separator: " ")))"
    }

    /// A number to continue an amount with: a digit, a decimal point or a parenthesis first, and
    /// nothing a note word has (`3`, `2.50`, `(2+1)`, never `3rd`).
    static func isNumber(_ word: some StringProtocol) -> Bool {
        guard let first = word.unicodeScalars.first, ("0"..."9").contains(first) || first == "(" || first == "." else { return false }
        return word.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ".,'()+-*/×÷".unicodeScalars.contains($0) }
    }

    /// `text` as one shell word, for a command line the user can paste back.
    public static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.,:/@+-".contains($0)) }
        return plain ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
