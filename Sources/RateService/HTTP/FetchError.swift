import TripCore

/// Why a rate fetch failed, with a one-line message naming the host or URL at fault.
///
/// URLs and hosts stored here are already masked (`Redaction`): user info and key-like query
/// parameters never reach an error value, so printing or logging one cannot leak a credential.
/// Nothing in `RateService` retries; `rateLimited` reports how long the provider asked to wait.
public enum FetchError: Error, CustomStringConvertible, Equatable, Sendable {
    /// Which limit a `timeout` hit.
    public enum TimeoutPhase: String, Sendable, Equatable {
        /// No TCP (and TLS) connection within `HTTPClient.Configuration.connectTimeout`.
        case connect
        /// The whole exchange, redirects included, exceeded `HTTPClient.Configuration.totalTimeout`.
        case total
    }

    /// Why a redirect was not followed.
    public enum RedirectRefusal: Sendable, Equatable {
        /// The target is plain `http://` on a host that is not loopback (or not http(s) at all).
        case insecureTarget
        /// More than this many redirects in a row.
        case tooMany(limit: Int)
    }

    /// Not online: the name did not resolve or the network/host is unreachable.
    case noNetwork(host: String, detail: String)
    /// The host answered but nothing listens on that port.
    case connectionRefused(host: String)
    /// A limit from `HTTPClient.Configuration` ran out.
    case timeout(url: String, phase: TimeoutPhase, limit: Duration)
    /// Connected, but fewer than `minimumBytesPerSecond` arrived for `window` in a row
    /// (`HTTPClient.Configuration.lowSpeedLimit`): a slow-loris server or a dying link.
    case tooSlow(url: String, minimumBytesPerSecond: Int, window: Duration)
    /// TLS handshake or certificate verification failed; `detail` is libcurl's explanation.
    case tls(host: String, detail: String)
    /// The provider refused the request: an HTTP error status, or (for providers that report
    /// errors inside a 200 body) the error the body carries. `message` is the provider's own
    /// words (`message`, `error` or `error-type` of a JSON body) when there were any.
    case httpStatus(url: String, status: Int, message: String?)
    /// The body arrived but is not what the provider documents; `reason` says what is wrong.
    case malformedBody(url: String, reason: String)
    /// An HTML page came back where JSON or XML was expected: a Wi-Fi login page or a bot wall.
    case captivePortal(url: String)
    /// HTTP 429 (or 503 with `Retry-After`). `retryAfterSeconds` is the wait the provider asked
    /// for, when it said. Never retried automatically.
    case rateLimited(url: String, retryAfterSeconds: Int?)
    /// The body exceeded the cap (decoded bytes).
    case bodyTooLarge(url: String, limitBytes: Int)
    /// A redirect was not followed; `to` is the refused target (nil when the count ran out).
    case redirectRefused(from: String, to: String?, reason: RedirectRefusal)
    /// Refused before any network I/O: plain `http://` to a host that is not loopback.
    case insecureURL(url: String)
    /// The URL (or a date/code that goes into it) cannot be used.
    case invalidURL(url: String, reason: String)
    /// A transport failure that fits none of the above (connection reset, empty reply, …).
    case transferFailed(url: String, detail: String)
    /// libcurl could not be loaded (`dlopen("libcurl.so.4")`) or initialised.
    case libcurlUnavailable(detail: String)

    public var description: String {
        switch self {
        case let .noNetwork(host, detail):
            return "No network: cannot reach \(host) (\(detail))."
        case let .connectionRefused(host):
            return "Connection refused by \(host)."
        case let .timeout(url, phase, limit):
            let what = phase == .connect ? "Connecting to" : "Fetching"
            return "\(what) \(url) timed out after \(Self.seconds(limit)) s."
        case let .tooSlow(url, minimum, window):
            return "Fetching \(url) stalled: under \(minimum) bytes/s for \(Self.seconds(window)) s."
        case let .tls(host, detail):
            return "TLS error with \(host): \(detail)."
        case let .httpStatus(url, status, message):
            let said = message.map { ": \(Self.printable($0))" } ?? ""
            if (200..<300).contains(status) {
                return "\(url) reported an error\(said.isEmpty ? "" : said)."
            }
            return "\(url) answered HTTP \(status)\(said)."
        case let .malformedBody(url, reason):
            return "Unusable response from \(url): \(Self.printable(reason))."
        case let .captivePortal(url):
            return "\(url) returned an HTML page instead of data (captive portal or login page?)."
        case let .rateLimited(url, retryAfterSeconds):
            if let wait = retryAfterSeconds {
                return "\(url) is rate limiting requests; retry after \(wait) s."
            }
            return "\(url) is rate limiting requests; retry later."
        case let .bodyTooLarge(url, limitBytes):
            return "Response from \(url) exceeds the \(Self.bytes(limitBytes)) limit."
        case let .redirectRefused(from, to, reason):
            switch reason {
            case .insecureTarget:
                return "Refused redirect from \(from) to \(to ?? "?"): only https (or loopback http) is allowed."
            case let .tooMany(limit):
                return "Refused redirect from \(from): more than \(limit) redirects."
            }
        case let .insecureURL(url):
            return "Refused \(url): plain http is only allowed to loopback hosts; use https."
        case let .invalidURL(url, reason):
            return "Invalid request \(url): \(reason)."
        case let .transferFailed(url, detail):
            return "Fetching \(url) failed: \(detail)."
        case let .libcurlUnavailable(detail):
            return "Network support unavailable: libcurl could not be loaded (\(detail))."
        }
    }

    /// True when the host could not be reached or did not deliver in time (no network, refused,
    /// TLS failure, a timeout or the low-speed limit): asking it again now would fail the same way.
    public var meansUnreachable: Bool {
        switch self {
        case .noNetwork, .connectionRefused, .timeout, .tooSlow, .tls, .libcurlUnavailable: true
        default: false
        }
    }

    /// The same error with every occurrence of each secret (API keys, passwords; see
    /// `Redaction.secrets`) replaced by `***` in all its text: URLs, hosts, libcurl's and the
    /// provider's own words. Secrets shorter than `Redaction.minimumSecretLength` are ignored.
    public func scrubbing(_ secrets: [String]) -> FetchError {
        let secrets = Redaction.usable(secrets)
        guard !secrets.isEmpty else { return self }
        func s(_ text: String) -> String { Redaction.scrub(text, secrets: secrets) }
        switch self {
        case let .noNetwork(host, detail): return .noNetwork(host: s(host), detail: s(detail))
        case let .connectionRefused(host): return .connectionRefused(host: s(host))
        case let .timeout(url, phase, limit): return .timeout(url: s(url), phase: phase, limit: limit)
        case let .tooSlow(url, minimum, window): return .tooSlow(url: s(url), minimumBytesPerSecond: minimum, window: window)
        case let .tls(host, detail): return .tls(host: s(host), detail: s(detail))
        case let .httpStatus(url, status, message): return .httpStatus(url: s(url), status: status, message: message.map(s))
        case let .malformedBody(url, reason): return .malformedBody(url: s(url), reason: s(reason))
        case let .captivePortal(url): return .captivePortal(url: s(url))
        case let .rateLimited(url, wait): return .rateLimited(url: s(url), retryAfterSeconds: wait)
        case let .bodyTooLarge(url, limit): return .bodyTooLarge(url: s(url), limitBytes: limit)
        case let .redirectRefused(from, to, reason): return .redirectRefused(from: s(from), to: to.map(s), reason: reason)
        case let .insecureURL(url): return .insecureURL(url: s(url))
        case let .invalidURL(url, reason): return .invalidURL(url: s(url), reason: s(reason))
        case let .transferFailed(url, detail): return .transferFailed(url: s(url), detail: s(detail))
        case let .libcurlUnavailable(detail): return .libcurlUnavailable(detail: s(detail))
        }
    }

    /// `text` with the characters `UnsafeText.isUnsafe` flags written as `\u{…}`. A reason or
    /// provider message can quote bytes of a hostile body; the message must stay one terminal-safe line.
    static func printable(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if UnsafeText.isUnsafe(scalar) {
                out.append(contentsOf: UnsafeText.escaped(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Seconds with up to three decimals, trailing zeros dropped ("20", "1.5").
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        let whole = milliseconds / 1000, fraction = milliseconds % 1000
        guard fraction != 0 else { return "\(whole)" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// "10 MiB" for whole mebibytes, otherwise bytes.
    static func bytes(_ count: Int) -> String {
        count % (1 << 20) == 0 ? "\(count >> 20) MiB" : "\(count) bytes"
    }
}
