/// Parses an amount as typed: a number or an arithmetic expression with `+ - * /` (also `×` `÷`),
/// parentheses and the usual precedence, e.g. `3*1200+500` or `(12.50+8)*2`.
///
/// Evaluation is exact (`Rational`); the result is rounded once, to the currency's minor units,
/// with the caller's rounding mode. A single number with more decimals than the currency allows
/// is rejected rather than rounded, since it is more likely a typo than a price.
public enum AmountExpression {
    /// At most this many nested parentheses.
    static let maxDepth = 64

    /// Evaluates `text` for a currency with `minorUnits` decimals. Rejects empty input, anything
    /// that is not a number or operator, division by zero, negative results and values that do
    /// not fit 64-bit minor units.
    public static func evaluate(
        _ text: String, field: String = "amount", minorUnits: Int,
        rounding: RoundingMode = .halfUp, currencyCode: String? = nil
    ) throws(TripError) -> Int64 {
        var parser = Parser(text: text, field: field, minorUnits: minorUnits)
        let value = try parser.parseAll()
        if parser.literalCount == 1 && parser.operatorCount == 0 && parser.maxFractionDigits > minorUnits {
            throw .badAmount(
                field: field, value: text,
                reason: "has \(parser.maxFractionDigits) decimal places; \(currencyCode ?? "this currency") has \(minorUnits)")
        }
        guard !value.isNegative else {
            throw .badAmount(field: field, value: text, reason: "is negative; amounts cannot be below zero")
        }
        do {
            return try value.scaled(byPowerOfTen: minorUnits).roundedToInt64(rounding)
        } catch {
            throw .badAmount(field: field, value: text, reason: "is too large for 64-bit minor units")
        }
    }

    struct Parser {
        enum Token: Equatable { case number(Rational), op(Character), open, close }

        let text: String
        let field: String
        let minorUnits: Int
        var tokens: [Token] = []
        var position = 0
        var depth = 0
        var literalCount = 0
        var operatorCount = 0
        var maxFractionDigits = 0

        init(text: String, field: String, minorUnits: Int) {
            self.text = text
            self.field = field
            self.minorUnits = minorUnits
        }

        func fail(_ reason: String) -> TripError { .badAmount(field: field, value: text, reason: reason) }

        mutating func tokenize() throws(TripError) {
            let s = Array(text.unicodeScalars)
            var i = 0
            func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
            while i < s.count {
                let c = s[i]
                if NumberLiteral.isGroupingSpace(c) || c == "\t" { i += 1; continue }
                if isDigit(c) || ((c == "." || c == ",") && i + 1 < s.count && isDigit(s[i + 1])) {
                    var lit: [Unicode.Scalar] = []
                    while i < s.count {
                        let d = s[i]
                        if isDigit(d) || d == "." || d == "," || NumberLiteral.isApostrophe(d) {
                            lit.append(d); i += 1
                        } else if NumberLiteral.isGroupingSpace(d), let last = lit.last, isDigit(last),
                            Parser.threeDigitsFollow(s, i + 1)
                        {
                            lit.append(d); i += 1
                        } else {
                            break
                        }
                    }
                    // `0x10` is a hexadecimal literal to a programmer, never 0 × 10.
                    if lit == ["0"], i + 1 < s.count, s[i] == "x" || s[i] == "X",
                        s[i + 1].properties.isASCIIHexDigit
                    {
                        throw fail("looks like a hexadecimal number; amounts are decimal")
                    }
                    let n = try NumberLiteral.read(lit, field: field, whole: text, minorUnits: minorUnits)
                    literalCount += 1
                    maxFractionDigits = max(maxFractionDigits, n.fractionDigits)
                    tokens.append(.number(n.value))
                    continue
                }
                switch c {
                case "+", "-", "*", "/": tokens.append(.op(Character(c)))
                case "×", "x", "X": tokens.append(.op("*"))
                case "÷": tokens.append(.op("/"))
                case "−": tokens.append(.op("-"))
                case "(": tokens.append(.open)
                case ")": tokens.append(.close)
                default: throw fail("is not a number or an expression of + - * / and parentheses")
                }
                i += 1
            }
        }

        /// True when exactly three digits start at `i` and no further digit follows them.
        static func threeDigitsFollow(_ s: [Unicode.Scalar], _ i: Int) -> Bool {
            guard i + 3 <= s.count else { return false }
            for k in i..<(i + 3) where !("0"..."9").contains(s[k]) { return false }
            return i + 3 == s.count || !("0"..."9").contains(s[i + 3])
        }

        mutating func parseAll() throws(TripError) -> Rational {
            guard !text.unicodeScalars.allSatisfy({ NumberLiteral.isGroupingSpace($0) || $0 == "\t" }) else {
                throw fail("is empty; give a price such as 12.50 or 3*1200")
            }
            try tokenize()
            let v = try expression()
            guard position == tokens.count else { throw fail("has an unexpected \(describe(tokens[position]))") }
            return v
        }

        func describe(_ t: Token) -> String {
            switch t {
            case .number: "number"
            case .op(let c): "\"\(c)\""
            case .open: "\"(\""
            case .close: "\")\""
            }
        }

        mutating func expression() throws(TripError) -> Rational {
            var v = try term()
            while position < tokens.count, case .op(let c) = tokens[position], c == "+" || c == "-" {
                position += 1
                operatorCount += 1
                let r = try term()
                v = try arithmetic { () throws(ArithmeticOverflow) in c == "+" ? try v + r : try v - r }
            }
            return v
        }

        mutating func term() throws(TripError) -> Rational {
            var v = try factor()
            while position < tokens.count, case .op(let c) = tokens[position], c == "*" || c == "/" {
                position += 1
                operatorCount += 1
                let r = try factor()
                if c == "/" && r.isZero { throw fail("divides by zero") }
                v = try arithmetic { () throws(ArithmeticOverflow) in c == "*" ? try v * r : try v / r }
            }
            return v
        }

        mutating func factor() throws(TripError) -> Rational {
            guard position < tokens.count else { throw fail("ends too early") }
            let t = tokens[position]
            position += 1
            switch t {
            case .number(let v): return v
            case .op("-"):
                operatorCount += 1
                let v = try factor()
                return try arithmetic { () throws(ArithmeticOverflow) in try v.negated() }
            case .op("+"): return try factor()
            case .open:
                depth += 1
                guard depth <= AmountExpression.maxDepth else { throw fail("nests parentheses too deeply") }
                let v = try expression()
                guard position < tokens.count, tokens[position] == .close else { throw fail("has an unclosed \"(\"") }
                position += 1
                depth -= 1
                return v
            default: throw fail("has an unexpected \(describe(t))")
            }
        }

        func arithmetic(_ body: () throws(ArithmeticOverflow) -> Rational) throws(TripError) -> Rational {
            do { return try body() } catch {
                throw fail(error == .divisionByZero ? "divides by zero" : "is too large for 64-bit minor units")
            }
        }
    }
}
