import CCurl
import Testing
import TripCore

@testable import RateService

/// Failures that loopback cannot produce on demand (DNS, unreachable network, certificate,
/// connect timeout) checked at the boundary's mapping.
struct CurlFailureMappingTests {
    static let request = CurlRequest(
        url: "https://user:pw@rates.example:8443/x?apikey=K", headerLines: [], userAgent: "trip/t",
        connectTimeoutMilliseconds: 5000, totalTimeoutMilliseconds: 20_000, maxBodyBytes: 10 << 20)
    static let masked = "https://***@rates.example:8443/x?apikey=***"

    static func map(_ code: CURLcode, errno: Int = 0, connected: Bool = false, overflowed: Bool = false) -> FetchError {
        CurlBoundary.mapFailure(
            code: code, detail: "detail", osErrno: errno, connected: connected,
            bodyOverflowed: overflowed, request: request)
    }

    @Test func mapping() {
        #expect(Self.map(CURLE_COULDNT_RESOLVE_HOST) == .noNetwork(host: "rates.example:8443", detail: "detail"))
        #expect(Self.map(CURLE_COULDNT_CONNECT, errno: 111) == .connectionRefused(host: "rates.example:8443"))
        #expect(Self.map(CURLE_COULDNT_CONNECT, errno: 101) == .noNetwork(host: "rates.example:8443", detail: "detail"))
        #expect(Self.map(CURLE_OPERATION_TIMEDOUT) == .timeout(url: Self.masked, phase: .connect, limit: .seconds(5)))
        #expect(
            Self.map(CURLE_OPERATION_TIMEDOUT, connected: true) == .timeout(url: Self.masked, phase: .total, limit: .seconds(20)))
        #expect(Self.map(CURLE_PEER_FAILED_VERIFICATION) == .tls(host: "rates.example:8443", detail: "detail"))
        #expect(Self.map(CURLE_SSL_CONNECT_ERROR) == .tls(host: "rates.example:8443", detail: "detail"))
        #expect(Self.map(CURLE_FILESIZE_EXCEEDED) == .bodyTooLarge(url: Self.masked, limitBytes: 10 << 20))
        #expect(Self.map(CURLE_WRITE_ERROR, overflowed: true) == .bodyTooLarge(url: Self.masked, limitBytes: 10 << 20))
        #expect(Self.map(CURLE_PARTIAL_FILE) == .malformedBody(url: Self.masked, reason: "response truncated (detail)"))
        #expect(Self.map(CURLE_GOT_NOTHING) == .transferFailed(url: Self.masked, detail: "detail (CURLcode 52)"))
    }

    @Test func aTimeoutWellBeforeTheTotalIsTheLowSpeedLimit() {
        func map(elapsed: Int?, connected: Bool = true) -> FetchError {
            CurlBoundary.mapFailure(
                code: CURLE_OPERATION_TIMEDOUT, detail: "Operation too slow", osErrno: 0, connected: connected,
                bodyOverflowed: false, request: Self.request, elapsedMilliseconds: elapsed)
        }
        #expect(map(elapsed: 10_004) == .tooSlow(url: Self.masked, minimumBytesPerSecond: 100, window: .seconds(10)))
        #expect(map(elapsed: 20_001) == .timeout(url: Self.masked, phase: .total, limit: .seconds(20)))
        #expect(map(elapsed: nil) == .timeout(url: Self.masked, phase: .total, limit: .seconds(20)))
        #expect(map(elapsed: 3_000, connected: false) == .timeout(url: Self.masked, phase: .connect, limit: .seconds(5)))
        #expect(map(elapsed: 10_004).description == "Fetching \(Self.masked) stalled: under 100 bytes/s for 10 s.")
    }

    /// Guard against a TLS off switch: these are all the knobs a client has. Adding one (say
    /// `verifyPeer`) fails here, so that it is a decision, not an accident. Verification itself
    /// is always on in `CurlBoundary.perform` and proven by `CertificateVerificationTests`.
    @Test func noConfigurationTurnsCertificateVerificationOff() {
        let labels = Mirror(reflecting: HTTPClient.Configuration(version: "t")).children.compactMap(\.label)
        #expect(
            labels == [
                "version", "connectTimeout", "totalTimeout", "maxBodyBytes", "maxRedirects", "lowSpeedLimit", "lowSpeedTime",
                "secrets",
            ])
        let requestLabels = Mirror(reflecting: Self.request).children.compactMap(\.label).map { $0.lowercased() }
        #expect(requestLabels.allSatisfy { !$0.contains("verify") && !$0.contains("insecure") && !$0.contains("ssl") })
    }

    @Test func messagesAreOneLineAndNameTheHost() {
        let errors: [FetchError] = [
            Self.map(CURLE_COULDNT_RESOLVE_HOST), Self.map(CURLE_COULDNT_CONNECT, errno: 111),
            Self.map(CURLE_OPERATION_TIMEDOUT), Self.map(CURLE_PEER_FAILED_VERIFICATION),
            .httpStatus(url: Self.masked, status: 404, message: "not found"), .malformedBody(url: Self.masked, reason: "x"),
            .captivePortal(url: Self.masked), .rateLimited(url: Self.masked, retryAfterSeconds: 60),
            .bodyTooLarge(url: Self.masked, limitBytes: 10 << 20),
            .redirectRefused(from: Self.masked, to: "http://a.example/", reason: .insecureTarget),
            .redirectRefused(from: Self.masked, to: nil, reason: .tooMany(limit: 3)),
        ]
        for error in errors {
            #expect(!error.description.contains("\n"))
            #expect(error.description.contains("rates.example"))
            #expect(!error.description.contains("pw") && !error.description.contains("=K"))
        }
        #expect(Self.map(CURLE_OPERATION_TIMEDOUT).description == "Connecting to \(Self.masked) timed out after 5 s.")
        #expect(
            FetchError.timeout(url: "u", phase: .total, limit: .milliseconds(1500)).description
                == "Fetching u timed out after 1.5 s.")
    }
}
