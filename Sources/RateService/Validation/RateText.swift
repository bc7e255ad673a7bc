/// Checks that published rate text is a plain, positive, finite decimal.
///
/// Rates are kept as the exact text the provider published; this only decides whether that
/// text is acceptable. Accepted: `digits` or `digits.digits`, no sign, no exponent, no leading
/// zeros (other than the `0` of `0.xxx`), at most `maxIntegerDigits` before and
/// `maxFractionDigits` after the point, `maxSignificantDigits` in all, and not zero. That rejects
/// `0`, `-1.2`, `NaN`, `Infinity` and `1e308`-style values before anything can overflow.
///
/// The value must also lie in the sane range `10^-10 ≤ rate < 10^10` (`saneExponent`): no
/// currency pair trades outside it (the widest real pairs, e.g. KWD/IRR, are near 10^5), so
/// anything beyond is a broken or hostile feed. The check is on the digits themselves, exactly:
/// nothing goes through `Double`.
enum RateText {
    static let maxIntegerDigits = 20
    static let maxFractionDigits = 20
    /// Digits after any leading `0`, so that the rate is always an exact `Rational`.
    static let maxSignificantDigits = 30
    /// Rates must satisfy `10^-saneExponent ≤ rate < 10^saneExponent`.
    static let saneExponent = 10

    /// nil when `text` is acceptable, otherwise why not (for a message).
    static func problem(with text: some StringProtocol) -> String? {
        var integerDigits = 0, fractionDigits = 0, nonZero = false, seenPoint = false, leadingZero = false
        // Zeros after the point before the first significant digit (when the integer part is 0).
        var fractionLeadingZeros = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if seenPoint {
                    fractionDigits += 1
                    if !nonZero && byte == UInt8(ascii: "0") { fractionLeadingZeros += 1 }
                } else {
                    if integerDigits == 1 && leadingZero { return "leading zero" }
                    if integerDigits == 0 && byte == UInt8(ascii: "0") { leadingZero = true }
                    integerDigits += 1
                }
                if byte != UInt8(ascii: "0") { nonZero = true }
            case UInt8(ascii: "."):
                guard !seenPoint, integerDigits > 0 else { return "not a plain decimal" }
                seenPoint = true
            default:
                return "not a plain positive decimal"
            }
        }
        guard integerDigits > 0, !seenPoint || fractionDigits > 0 else { return "not a plain decimal" }
        guard integerDigits <= maxIntegerDigits, fractionDigits <= maxFractionDigits else { return "too many digits" }
        // `Rational(decimalText:)`, which every later use of a rate goes through, takes at most 30.
        guard (leadingZero ? 0 : integerDigits) + fractionDigits <= maxSignificantDigits else { return "too many digits" }
        guard nonZero else { return "zero" }
        // Integer part without its lone leading "0" (for "0.xxx").
        if integerDigits - (leadingZero ? 1 : 0) > saneExponent { return "out of range (at least 1e\(saneExponent))" }
        if leadingZero && fractionLeadingZeros >= saneExponent { return "out of range (below 1e-\(saneExponent))" }
        return nil
    }
}
