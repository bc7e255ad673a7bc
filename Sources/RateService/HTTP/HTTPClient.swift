import TripCore

/// GET over libcurl with the safety rules every rate provider needs.
///
/// - HTTPS with certificate verification, always. Plain `http://` only to loopback
///   (127.0.0.0/8, `localhost`, `[::1]`); anything else is refused before any network I/O.
/// - Limits on every hop: connect timeout, a deadline for the whole `get`, a low-speed limit
///   (slow-loris bodies end), and a cap on the *decoded* body (gzip bombs end at the cap).
/// - Redirects: at most `Configuration.maxRedirects`, each target checked by the same rule.
/// - No credential in any error: URL user info and key-like query values are masked, and the
///   request's credentials and `Configuration.secrets` are scrubbed from all error text.
/// - `Accept-Encoding` for everything libcurl can decode; `User-Agent: trip/VERSION`.
/// - Proxy environment variables (`https_proxy`, `no_proxy`, …) are honoured by libcurl.
/// - No retries, ever: a failure is reported once, with the provider's requested wait if any.
///
/// Each call uses its own libcurl handle, so one client may be shared across threads.
/// libcurl itself is loaded on the first request, not before.
public struct HTTPClient: HTTPFetching {
    /// Limits and identity of a client. Durations must be positive.
    public struct Configuration: Sendable, Equatable {
        /// Sent as `User-Agent: trip/<version>`.
        public var version: String
        /// Time to establish the TCP (and TLS) connection of one hop.
        public var connectTimeout: Duration
        /// Time for the whole `get`, redirects included.
        public var totalTimeout: Duration
        /// Largest body accepted, in bytes after content decoding. The transfer is aborted
        /// as soon as more arrives.
        public var maxBodyBytes: Int
        /// Redirects followed before giving up with `redirectRefused(.tooMany)`.
        public var maxRedirects: Int
        /// Bytes per second (wire bytes, as libcurl counts them); a hop that stays below this
        /// for `lowSpeedTime` is aborted with `tooSlow`. Ends slow-loris bodies early.
        public var lowSpeedLimit: Int
        /// How long a hop may stay below `lowSpeedLimit`; whole seconds, at least 1.
        public var lowSpeedTime: Duration
        /// Values masked as `***` in every error this client throws (API keys from the
        /// environment; see `Redaction.secrets(inEnvironment:)`). Credentials inside the URL
        /// itself are always masked.
        public var secrets: [String]

        /// Defaults: 5 s connect, 20 s total, 10 MiB body, 3 redirects, under 100 bytes/s for 10 s aborts.
        public init(
            version: String,
            connectTimeout: Duration = .seconds(5),
            totalTimeout: Duration = .seconds(20),
            maxBodyBytes: Int = 10 << 20,
            maxRedirects: Int = 3,
            lowSpeedLimit: Int = 100,
            lowSpeedTime: Duration = .seconds(10),
            secrets: [String] = []
        ) {
            self.version = version
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.maxBodyBytes = maxBodyBytes
            self.maxRedirects = maxRedirects
            self.lowSpeedLimit = lowSpeedLimit
            self.lowSpeedTime = lowSpeedTime
            self.secrets = secrets
        }
    }

    public var configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Fetches `url`; returns the final 2xx or 304 response.
    ///
    /// Errors: 429, and 503 with `Retry-After`, → `rateLimited`; other non-2xx statuses →
    /// `httpStatus` with the provider's message from a JSON body; transport problems →
    /// their own cases (see `FetchError`). A 304 is a success: the caller's copy is current.
    public func get(
        url: String, headers: [String: String] = [:], validators: ResponseValidators? = nil, maxBodyBytes: Int? = nil
    ) throws(FetchError) -> HTTPResponse {
        do {
            return try unscrubbedGet(url: url, headers: headers, validators: validators, maxBodyBytes: maxBodyBytes)
        } catch {
            // Last line of defence: whatever libcurl, a redirect target or the provider's body
            // said, no credential of the request (or configured secret) leaves in the error.
            throw error.scrubbing(Redaction.secrets(in: url) + configuration.secrets)
        }
    }

    private func unscrubbedGet(
        url: String, headers: [String: String], validators: ResponseValidators?, maxBodyBytes: Int?
    ) throws(FetchError) -> HTTPResponse {
        // Checked before libcurl is even loaded: the cheapest way to guarantee no I/O happens.
        try Self.refuseObviouslyInsecure(url)
        let parts = try CurlBoundary.parseURL(url)
        guard URLPolicy.allows(parts) else { throw .insecureURL(url: Redaction.mask(url: url)) }

        var headerLines = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        if let etag = validators?.etag { headerLines.append("If-None-Match: \(etag)") }
        if let lastModified = validators?.lastModified { headerLines.append("If-Modified-Since: \(lastModified)") }
        for line in headerLines where line.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            throw .invalidURL(url: Redaction.mask(url: url), reason: "header contains a line break: \(line.prefix(40))")
        }

        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: configuration.totalTimeout)
        var current = url
        for hop in 0...configuration.maxRedirects {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw .timeout(url: Redaction.mask(url: current), phase: .total, limit: configuration.totalTimeout)
            }
            let result: CurlResult
            do {
                result = try CurlBoundary.perform(
                    CurlRequest(
                        url: current,
                        headerLines: headerLines,
                        userAgent: "trip/\(configuration.version)",
                        connectTimeoutMilliseconds: Self.milliseconds(configuration.connectTimeout),
                        totalTimeoutMilliseconds: Self.milliseconds(remaining),
                        maxBodyBytes: maxBodyBytes ?? configuration.maxBodyBytes,
                        lowSpeedBytesPerSecond: max(1, configuration.lowSpeedLimit),
                        lowSpeedSeconds: max(1, Int(configuration.lowSpeedTime.components.seconds))
                    ))
            } catch .timeout(let url, .total, _) {
                // This hop only had what was left; the person configured (and should read) the total.
                throw .timeout(url: url, phase: .total, limit: configuration.totalTimeout)
            }
            if (300..<400).contains(result.status), result.status != 304, let target = result.redirectURL {
                guard hop < configuration.maxRedirects else {
                    throw .redirectRefused(
                        from: Redaction.mask(url: current), to: nil, reason: .tooMany(limit: configuration.maxRedirects))
                }
                let targetParts: CurlURLParts
                do { targetParts = try CurlBoundary.parseURL(target) } catch {
                    throw .redirectRefused(
                        from: Redaction.mask(url: current), to: Redaction.mask(url: target), reason: .insecureTarget)
                }
                guard URLPolicy.allows(targetParts) else {
                    throw .redirectRefused(
                        from: Redaction.mask(url: current), to: Redaction.mask(url: target), reason: .insecureTarget)
                }
                current = target
                continue
            }
            let response = HTTPResponse(
                status: result.status, headers: Self.headerDictionary(result.headerLines), body: result.body, url: current)
            try Self.checkStatus(response)
            return response
        }
        // Unreachable: the loop returns or throws on its last hop.
        throw .redirectRefused(from: Redaction.mask(url: current), to: nil, reason: .tooMany(limit: configuration.maxRedirects))
    }

    /// Refuses `http://` to a name that is plainly not loopback without loading libcurl; the
    /// authoritative check on libcurl's own parse follows.
    private static func refuseObviouslyInsecure(_ url: String) throws(FetchError) {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") else {
            if !lower.hasPrefix("https://") { throw .insecureURL(url: Redaction.mask(url: url)) }
            return
        }
        var host = Redaction.hostDescription(of: url).lowercased()
        if host.hasPrefix("[") {
            host = String(host.prefix { $0 != "]" }) + "]"
        } else if let colon = host.firstIndex(of: ":") {
            host = String(host[..<colon])
        }
        // Only a conclusive "no": odd spellings (numeric IPv4 forms, …) go to libcurl's parser.
        if host.contains(where: { $0.isLetter }) && host != "localhost" && !host.hasPrefix("[") {
            throw .insecureURL(url: Redaction.mask(url: url))
        }
    }

    /// 2xx and 304 pass; everything else becomes the matching `FetchError`.
    static func checkStatus(_ response: HTTPResponse) throws(FetchError) {
        let status = response.status
        if (200..<300).contains(status) || status == 304 { return }
        let url = Redaction.mask(url: response.url)
        let retryAfter = response.headers["retry-after"].flatMap {
            RetryAfter.seconds($0, responseDate: response.headers["date"])
        }
        if status == 429 || (status == 503 && response.headers["retry-after"] != nil) {
            throw .rateLimited(url: url, retryAfterSeconds: retryAfter)
        }
        throw .httpStatus(url: url, status: status, message: ProviderMessage.extract(from: response.body))
    }

    static func headerDictionary(_ lines: [String]) -> [String: String] {
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {  // the status line
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased().trimmingSpaces
            let value = String(line[line.index(after: colon)...]).trimmingSpaces
            if let existing = headers[name] { headers[name] = existing + ", " + value } else { headers[name] = value }
        }
        return headers
    }

    /// Whole milliseconds, at least 1 (0 would mean "no limit" to libcurl).
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int(max(1, min(total, Int64(Int32.max))))
    }
}
