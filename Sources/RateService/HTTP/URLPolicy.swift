/// Which URLs `HTTPClient` may fetch: https anywhere, plain http only to this machine.
enum URLPolicy {
    /// Whether `host` (as libcurl normalises it: lowercased, IPv4 dotted, IPv6 in brackets)
    /// is loopback: `localhost`, 127.0.0.0/8 or `[::1]`.
    static func isLoopback(host: String) -> Bool {
        if host == "localhost" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCII) && UInt8(octet) != nil
        }
    }

    /// Whether a parsed URL may be requested.
    static func allows(_ parts: CurlURLParts) -> Bool {
        switch parts.scheme {
        case "https": return true
        case "http": return isLoopback(host: parts.host)
        default: return false
        }
    }
}
