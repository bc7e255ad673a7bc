/// What a rate pulled from a shared trip's log must be before it is stored (issue 36): whoever
/// can write into the log can write any text, and a rate that is not one would convert the
/// trip's purchases to nonsense on every device.
public enum PulledRate {
    /// The largest rate accepted from a log. The widest real spread between two currencies is
    /// about 10^6 (1 KWD in IRR); a trillion leaves room and keeps a converted amount in 64 bits.
    public static let maximum = Rational(integer: 1_000_000_000_000)

    /// `text` as `trip rates set` takes a rate (a positive plain decimal, at most 30 digits),
    /// written exactly so, and at most `maximum`.
    public static func rate(_ text: String?, field: String) throws(TripError) -> String {
        let t = text ?? ""
        let checked = try RateQuote.checkedRate(t, field: field)
        guard checked == t, let r = Rational(decimalText: t), r <= maximum else {
            throw .badRate(field: field, value: t, reason: "is not a rate a shared trip accepts (a positive decimal up to 1000000000000)")
        }
        return checked
    }

    /// An active ISO 4217 code with minor units, exactly as it is written.
    public static func currency(_ text: String?, field: String) throws(TripError) -> Currency {
        let t = text ?? ""
        guard let c = CurrencyTable.shared.lookup(t), c.code == t else {
            throw .badTextValue(field: field, value: t, reason: "is not a currency code")
        }
        return c
    }

    /// A real day, `YYYY-MM-DD`.
    public static func date(_ text: String?, field: String) throws(TripError) -> CivilDate {
        guard let text, let d = CivilDate(iso: text), d.description == text else { throw .badDate(field: field, value: text ?? "") }
        return d
    }
}
