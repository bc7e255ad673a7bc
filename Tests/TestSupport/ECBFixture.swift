import Foundation

/// An ECB eurofxref XML file read independently of the production parser, to compute what a
/// sync must produce: the publication used for a date, the cross rate, the home amount.
public struct ECBFixture: Sendable {
    /// Publication date → currency → rate text (units per 1 EUR).
    public let days: [String: [String: String]]

    public init(xml: String) {
        var days: [String: [String: String]] = [:]
        var current: String?
        for piece in xml.components(separatedBy: "<Cube").dropFirst() {
            if let t = ECBFixture.attribute("time", in: piece) { current = t; days[t] = [:] }
            if let c = ECBFixture.attribute("currency", in: piece), let r = ECBFixture.attribute("rate", in: piece), let d = current {
                days[d]![c] = r
            }
        }
        self.days = days
    }

    static func attribute(_ name: String, in text: String) -> String? {
        for quote in ["\"", "'"] {
            if let start = text.range(of: "\(name)=\(quote)") {
                let rest = text[start.upperBound...]
                if let end = rest.firstIndex(of: Character(quote)) { return String(rest[..<end]) }
            }
        }
        return nil
    }

    /// The newest publication on or before `date`.
    public func publication(onOrBefore date: String) -> String? {
        days.keys.filter { $0 <= date }.max()
    }

    /// 1 `from` in `to` on publication `day`, as an exact Decimal (EUR is 1).
    public func rate(from: String, to: String, on day: String) -> Decimal? {
        func perEUR(_ c: String) -> Decimal? { c == "EUR" ? 1 : days[day]?[c].flatMap { Decimal(string: $0) } }
        guard let a = perEUR(from), let b = perEUR(to) else { return nil }
        return b / a
    }

    /// `value` rounded half-up to `scale` decimals.
    public static func round(_ value: Decimal, scale: Int) -> Decimal {
        var v = value, out = Decimal()
        NSDecimalRound(&out, &v, scale, .plain)
        return out
    }

    /// A Frankfurter v1 time-series body (EUR base) for `from…to`, starting at the publication on
    /// or before `from` as Frankfurter does.
    public func frankfurterSeries(from: String, to: String) -> String {
        let start = publication(onOrBefore: from) ?? from
        let dates = days.keys.filter { $0 >= start && $0 <= to }.sorted()
        let rates = dates.map { d in
            "\"\(d)\":{" + days[d]!.keys.sorted().map { "\"\($0)\":\(days[d]![$0]!)" }.joined(separator: ",") + "}"
        }.joined(separator: ",")
        return #"{"amount":1.0,"base":"EUR","start_date":"\#(dates.first ?? start)","end_date":"\#(dates.last ?? to)","rates":{\#(rates)}}"#
    }

    /// A Frankfurter v1 `/latest` body for the newest publication.
    public func frankfurterLatest() -> String {
        let d = days.keys.max()!
        let rates = days[d]!.keys.sorted().map { "\"\($0)\":\(days[d]![$0]!)" }.joined(separator: ",")
        return #"{"amount":1.0,"base":"EUR","date":"\#(d)","rates":{\#(rates)}}"#
    }
}
