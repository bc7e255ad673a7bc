// The only file that imports CCurl. Every libcurl call goes through here, and every CURLcode
// becomes a typed `FetchError` before it leaves.

import CCurl

/// One transfer as libcurl should perform it: a single GET, no redirect following.
struct CurlRequest {
    /// Absolute http(s) URL, already checked by `URLPolicy`.
    var url: String
    /// Complete header lines (`Name: value`).
    var headerLines: [String]
    var userAgent: String
    /// Milliseconds; 0 is not allowed (libcurl would read it as "no limit").
    var connectTimeoutMilliseconds: Int
    /// Milliseconds for the whole transfer; must be > 0.
    var totalTimeoutMilliseconds: Int
    /// Decoded body bytes; the transfer is aborted as soon as more arrive.
    var maxBodyBytes: Int
    /// Bytes per second; a transfer slower than this for `lowSpeedSeconds` in a row is aborted.
    var lowSpeedBytesPerSecond: Int = 100
    /// Whole seconds, > 0 (libcurl's unit for `CURLOPT_LOW_SPEED_TIME`).
    var lowSpeedSeconds: Int = 10
}

/// What libcurl saw for one transfer.
struct CurlResult {
    var status: Int
    /// Header lines of the final response only (not of 1xx interim responses), CRLF stripped.
    var headerLines: [String]
    var body: [UInt8]
    /// The absolute `Location` target when the response is a redirect, resolved by libcurl.
    var redirectURL: String?
}

/// Scheme, host and port of a URL, as libcurl itself will read them.
struct CurlURLParts: Equatable {
    /// Lowercased.
    var scheme: String
    /// Lowercased; IPv6 literals keep their brackets (`[::1]`); IPv4 in canonical dotted form.
    var host: String
    var port: Int?
}

enum CurlBoundary {
    /// Loads libcurl and runs `curl_global_init` exactly once per process (Swift globals are
    /// initialised once, thread-safely). The error is remembered: there is no point retrying.
    private static let initialisation: Result<Void, FetchError> = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard ccurl_load(&buffer, buffer.count) == 0 else {
            let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.libcurlUnavailable(detail: reason))
        }
        let code = ccurl_global_init_default()
        guard code == CURLE_OK else {
            return .failure(.libcurlUnavailable(detail: "curl_global_init: \(message(for: code))"))
        }
        return .success(())
    }()

    static func ensureLoaded() throws(FetchError) {
        try initialisation.get()
    }

    /// Splits a URL with libcurl's own parser, so that the host the policy checks is the host
    /// libcurl will connect to (no second opinion from a hand-written parser).
    ///
    /// The corresponding C functions are `curl_url_set` and `curl_url_get`.
    static func parseURL(_ url: String) throws(FetchError) -> CurlURLParts {
        try ensureLoaded()
        guard let handle = ccurl_url() else { throw .libcurlUnavailable(detail: "curl_url: out of memory") }
        defer { ccurl_url_cleanup(handle) }
        let setCode = ccurl_url_set(handle, CURLUPART_URL, url, 0)
        guard setCode == CURLUE_OK else {
            throw .invalidURL(url: Redaction.mask(url: url), reason: "not an absolute URL (CURLUcode \(setCode.rawValue))")
        }
        func part(_ which: CURLUPart) -> String? {
            var out: UnsafeMutablePointer<CChar>?
            guard ccurl_url_get(handle, which, &out, 0) == CURLUE_OK, let out else { return nil }
            defer { ccurl_free(out) }
            return String(cString: out)
        }
        guard let scheme = part(CURLUPART_SCHEME), let host = part(CURLUPART_HOST), !host.isEmpty else {
            throw .invalidURL(url: Redaction.mask(url: url), reason: "no scheme or host")
        }
        return CurlURLParts(scheme: scheme.lowercased(), host: host.lowercased(), port: part(CURLUPART_PORT).flatMap { Int($0) })
    }

    /// Performs one GET.
    ///
    /// The corresponding C function is `curl_easy_perform`. Redirects are not followed here:
    /// `HTTPClient` checks each hop against its policy first.
    static func perform(_ request: CurlRequest) throws(FetchError) -> CurlResult {
        try ensureLoaded()
        guard let handle = ccurl_easy_init() else { throw .libcurlUnavailable(detail: "curl_easy_init failed") }
        defer { ccurl_easy_cleanup(handle) }

        let sink = TransferSink(maxBodyBytes: request.maxBodyBytes)
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }

        var headerList: UnsafeMutablePointer<curl_slist>?
        for line in request.headerLines {
            guard let appended = ccurl_slist_append(headerList, line) else {
                ccurl_slist_free_all(headerList)
                throw .libcurlUnavailable(detail: "curl_slist_append: out of memory")
            }
            headerList = appended
        }
        defer { ccurl_slist_free_all(headerList) }

        let masked = Redaction.mask(url: request.url)
        func check(_ code: CURLcode, _ option: String) throws(FetchError) {
            guard code == CURLE_OK else {
                throw .transferFailed(url: masked, detail: "libcurl rejected \(option): \(message(for: code))")
            }
        }
        let sinkPointer = Unmanaged.passUnretained(sink).toOpaque()
        try check(ccurl_setopt_str(handle, CURLOPT_URL, request.url), "URL")
        // Timeouts without SIGALRM: required in a multi-threaded process.
        try check(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "NOSIGNAL")
        try check(ccurl_setopt_long(handle, CURLOPT_HTTPGET, 1), "HTTPGET")
        try check(ccurl_setopt_str(handle, CURLOPT_PROTOCOLS_STR, "http,https"), "PROTOCOLS_STR")
        try check(ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0), "FOLLOWLOCATION")
        try check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1), "SSL_VERIFYPEER")
        try check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2), "SSL_VERIFYHOST")
        try check(ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, request.connectTimeoutMilliseconds), "CONNECTTIMEOUT_MS")
        try check(ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, request.totalTimeoutMilliseconds), "TIMEOUT_MS")
        // Ends a slow-loris body (a byte now and then) long before the total limit would.
        try check(ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, request.lowSpeedBytesPerSecond), "LOW_SPEED_LIMIT")
        try check(ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, request.lowSpeedSeconds), "LOW_SPEED_TIME")
        // Refuses early when Content-Length already says too much; the write callback covers the rest.
        try check(ccurl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBodyBytes)), "MAXFILESIZE_LARGE")
        // "" = every encoding this libcurl can decode (gzip, deflate, …), decoded transparently.
        try check(ccurl_setopt_str(handle, CURLOPT_ACCEPT_ENCODING, ""), "ACCEPT_ENCODING")
        try check(ccurl_setopt_str(handle, CURLOPT_USERAGENT, request.userAgent), "USERAGENT")
        try check(ccurl_setopt_ptr(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList)), "HTTPHEADER")
        try check(ccurl_setopt_ptr(handle, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)), "ERRORBUFFER")
        try check(ccurl_setopt_write_function(handle, writeCallback), "WRITEFUNCTION")
        try check(ccurl_setopt_ptr(handle, CURLOPT_WRITEDATA, sinkPointer), "WRITEDATA")
        try check(ccurl_setopt_header_function(handle, headerCallback), "HEADERFUNCTION")
        try check(ccurl_setopt_ptr(handle, CURLOPT_HEADERDATA, sinkPointer), "HEADERDATA")

        let code = withExtendedLifetime(sink) { ccurl_easy_perform(handle) }

        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            throw mapFailure(
                code: code,
                detail: detail.isEmpty ? message(for: code) : detail,
                osErrno: getLong(handle, CURLINFO_OS_ERRNO) ?? 0,
                connected: (getOffT(handle, CURLINFO_CONNECT_TIME_T) ?? 0) > 0,
                bodyOverflowed: sink.overflowed,
                request: request,
                elapsedMilliseconds: (getOffT(handle, CURLINFO_TOTAL_TIME_T)).map { Int($0 / 1000) }
            )
        }
        var redirect: UnsafePointer<CChar>?
        let redirectURL =
            ccurl_getinfo_str(handle, CURLINFO_REDIRECT_URL, &redirect) == CURLE_OK
            ? redirect.map { String(cString: $0) } : nil
        return CurlResult(
            status: getLong(handle, CURLINFO_RESPONSE_CODE) ?? 0,
            headerLines: sink.headerLines,
            body: sink.body,
            redirectURL: redirectURL
        )
    }

    /// Turns a failed transfer into the error a person can act on.
    ///
    /// - Parameters:
    ///   - osErrno: `CURLINFO_OS_ERRNO`, the errno of the last failed connect.
    ///   - connected: whether a TCP connection was ever established (tells connect from total timeout).
    ///   - bodyOverflowed: the write callback stopped the transfer because of `maxBodyBytes`.
    ///   - elapsedMilliseconds: `CURLINFO_TOTAL_TIME_T`; a timeout well before the total limit
    ///     was the low-speed limit.
    ///
    /// libcurl's `detail` may quote the URL: credentials of the request URL are scrubbed from it.
    static func mapFailure(
        code: CURLcode, detail rawDetail: String, osErrno: Int, connected: Bool, bodyOverflowed: Bool,
        request: CurlRequest, elapsedMilliseconds: Int? = nil
    ) -> FetchError {
        let url = Redaction.mask(url: request.url)
        let detail = Redaction.scrub(
            rawDetail.replacing(request.url, with: url), secrets: Redaction.secrets(in: request.url))
        let host = Redaction.hostDescription(of: request.url)
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .noNetwork(host: host, detail: detail)
        case CURLE_COULDNT_CONNECT:
            // ECONNREFUSED: someone answered "nobody listens here". Anything else (unreachable
            // network or host) means we are not online.
            return osErrno == 111 ? .connectionRefused(host: host) : .noNetwork(host: host, detail: detail)
        case CURLE_OPERATION_TIMEDOUT:
            if !connected && request.connectTimeoutMilliseconds < request.totalTimeoutMilliseconds {
                return .timeout(url: url, phase: .connect, limit: .milliseconds(request.connectTimeoutMilliseconds))
            }
            // The total limit fires at (not before) its time; anything clearly earlier is low speed.
            if connected, let elapsed = elapsedMilliseconds, elapsed + 250 < request.totalTimeoutMilliseconds {
                return .tooSlow(
                    url: url, minimumBytesPerSecond: request.lowSpeedBytesPerSecond, window: .seconds(request.lowSpeedSeconds))
            }
            return .timeout(url: url, phase: .total, limit: .milliseconds(request.totalTimeoutMilliseconds))
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_USE_SSL_FAILED:
            return .tls(host: host, detail: detail)
        case CURLE_FILESIZE_EXCEEDED:
            return .bodyTooLarge(url: url, limitBytes: request.maxBodyBytes)
        case CURLE_WRITE_ERROR where bodyOverflowed:
            return .bodyTooLarge(url: url, limitBytes: request.maxBodyBytes)
        case CURLE_PARTIAL_FILE:
            return .malformedBody(url: url, reason: "response truncated (\(detail))")
        case CURLE_BAD_CONTENT_ENCODING:
            return .malformedBody(url: url, reason: "undecodable content encoding (\(detail))")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .invalidURL(url: url, reason: detail)
        default:
            return .transferFailed(url: url, detail: "\(detail) (CURLcode \(code.rawValue))")
        }
    }

    /// The corresponding C function is `curl_easy_strerror`.
    private static func message(for code: CURLcode) -> String {
        String(cString: ccurl_easy_strerror(code))
    }

    private static func getLong(_ handle: UnsafeMutableRawPointer, _ info: CURLINFO) -> Int? {
        var value = 0
        return ccurl_getinfo_long(handle, info, &value) == CURLE_OK ? value : nil
    }

    private static func getOffT(_ handle: UnsafeMutableRawPointer, _ info: CURLINFO) -> Int64? {
        var value: curl_off_t = 0
        return ccurl_getinfo_off_t(handle, info, &value) == CURLE_OK ? Int64(value) : nil
    }
}

/// Collects one transfer's body and header lines; lives only for the duration of `perform`.
private final class TransferSink {
    let maxBodyBytes: Int
    var body: [UInt8] = []
    var headerLines: [String] = []
    var overflowed = false

    init(maxBodyBytes: Int) { self.maxBodyBytes = maxBodyBytes }
}

/// CURLOPT_WRITEFUNCTION: appends decoded body bytes; returning less than given aborts the
/// transfer (CURLE_WRITE_ERROR), which is how the body cap is enforced.
private let writeCallback: ccurl_data_callback = { data, size, count, userdata in
    guard let userdata else { return 0 }
    let sink = Unmanaged<TransferSink>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    guard sink.body.count + length <= sink.maxBodyBytes else {
        sink.overflowed = true
        return 0
    }
    if length > 0, let data {
        data.withMemoryRebound(to: UInt8.self, capacity: length) {
            sink.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
        }
    }
    return length
}

/// CURLOPT_HEADERFUNCTION: keeps the header lines of the latest response; a new status line
/// (after `100 Continue`) starts over.
private let headerCallback: ccurl_data_callback = { data, size, count, userdata in
    guard let userdata else { return 0 }
    let sink = Unmanaged<TransferSink>.fromOpaque(userdata).takeUnretainedValue()
    let length = size * count
    guard length > 0, let data else { return length }
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        var end = length
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: end), as: UTF8.self)
    }
    if line.hasPrefix("HTTP/") { sink.headerLines.removeAll() }
    if !line.isEmpty { sink.headerLines.append(line) }
    return length
}
