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

    public init(today: CivilDate, now: String) {
        self.today = today
        self.now = now
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
        let now = "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))Z"
        return Clock(today: CivilDate.systemToday(), now: now)
    }

    /// Reads a date argument: `YYYY-MM-DD`, `today` or `yesterday`.
    public func date(_ text: String, field: String) throws(TripError) -> CivilDate {
        switch text.lowercased() {
        case "today": return today
        case "yesterday": return today.adding(days: -1)!
        default:
            guard let d = CivilDate(iso: text) else { throw .badDate(field: field, value: text) }
            return d
        }
    }
}
