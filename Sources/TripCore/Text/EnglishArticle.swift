/// `a` or `an` before a name, by how the name is said: `an American Express`, `an N26`, `an ING`,
/// but `a Revolut`, `a DKB Visa`, `a Unicredit`.
///
/// A short all-capital first word, or one with a digit (`ING`, `HSBC`, `N26`), is said letter by
/// letter, so what counts is how its first letter's name begins (`en`, `aitch`, `ef`); any other
/// word takes `an` before a vowel, except where the vowel is said as `you` or `w` (`Uni…`, `Eu…`, `One…`).
public enum EnglishArticle {
    /// `"an"` or `"a"` for `name`.
    public static func indefinite(before name: String) -> String {
        let word = name.prefix { $0 != " " && $0 != "(" }
        guard let first = word.first else { return "a" }
        let letters = word.filter(\.isLetter)
        let spelled = !letters.isEmpty && letters.allSatisfy(\.isUppercase) && (letters.count <= 4 || word.contains(where: \.isNumber))
        if spelled { return "AEFHILMNORSX".contains(first) ? "an" : "a" }
        let lower = word.lowercased()
        if ["uni", "use", "usu", "ure", "eu", "one", "once"].contains(where: { lower.hasPrefix($0) }) { return "a" }
        return "aeiou".contains(lower.first ?? first) ? "an" : "a"
    }
}
