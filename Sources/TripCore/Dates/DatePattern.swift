/// How a card statement writes its dates: `DD.MM.YYYY`, `YYYY-MM-DD HH:MM:SS`, `MMM D, YYYY`,
/// `MMMM D` (no year), each bank its own.
///
/// A pattern is read left to right: `YYYY` a four-digit year, `YY` a two-digit one (20YY), `MMMM`
/// or `MMM` an English month name, full or abbreviated (`Sept` too), `MM`/`M` a month number and
/// `DD`/`D` a day, each of one or two digits; after `H` or `HH`, `MM` means minutes and `SS`
/// seconds, which are checked and ignored (a statement's time of day does not change the
/// purchase date). Any other character must be there as written; a space stands for one or
/// more spaces.
public struct DatePattern: Sendable, Equatable, CustomStringConvertible {
    enum Token: Equatable {
        case year4, year2, monthName, month, day, hour, minute, second
        case literal(Character)
        case spaces
    }

    let tokens: [Token]
    /// As typed, in messages.
    public let description: String

    /// Whether dates read by this pattern need a year from elsewhere (`--year`, or today).
    public var lacksYear: Bool { !tokens.contains(.year4) && !tokens.contains(.year2) }

    /// `nil` when `text` has no day, month or unknown letters (`DD-MM-YYY` is refused, not guessed).
    public init?(_ text: String) {
        var tokens: [Token] = []
        let chars = Array(text.trimmingSpaces)
        var i = 0
        var afterHour = false
        while i < chars.count {
            let c = chars[i]
            var run = 1
            while i + run < chars.count && chars[i + run] == c { run += 1 }
            switch (c, run) {
            case ("Y", 4): tokens.append(.year4)
            case ("Y", 2): tokens.append(.year2)
            case ("M", 3), ("M", 4): tokens.append(.monthName)
            case ("M", 1), ("M", 2): tokens.append(afterHour ? .minute : .month)
            case ("m", 1), ("m", 2): tokens.append(.minute)
            case ("D", 1), ("D", 2), ("d", 1), ("d", 2): tokens.append(.day)
            case ("H", 1), ("H", 2), ("h", 1), ("h", 2):
                tokens.append(.hour)
                afterHour = true
            case ("S", 1), ("S", 2), ("s", 1), ("s", 2): tokens.append(.second)
            case (" ", _): tokens.append(.spaces)
            default:
                guard !c.isLetter, run == 1 || !c.isNumber else { return nil }
                for _ in 0..<run { tokens.append(.literal(c)) }
            }
            i += run
        }
        guard tokens.contains(.day), tokens.contains(.month) || tokens.contains(.monthName) else { return nil }
        self.tokens = tokens
        description = text.trimmingSpaces
    }

    /// The patterns tried when none is given, in this order; a file's dates take the first one
    /// that reads all of them. `DD/MM/YYYY` and `MM/DD/YYYY` are both here: when both read every
    /// date of a file, the reader asks which (`ambiguity`).
    public static let known: [DatePattern] = [
        "YYYY-MM-DD", "YYYY-MM-DD HH:MM:SS", "YYYY-MM-DD HH:MM", "DD.MM.YYYY", "DD.MM.YY",
        "DD-MM-YYYY", "DD/MM/YYYY", "MM/DD/YYYY", "DD/MM/YYYY HH:MM:SS", "MM/DD/YYYY HH:MM:SS", "D MMM YYYY",
        "MMM D, YYYY", "MMMM D, YYYY", "YYYY MMMM D", "MMMM D", "D MMMM", "YYYY/MM/DD",
    ].map { DatePattern($0)! }

    /// The day `text` names, with `year` (for a pattern without one) or `nil`.
    public func parse(_ text: String, year: Int? = nil) -> CivilDate? {
        guard let (d, m, y) = fields(text) else { return nil }
        guard let y = y ?? year else { return nil }
        return CivilDate(year: y, month: m, day: d)
    }

    /// Day, month and year (`nil` when the pattern has none) of `text`, or `nil` when it does not match.
    public func fields(_ text: String) -> (day: Int, month: Int, year: Int?)? {
        let chars = Array(text.trimmingSpaces)
        var i = 0
        var day: Int?, month: Int?, year: Int?
        func digits(min: Int, max: Int) -> Int? {
            var n = 0, v = 0
            while i < chars.count, n < max, let d = chars[i].wholeNumberValue, chars[i].isASCII {
                v = v * 10 + d
                n += 1
                i += 1
            }
            return n >= min ? v : nil
        }
        for token in tokens {
            switch token {
            case .year4: guard let v = digits(min: 4, max: 4) else { return nil }; year = v
            case .year2: guard let v = digits(min: 2, max: 2) else { return nil }; year = 2000 + v
            case .month: guard let v = digits(min: 1, max: 2) else { return nil }; month = v
            case .day: guard let v = digits(min: 1, max: 2) else { return nil }; day = v
            case .hour: guard let v = digits(min: 1, max: 2), v < 24 else { return nil }
            case .minute, .second: guard let v = digits(min: 2, max: 2), v < 60 else { return nil }
            case .monthName:
                var word = ""
                while i < chars.count, chars[i].isLetter { word.append(chars[i]); i += 1 }
                // "Sept." and "Sep." alike.
                if i < chars.count, chars[i] == ".", !tokens.contains(.literal(".")) { i += 1 }
                guard let m = Self.month(named: word) else { return nil }
                month = m
            case .literal(let c):
                guard i < chars.count, chars[i] == c else { return nil }
                i += 1
            case .spaces:
                guard i < chars.count, chars[i] == " " else { return nil }
                while i < chars.count, chars[i] == " " { i += 1 }
            }
        }
        guard i == chars.count, let day, let month else { return nil }
        return (day, month, year)
    }

    static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]

    /// `January`, `jan`, `Sept`: the month number; `nil` for anything else.
    static func month(named word: String) -> Int? {
        let w = word.lowercased()
        guard w.count >= 3 else { return nil }
        if w == "sept" { return 9 }
        for (i, name) in monthNames.enumerated() where name == w || (w.count == 3 && name.hasPrefix(w)) { return i + 1 }
        return nil
    }

    /// The year a year-less date (`September 15`) is in: the latest that does not put it after `today`.
    public static func latestYear(month: Int, day: Int, notAfter today: CivilDate) -> Int {
        if let d = CivilDate(year: today.year, month: month, day: day), d <= today { return today.year }
        return today.year - 1
    }
}
