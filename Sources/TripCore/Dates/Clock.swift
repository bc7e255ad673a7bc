#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where "today" and "now" come from. Commands build one from the environment (`TRIP_TODAY`) and
/// pass it down; nothing below the command layer reads the system clock.
public struct Clock: Sendable {
    public let today: CivilDate
    /// UTC timestamp `YYYY-MM-DDTHH:MM:SSZ`, for `created_at` and fetch times.
    public let now: String
    /// How slash dates (`3/5`) are read; nil accepts only those with one possible reading.
    public var dateOrder: DateOrder?

    public init(today: CivilDate, now: String, dateOrder: DateOrder? = nil) {
        self.today = today
        self.now = now
        self.dateOrder = dateOrder
    }

    /// `TRIP_TODAY=YYYY-MM-DD` pins today (and now, to its midnight UTC); otherwise the system clock.
    public static func fromEnvironment(_ env: [String: String]) throws(TripError) -> Clock {
        if let pinned = env["TRIP_TODAY"] {
            guard let d = CivilDate(iso: pinned) else { throw .badDate(field: "TRIP_TODAY", value: pinned) }
            return Clock(today: d, now: "\(d)T00:00:00Z")
        }
        var t = time(nil)
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let now =
            "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))Z"
        return Clock(today: CivilDate.systemToday(), now: now)
    }

    /// Reads a date argument the way hledger users type one.
    ///
    /// - `YYYY-MM-DD`;
    /// - `today`, `yesterday`, `tomorrow`;
    /// - `-N`: N days before today (`-2` is the day before yesterday);
    /// - a weekday, `mon`…`sun` or in full (`monday`): the most recent such day on or before today,
    ///   so on a Monday `mon` is today;
    /// - `D/M`, `M/D`, also with a four-digit year: read by `dateOrder` only; without one they are
    ///   refused with their readings. A year left out is today's year.
    public func date(_ text: String, field: String) throws(TripError) -> CivilDate {
        let t = text.trimmingSpaces.lowercased()
        switch t {
        case "today": return today
        case "yesterday": return today.adding(days: -1)!
        case "tomorrow": return today.adding(days: 1)!
        default: break
        }
        if let d = CivilDate(iso: t) { return d }
        if t.first == "-", t.count > 1, t.count <= 7, t.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }),
            let n = Int(t.dropFirst()), let d = today.adding(days: -n)
        {
            return d
        }
        if let weekday = Clock.weekdays.firstIndex(where: { $0.contains(t) }) {
            return today.adding(days: -((today.weekday - weekday + 7) % 7))!
        }
        if t.contains("/") { return try slashDate(text, t, field: field) }
        throw .badDate(field: field, value: text)
    }

    /// Reads `--since` and `--until`; one after the other is a usage error (64), not an empty result.
    public func range(since: String?, until: String?) throws(TripError) -> (since: CivilDate?, until: CivilDate?) {
        let from = try since.map { s throws(TripError) in try date(s, field: "since") }
        let to = try until.map { u throws(TripError) in try date(u, field: "until") }
        if let from, let to, to < from {
            throw .usage("until: \(quoted(until!))\(until! == to.description ? "" : " (\(to))") is before --since \(from)")
        }
        return (from, to)
    }

    /// Accepted spellings of Monday … Sunday, as `CivilDate.weekday` numbers them.
    static let weekdays: [Set<String>] = [
        ["mon", "monday"], ["tue", "tues", "tuesday"], ["wed", "weds", "wednesday"],
        ["thu", "thur", "thurs", "thursday"], ["fri", "friday"], ["sat", "saturday"], ["sun", "sunday"],
    ]

    private func slashDate(_ text: String, _ t: String, field: String) throws(TripError) -> CivilDate {
        let parts = t.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else {
            throw .badDate(field: field, value: text)
        }
        let n = parts.map { Int($0)! }
        // Each reading: (day, month, year); a four-digit part is the year and fixes its position.
        var readings: [(order: DateOrder, date: CivilDate)] = []
        func consider(_ order: DateOrder, day: Int, month: Int, year: Int, yearDigits: Int) {
            guard yearDigits == 4 || parts.count == 2, let d = CivilDate(year: year, month: month, day: day) else { return }
            readings.append((order, d))
        }
        if parts.count == 2 {
            consider(.dmy, day: n[0], month: n[1], year: today.year, yearDigits: 0)
            consider(.mdy, day: n[1], month: n[0], year: today.year, yearDigits: 0)
        } else {
            consider(.dmy, day: n[0], month: n[1], year: n[2], yearDigits: parts[2].count)
            consider(.mdy, day: n[1], month: n[0], year: n[2], yearDigits: parts[2].count)
            consider(.ymd, day: n[2], month: n[1], year: n[0], yearDigits: parts[0].count)
        }
        if let order = dateOrder {
            // A year-less date under ymd is month/day, as in hledger.
            let wanted: DateOrder = order == .ymd && parts.count == 2 ? .mdy : order
            if let r = readings.first(where: { $0.order == wanted }) { return r.date }
            if parts.count == 3, let r = readings.first(where: { $0.order == .ymd }) { return r.date }
            throw .badDate(field: field, value: text)
        }
        // No date order set: even a date with one reading (13/5) is refused, so that a habit of
        // typing day/month is not silently read the other way on the 1st to the 12th.
        var distinct: [(order: DateOrder, date: CivilDate)] = []
        for r in readings where !distinct.contains(where: { $0.date == r.date }) { distinct.append(r) }
        guard !distinct.isEmpty else { throw .badDate(field: field, value: text) }
        let names: [DateOrder: String] = [.dmy: "day/month", .mdy: "month/day", .ymd: "year/month/day"]
        throw .ambiguousDate(
            field: field, value: text, readings: distinct.map { "\(names[$0.order]!) \($0.date)" },
            suggestions: distinct.map(\.date.description))
    }
}
