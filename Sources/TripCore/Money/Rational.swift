/// An exact rational number with a 128-bit numerator and denominator.
///
/// All money arithmetic in trip is done with this type and rounded once, explicitly, with a
/// `RoundingMode`. Invariants: `denominator > 0` and `gcd(|numerator|, denominator) == 1`.
/// Every operation checks for overflow and throws `ArithmeticOverflow` instead of trapping.
public struct Rational: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let numerator: Int128
    public let denominator: Int128

    public static let zero = Rational(integer: 0)
    public static let one = Rational(integer: 1)

    public init(integer: Int128) {
        numerator = integer
        denominator = 1
    }

    public init(_ value: Int64) { self.init(integer: Int128(value)) }

    /// Creates `numerator / denominator`, reduced. Throws on a zero denominator.
    public init(_ numerator: Int128, _ denominator: Int128) throws(ArithmeticOverflow) {
        guard denominator != 0 else { throw ArithmeticOverflow.divisionByZero }
        guard numerator != .min, denominator != .min else { throw .overflow }
        var n = numerator, d = denominator
        if d < 0 { n = -n; d = -d }
        let g = Rational.gcd(n.magnitude, d.magnitude)
        self.numerator = n / Int128(g)
        self.denominator = d / Int128(g)
    }

    static func gcd(_ a: UInt128, _ b: UInt128) -> UInt128 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }

    public var isNegative: Bool { numerator < 0 }
    public var isZero: Bool { numerator == 0 }

    public static func + (l: Rational, r: Rational) throws(ArithmeticOverflow) -> Rational {
        let g = Int128(gcd(l.denominator.magnitude, r.denominator.magnitude))
        let ld = l.denominator / g
        let rd = r.denominator / g
        let a = try mul(l.numerator, rd), b = try mul(r.numerator, ld)
        let (sum, o) = a.addingReportingOverflow(b)
        guard !o else { throw .overflow }
        return try Rational(sum, mul(l.denominator, rd))
    }

    public static func - (l: Rational, r: Rational) throws(ArithmeticOverflow) -> Rational {
        try l + r.negated()
    }

    public static func * (l: Rational, r: Rational) throws(ArithmeticOverflow) -> Rational {
        // Cross-reduce first so that products of already-reduced values stay small.
        let g1 = Int128(gcd(l.numerator.magnitude, r.denominator.magnitude))
        let g2 = Int128(gcd(r.numerator.magnitude, l.denominator.magnitude))
        return try Rational(mul(l.numerator / g1, r.numerator / g2), mul(l.denominator / g2, r.denominator / g1))
    }

    public static func / (l: Rational, r: Rational) throws(ArithmeticOverflow) -> Rational {
        guard !r.isZero else { throw .divisionByZero }
        return try l * Rational(r.denominator, r.numerator)
    }

    public func negated() throws(ArithmeticOverflow) -> Rational {
        try Rational(-numerator, denominator)
    }

    static func mul(_ a: Int128, _ b: Int128) throws(ArithmeticOverflow) -> Int128 {
        let (p, o) = a.multipliedReportingOverflow(by: b)
        guard !o else { throw .overflow }
        return p
    }

    public static func < (l: Rational, r: Rational) -> Bool {
        let (a, o1) = l.numerator.multipliedReportingOverflow(by: r.denominator)
        let (b, o2) = r.numerator.multipliedReportingOverflow(by: l.denominator)
        if !o1 && !o2 { return a < b }
        // Too large to cross-multiply: compare floors, then the fractional parts' reciprocals.
        let lf = l.rounded(.floor), rf = r.rounded(.floor)
        if lf != rf { return lf < rf }
        let lr = l.numerator - lf * l.denominator, rr = r.numerator - rf * r.denominator
        if lr == 0 || rr == 0 { return lr == 0 && rr != 0 }
        guard let li = try? Rational(l.denominator, lr), let ri = try? Rational(r.denominator, rr) else { return false }
        return ri < li
    }

    /// `self × 10^exponent`, exactly.
    public func scaled(byPowerOfTen exponent: Int) throws(ArithmeticOverflow) -> Rational {
        if exponent >= 0 { return try self * Rational(integer: Rational.pow10(exponent)) }
        return try self / Rational(integer: Rational.pow10(-exponent))
    }

    static func pow10(_ n: Int) -> Int128 {
        var r: Int128 = 1
        for _ in 0..<n { r *= 10 }
        return r
    }

    /// Rounds to an integer with the given mode. Halves are ties; "half-up" moves a tie away from zero.
    public func rounded(_ mode: RoundingMode) -> Int128 {
        // A reduced fraction with denominator ≥ 2 has |quotient| ≤ Int128.max / 2: one step away
        // from zero cannot overflow.
        Rational.roundedQuotient(numerator, denominator, mode)!
    }

    /// `self × value` rounded to an integer with `mode`: the value of `(self * Rational(value)).roundedToInt64(mode)`
    /// without reducing the product, in 64-bit arithmetic when it fits, else 128-bit. `nil` when
    /// the product does not fit 128 bits or the result an `Int64` (the reducing product may still).
    @inlinable
    public func timesRounded(_ value: Int64, _ mode: RoundingMode) -> Int64? {
        if let p = Int64(exactly: numerator), let q = Int64(exactly: denominator) {
            let (n, overflow) = value.multipliedReportingOverflow(by: p)
            if !overflow { return Rational.roundedQuotient(n, q, mode) }
        }
        let (n, overflow) = Int128(value).multipliedReportingOverflow(by: numerator)
        guard !overflow else { return nil }
        return Rational.roundedQuotient(n, denominator, mode).flatMap { Int64(exactly: $0) }
    }

    /// `n / d` (`d > 0`) rounded with `mode`: the one rounding of a quotient in trip. Halves are
    /// ties; "half-up" moves a tie away from zero. `nil` when rounding away from zero overflows.
    @inlinable
    static func roundedQuotient<T: FixedWidthInteger & SignedInteger>(_ n: T, _ d: T, _ mode: RoundingMode) -> T? {
        let (q, r) = n.quotientAndRemainder(dividingBy: d)  // q truncated toward zero, r has n's sign
        if r == 0 { return q }
        let positive = n > 0
        let away = positive ? q.addingReportingOverflow(1) : q.subtractingReportingOverflow(1)
        if away.overflow { return nil }
        switch mode {
        case .floor: return positive ? q : away.partialValue
        case .ceiling: return positive ? away.partialValue : q
        case .halfUp, .halfEven:
            let twice = r.magnitude.multipliedReportingOverflow(by: 2)
            let dm = d.magnitude
            if twice.overflow || twice.partialValue > dm { return away.partialValue }
            if twice.partialValue < dm { return q }
            if mode == .halfUp { return away.partialValue }
            return q % 2 == 0 ? q : away.partialValue
        }
    }

    /// Rounds to an `Int64` count of minor units, or throws if it does not fit.
    public func roundedToInt64(_ mode: RoundingMode) throws(ArithmeticOverflow) -> Int64 {
        let v = rounded(mode)
        guard let i = Int64(exactly: v) else { throw .overflow }
        return i
    }

    /// Parses a plain decimal literal: optional `-`, digits, optional `.` and digits. No exponent,
    /// no separators. At most 30 significant digits.
    public init?(decimalText: some StringProtocol) {
        var digits: Int128 = 0
        var scale = 0
        var seenDot = false, seenDigit = false, negative = false, count = 0
        for (i, c) in decimalText.utf8.enumerated() {
            switch c {
            case UInt8(ascii: "-") where i == 0: negative = true
            case UInt8(ascii: "."): if seenDot { return nil }; seenDot = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                seenDigit = true
                if digits == 0 && c == UInt8(ascii: "0") && !seenDot { continue }
                count += 1
                guard count <= 30 else { return nil }
                digits = digits * 10 + Int128(c - UInt8(ascii: "0"))
                if seenDot { scale += 1 }
            default: return nil
            }
        }
        guard seenDigit else { return nil }
        guard let r = try? Rational(negative ? -digits : digits, Rational.pow10(scale)) else { return nil }
        self = r
    }

    /// The exact decimal expansion if it terminates within `maxFractionDigits`, else `nil`.
    public func exactDecimalText(maxFractionDigits: Int = 30) -> String? {
        var d = denominator
        var scale = 0
        while d % 10 == 0 { d /= 10; scale += 1 }
        while d % 2 == 0 { d /= 2; scale += 1 }
        while d % 5 == 0 { d /= 5; scale += 1 }
        guard d == 1, scale <= maxFractionDigits else { return nil }
        return decimalText(fractionDigits: scale, rounding: .halfUp)
    }

    /// Renders with exactly `fractionDigits` digits after the point, rounding with `mode`.
    public func decimalText(fractionDigits: Int, rounding mode: RoundingMode) -> String {
        let scaled = (try? scaled(byPowerOfTen: fractionDigits))?.rounded(mode) ?? 0
        return Rational.render(minorUnits: scaled, exponent: fractionDigits)
    }

    /// Renders to `significant` significant digits (rounded half-up), trailing zeros removed.
    /// Used for derived rates such as crosses and inverses.
    public func significantDecimalText(_ significant: Int) -> String {
        guard !isZero else { return "0" }
        // e = floor(log10(|x|)), from the digit counts, corrected by one comparison.
        let n = numerator.magnitude, d = denominator.magnitude
        var e = String(n).count - String(d).count
        let absolute = (try? Rational(Int128(n), Int128(d))) ?? .zero
        if let bound = try? Rational.one.scaled(byPowerOfTen: e), absolute < bound { e -= 1 }
        let fraction = max(0, significant - 1 - e)
        var text = decimalText(fractionDigits: fraction, rounding: .halfUp)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    /// 1 / rate of a rate's text: exact when it terminates within 12 decimals, else to 12
    /// significant digits (`derivedRateText`); the text itself when it is not a rate.
    public static func inverse(ofRate text: String) -> String {
        guard let r = Rational(decimalText: text), let inv = try? Rational.one / r else { return text }
        return inv.derivedRateText
    }

    /// A derived rate (an inverse, a cross, charged ÷ price) as trip stores and shows it: exact
    /// when it terminates within 12 decimals, else to 12 significant digits.
    public var derivedRateText: String {
        exactDecimalText(maxFractionDigits: 12) ?? significantDecimalText(12)
    }

    /// Writes an integer count of `10^-exponent` units as decimal text: (1234, 2) → "12.34".
    public static func render(minorUnits: Int128, exponent: Int) -> String {
        let negative = minorUnits < 0
        var digits = String(minorUnits.magnitude)
        if exponent > 0 {
            if digits.count <= exponent { digits = String(repeating: "0", count: exponent - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -exponent))
        }
        return negative ? "-" + digits : digits
    }

    public var description: String {
        exactDecimalText() ?? "\(numerator)/\(denominator)"
    }

    /// An integer, or the exact fraction `NUM/DEN` in lowest terms (`3/5`, `1/3`): how a split's
    /// weight or a member's portion is written out.
    public var fractionText: String {
        denominator == 1 ? String(numerator) : "\(numerator)/\(denominator)"
    }
}

/// Arithmetic that left the exact range: a result beyond 128 bits, or a division by zero.
public enum ArithmeticOverflow: Error, Sendable, Equatable {
    case overflow
    case divisionByZero
}
