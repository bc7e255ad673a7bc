import FXTestServer
import Foundation
import Testing
import TripCore

@testable import RateService

/// Real HTTP over loopback against FXTestServer.
@Suite struct HTTPClientTests {
    let server: FXTestServer
    let client = HTTPClient.test()

    init() throws { server = try FXTestServer() }

    @Test func returnsStatusLowercasedHeadersBodyAndSendsIdentity() throws {
        let body = Fixture.bytes("frankfurter_latest.json")
        server.route("/v1/latest", .file(body, headers: ["ETag": "\"abc\"", "X-Mixed-Case": "yes"]))
        let response = try client.get(url: server.baseURL + "/v1/latest?symbols=USD")
        #expect(response.status == 200)
        #expect(response.body == body)
        #expect(response.headers["etag"] == "\"abc\"")
        #expect(response.headers["x-mixed-case"] == "yes")
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.url == server.baseURL + "/v1/latest?symbols=USD")
        let seen = try #require(server.requests.first)
        #expect(seen.method == "GET")
        #expect(seen.target == "/v1/latest?symbols=USD")
        #expect(seen.headers["user-agent"] == "trip/9.9.9-test")
        #expect(seen.headers["accept-encoding"]?.contains("gzip") == true)
        #expect(seen.headers["if-none-match"] == nil)
    }

    @Test func decodesGzipTransparently() throws {
        server.route(
            "/gz",
            .respond(
                status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                body: Fixture.bytes("frankfurter_latest.json.gz")))
        let response = try client.get(url: server.baseURL + "/gz")
        #expect(response.body == Fixture.bytes("frankfurter_latest.json"))
    }

    @Test func conditionalGetSendsValidatorsAndReturns304AsSuccess() throws {
        server.route(
            "/v1/latest",
            .conditional(
                etag: "\"v42\"", lastModified: "Thu, 01 Aug 2024 15:00:00 GMT",
                then: .file(Fixture.bytes("frankfurter_latest.json"))))
        let first = try client.get(url: server.baseURL + "/v1/latest")
        #expect(first.status == 200)
        #expect(first.validators == ResponseValidators(etag: "\"v42\"", lastModified: "Thu, 01 Aug 2024 15:00:00 GMT"))

        let second = try client.get(url: server.baseURL + "/v1/latest", validators: first.validators)
        #expect(second.status == 304)
        #expect(second.isNotModified)
        #expect(second.body.isEmpty)
        let conditional = server.requests[1]
        #expect(conditional.headers["if-none-match"] == "\"v42\"")
        #expect(conditional.headers["if-modified-since"] == "Thu, 01 Aug 2024 15:00:00 GMT")
    }

    @Test func lastModifiedAloneAlsoGives304() throws {
        server.route(
            "/x.xml",
            .conditional(
                etag: nil, lastModified: "Fri, 08 Jul 2022 14:15:00 GMT",
                then: .file(Fixture.bytes("ecb_daily.xml"), contentType: "text/xml")))
        let response = try client.get(
            url: server.baseURL + "/x.xml", validators: ResponseValidators(lastModified: "Fri, 08 Jul 2022 14:15:00 GMT"))
        #expect(response.status == 304)
    }

    @Test(arguments: [
        (404, #"{"message":"not found"}"#, "not found"),
        (422, #"{"message":"invalid currency code"}"#, "invalid currency code"),
        (400, #"{"error":{"message":"bad date"}}"#, "bad date"),
        (403, #"{"result":"error","error-type":"invalid-key"}"#, "invalid-key"),
    ])
    func errorStatusCarriesProviderMessage(status: Int, body: String, message: String) {
        server.route("/e", .json(status: status, body))
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + "/e") }
        #expect(error == .httpStatus(url: server.baseURL + "/e", status: status, message: message))
        #expect(error?.description.contains(message) == true)
        #expect(error?.description.contains("127.0.0.1") == true)
    }

    @Test func serverErrorWithoutJSON() {
        server.route("/boom", .respond(status: 500, headers: ["Content-Type": "text/plain"], body: Array("oops".utf8)))
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + "/boom") }
        #expect(error == .httpStatus(url: server.baseURL + "/boom", status: 500, message: nil))
        #expect(error?.description == "\(server.baseURL)/boom answered HTTP 500.")
    }

    @Test(arguments: [(429, "120", 120), (503, "7", 7), (429, " 30 ", 30)])
    func retryAfterIsReportedNotRetried(status: Int, header: String, seconds: Int) {
        server.route("/limited", .retryAfter(header, status: status))
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + "/limited") }
        #expect(error == .rateLimited(url: server.baseURL + "/limited", retryAfterSeconds: seconds))
        #expect(error?.description.contains("retry after \(seconds) s") == true)
        #expect(server.requests.count == 1)  // no retry
    }

    @Test func retryAfterAsHTTPDateIsMeasuredFromTheResponseDate() {
        server.route(
            "/limited",
            .respond(
                status: 429,
                headers: [
                    "Retry-After": "Wed, 21 Oct 2015 07:30:00 GMT", "Date": "Wed, 21 Oct 2015 07:28:00 GMT",
                ], body: []))
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + "/limited") }
        #expect(error == .rateLimited(url: server.baseURL + "/limited", retryAfterSeconds: 120))
    }

    @Test func status503WithoutRetryAfterIsAnHTTPError() {
        server.route("/down", .json(status: 503, #"{"message":"maintenance"}"#))
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + "/down") }
        #expect(error == .httpStatus(url: server.baseURL + "/down", status: 503, message: "maintenance"))
    }

    @Test func stallHitsTheConfiguredTotalTimeout() {
        server.route("/stall", .stall())
        let client = HTTPClient.test(total: .seconds(1))
        let started = ContinuousClock.now
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + "/stall") }
        let elapsed = ContinuousClock.now - started
        #expect(error == .timeout(url: server.baseURL + "/stall", phase: .total, limit: .seconds(1)))
        #expect(error?.description == "Fetching \(server.baseURL)/stall timed out after 1 s.")
        // Not given up early: the limit is the configured one. (How much later it ends is the
        // scheduler's, not the client's: no upper bound here.)
        #expect(elapsed >= .milliseconds(900))
    }

    @Test func truncatedBodyIsAnError() {
        server.route(
            "/short",
            .truncated(
                status: 200, headers: ["Content-Type": "application/json"], declaredLength: 446,
                body: Array(Fixture.bytes("frankfurter_latest.json").prefix(200))))
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + "/short") }
        guard case let .malformedBody(url, reason)? = error else {
            Issue.record("expected malformedBody, got \(String(describing: error))")
            return
        }
        #expect(url == server.baseURL + "/short")
        #expect(reason.contains("truncated"))
    }

    @Test(arguments: [true, false])
    func fiftyMebibyteBodyIsRefusedAtTheCap(declareLength: Bool) {
        server.route("/huge", .large(bytes: 50 << 20, declareLength: declareLength))
        // `bodyTooLarge` is raised only by the cap, so it shows the read stopped there; how long
        // that takes is not this test's (no clock: speed belongs in `make bench`).
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + "/huge") }
        #expect(error == .bodyTooLarge(url: server.baseURL + "/huge", limitBytes: 10 << 20))
        #expect(error?.description.contains("10 MiB") == true)
    }

    @Test func perRequestCapOverridesTheConfiguredOne() throws {
        server.route("/big", .large(bytes: 2 << 20, declareLength: false))
        let small = HTTPClient.test(maxBodyBytes: 1 << 20)
        #expect(
            fetchError { () throws(FetchError) in try small.get(url: server.baseURL + "/big") }
                == .bodyTooLarge(url: server.baseURL + "/big", limitBytes: 1 << 20))
        let response = try small.get(url: server.baseURL + "/big", headers: [:], validators: nil, maxBodyBytes: 4 << 20)
        #expect(response.body.count == 2 << 20)
    }

    @Test func refusedWhenNothingListens() {
        let url = server.baseURL + "/v1/latest"
        server.stop()
        let error = fetchError { () throws(FetchError) in try client.get(url: url) }
        #expect(error == .connectionRefused(host: "127.0.0.1:\(server.port)"))
        #expect(error?.description == "Connection refused by 127.0.0.1:\(server.port).")
    }

    @Test func followsUpToThreeRedirectsOnLoopback() throws {
        server.route("/r1", .redirect(to: "/r2", status: 301))
        server.route("/r2", .redirect(to: server.baseURL + "/r3"))
        server.route("/r3", .redirect(to: "/final", status: 307))
        server.route("/final", .file(Array(#"{"ok":true}"#.utf8)))
        let response = try client.get(url: server.baseURL + "/r1")
        #expect(response.status == 200)
        #expect(response.url == server.baseURL + "/final")
        #expect(server.requests.map(\.path) == ["/r1", "/r2", "/r3", "/final"])
    }

    @Test func redirectLoopIsRefusedAfterThree() {
        server.route("/a", .redirect(to: "/b"))
        server.route("/b", .redirect(to: "/a"))
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + "/a") }
        #expect(error == .redirectRefused(from: server.baseURL + "/b", to: nil, reason: .tooMany(limit: 3)))
        #expect(server.requests.count == 4)
    }

    @Test(arguments: ["http://rates.example.com/v1/latest", "http://10.1.2.3/x", "ftp://127.0.0.1/x", "file:///etc/passwd"])
    func redirectToPlainHTTPElsewhereIsRefused(target: String) {
        server.route("/portal", .redirect(to: target))
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + "/portal") }
        #expect(error == .redirectRefused(from: server.baseURL + "/portal", to: target, reason: .insecureTarget))
        #expect(server.requests.count == 1)
    }

    @Test func redirectMasksCredentialsInTheTarget() {
        server.route("/leak", .redirect(to: "http://user:hunter2@rates.example.com/x?apikey=SECRET&d=1"))
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + "/leak?token=T0K") }
        let text = error?.description ?? ""
        #expect(text.contains("/leak?token=***"))
        #expect(text.contains("http://***@rates.example.com/x?apikey=***&d=1"))
        #expect(!text.contains("hunter2") && !text.contains("SECRET") && !text.contains("T0K"))
    }

    @Test(arguments: [
        "http://api.frankfurter.dev/v1/latest", "http://10.255.255.1:9/x", "http://[2001:db8::1]/x",
        "http://127.0.0.1.evil.example/x", "http://0x7f000001.example/x",
    ])
    func plainHTTPToANonLoopbackHostIsRefusedWithoutIO(url: String) {
        // 10.255.255.1 is unroutable: had a connection been attempted, the error would be a
        // timeout or noNetwork, not insecureURL, so the error alone shows no I/O was done.
        let error = fetchError { () throws(FetchError) in try client.get(url: url) }
        #expect(error == .insecureURL(url: url))
    }

    @Test(arguments: ["http://localhost:%d/ok", "http://127.0.0.1:%d/ok", "http://127.1:%d/ok"])
    func loopbackSpellingsAreAllowed(template: String) throws {
        server.route("/ok", .json("{}"))
        let url = template.replacingOccurrences(of: "%d", with: String(server.port))
        // localhost may resolve to ::1 first; the server listens on 127.0.0.1 only, and libcurl
        // falls back to the next address.
        let response = try client.get(url: url)
        #expect(response.status == 200)
    }

    @Test func tlsFailureIsReportedAsTLS() {
        // The server hangs up on a ClientHello; what matters is the classification.
        let error = fetchError { () throws(FetchError) in
            try client.get(url: "https://127.0.0.1:\(server.port)/v1/latest")
        }
        guard case let .tls(host, detail)? = error else {
            Issue.record("expected tls, got \(String(describing: error))")
            return
        }
        #expect(host == "127.0.0.1:\(server.port)")
        #expect(!detail.isEmpty)
    }

    @Test func hangUpWithoutAnswerIsATransferFailure() {
        server.route("/hangup", .hangUp)
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + "/hangup") }
        guard case .transferFailed? = error else {
            Issue.record("expected transferFailed, got \(String(describing: error))")
            return
        }
    }

    @Test func headerInjectionIsRefused() {
        let error = fetchError { () throws(FetchError) in
            try client.get(url: server.baseURL + "/x", headers: ["X-A": "1\r\nX-B: 2"])
        }
        guard case .invalidURL? = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
        #expect(server.requests.isEmpty)
    }
}
