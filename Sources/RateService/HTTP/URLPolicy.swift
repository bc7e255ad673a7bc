import TripCore

/// Which URLs `HTTPClient` may fetch: https anywhere, plain http only to this machine.
enum URLPolicy {
    /// Whether `host` (as libcurl normalises it: lowercased, IPv4 dotted, IPv6 in brackets)
    /// is loopback: the rule is `Loopback`'s.
    static func isLoopback(host: String) -> Bool { Loopback.isLoopback(host: host) }

    /// Whether a parsed URL may be requested.
    static func allows(_ parts: CurlURLParts) -> Bool {
        switch parts.scheme {
        case "https": return true
        case "http": return isLoopback(host: parts.host)
        default: return false
        }
    }
}
