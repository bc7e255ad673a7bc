import TripCore

/// Parses `Retry-After` (RFC 9110 §10.2.3).
enum RetryAfter {
    /// Seconds to wait, or nil if the value is neither delta-seconds nor a usable HTTP-date.
    ///
    /// An HTTP-date is turned into seconds relative to the response's own `Date` header (no
    /// local clock involved); without a `Date` header it cannot be converted and yields nil.
    /// Negative waits become 0.
    static func seconds(_ value: String, responseDate: String?) -> Int? {
        let trimmed = value.trimmingSpaces
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return Int(trimmed.prefix(9))
        }
        guard let target = HTTPDate.unixSeconds(trimmed),
            let responseDate, let now = HTTPDate.unixSeconds(responseDate.trimmingSpaces)
        else { return nil }
        return Int(max(0, target - now))
    }
}

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the only HTTP-date form servers must send.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Unix seconds, or nil if `text` is not an IMF-fixdate.
    static func unixSeconds(_ text: String) -> Int64? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[0].hasSuffix(","), fields[5] == "GMT",
            let day = Int(fields[1]), let monthIndex = months.firstIndex(of: String(fields[2])),
            let year = Int(fields[3])
        else { return nil }
        let clock = fields[4].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0..<24).contains(hour), (0..<60).contains(minute), (0...60).contains(second),
            let date = CivilDate(year: year, month: monthIndex + 1, day: day)
        else { return nil }
        return Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }
}
