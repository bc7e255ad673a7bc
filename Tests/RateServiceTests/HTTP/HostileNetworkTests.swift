import FXTestServer
import Foundation
import Testing

@testable import RateService

/// A server that fights back: every case must end within the client's limits with the error
/// that names it. Elapsed times are printed (`hostile: …`) for the record, never asserted
/// beyond a generous bound.
@Suite struct HostileNetworkTests {
    let server: FXTestServer

    init() throws { server = try FXTestServer() }

    /// A client with a 1 s low-speed window, 4 s in all.
    static let client = HTTPClient(
        configuration: .init(
            version: "9.9.9-test", connectTimeout: .seconds(1), totalTimeout: .seconds(4), lowSpeedTime: .seconds(1)))

    /// Runs `get(path)`, prints how long it took, checks it ended well within `bound`.
    func rejection(_ label: String, _ path: String, client: HTTPClient = Self.client, bound: Duration = .seconds(15))
        -> FetchError?
    {
        let clock = ContinuousClock()
        let start = clock.now
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + path) }
        let elapsed = clock.now - start
        print("hostile: \(label): \(elapsed) → \(error.map { $0.description } ?? "accepted")")
        #expect(elapsed < bound, "\(label) took \(elapsed)")
        if let error { #expect(!error.description.contains("\n")) }
        return error
    }

    @Test(arguments: [false, true])
    func slowLorisEndsAtTheLowSpeedLimit(trickleHead: Bool) {
        server.route("/loris", .slowLoris(trickleHead: trickleHead))
        let error = rejection("slow loris (\(trickleHead ? "head" : "body") at 1 byte/s)", "/loris")
        #expect(error == .tooSlow(url: server.baseURL + "/loris", minimumBytesPerSecond: 100, window: .seconds(1)))
        #expect(error?.description.contains("stalled: under 100 bytes/s for 1 s") == true)
    }

    @Test func slowLorisEndsAtTheTotalLimitWhenThatComesFirst() {
        server.route("/loris", .slowLoris())
        let client = HTTPClient(
            configuration: .init(
                version: "t", connectTimeout: .seconds(1), totalTimeout: .milliseconds(1500), lowSpeedTime: .seconds(10)))
        let error = rejection("slow loris, total limit first", "/loris", client: client)
        #expect(error == .timeout(url: server.baseURL + "/loris", phase: .total, limit: .milliseconds(1500)))
    }

    @Test func endlessBodyStopsAtTheCap() {
        server.route("/endless", .endless())
        #expect(rejection("endless body", "/endless") == .bodyTooLarge(url: server.baseURL + "/endless", limitBytes: 10 << 20))
    }

    @Test func contentLengthBeyondAnyCapIsRefusedUpFront() {
        server.route("/claims", .truncated(status: 200, headers: [:], declaredLength: 1 << 40, body: Array("{}".utf8)))
        #expect(
            rejection("Content-Length 1 TiB", "/claims") == .bodyTooLarge(url: server.baseURL + "/claims", limitBytes: 10 << 20))
    }

    @Test func contentLengthLongerThanTheBodyIsATruncation() {
        server.route("/short", .truncated(status: 200, headers: [:], declaredLength: 5000, body: Array(#"{"rates":{}}"#.utf8)))
        guard case let .malformedBody(url, reason)? = rejection("Content-Length longer than body", "/short") else {
            Issue.record("expected a truncation")
            return
        }
        #expect(url == server.baseURL + "/short")
        #expect(reason.hasPrefix("response truncated"))
    }

    @Test func contentLengthShorterThanTheBodyKeepsOnlyTheDeclaredBytes() throws {
        // The parser, not the transport, rejects what is left (see the provider tests).
        let body = Array(#"{"base":"EUR","rates":{"USD":1.1}} and then some"#.utf8)
        server.route("/long", .truncated(status: 200, headers: [:], declaredLength: 10, body: body))
        let response = try Self.client.get(url: server.baseURL + "/long")
        #expect(response.body == Array(body.prefix(10)))
    }

    @Test func gzipBombBuilderInflatesToExactlyWhatItSays() throws {
        // Proves the bomb is real gzip: libcurl inflates a small one completely.
        server.route("/small", .gzipBomb(inflatedBytes: 1 << 20))
        let response = try Self.client.get(url: server.baseURL + "/small")
        #expect(response.body.count == 1 << 20)
        #expect(response.body.starts(with: Array(#"{"base":"EUR","rates":{"USD":1.0000"#.utf8)))
        #expect(response.body.last == UInt8(ascii: "0"))
    }

    @Test func gzipBombIsStoppedAtTheDecodedCap() throws {
        let bomb = FXTestServer.Route.gzipBomb(inflatedBytes: 64 << 20)
        guard case let .respond(_, _, wire) = bomb else { throw CancellationError() }
        #expect(wire.count < 1 << 20, "the wire size is far under the cap: only the decoded size can stop it")
        server.route("/bomb", bomb)
        #expect(
            rejection("gzip bomb (\(wire.count) B → 64 MiB)", "/bomb")
                == .bodyTooLarge(url: server.baseURL + "/bomb", limitBytes: 10 << 20))
    }

    @Test func selfRedirectLoopIsRefused() {
        server.route("/loop", .redirect(to: "/loop"))
        #expect(
            rejection("redirect loop", "/loop")
                == .redirectRefused(from: server.baseURL + "/loop", to: nil, reason: .tooMany(limit: 3)))
    }

    @Test func redirectToPlainHTTPOnANamedHostIsRefusedBeforeAnyRequest() {
        server.route("/away", .redirect(to: "http://rates.example.net/latest"))
        let error = rejection("redirect to plain http", "/away")
        #expect(
            error
                == .redirectRefused(
                    from: server.baseURL + "/away", to: "http://rates.example.net/latest", reason: .insecureTarget))
        #expect(server.requests.map(\.path) == ["/away"])
    }

    @Test(arguments: [100, 100_000])
    func deepJSONIsRefusedWithoutRecursingFurther(depth: Int) throws {
        server.route("*", .deepJSON(depth: depth))
        let provider = Frankfurter(baseURL: server.baseURL)
        let clock = ContinuousClock()
        let start = clock.now
        let error = fetchError { () throws(FetchError) in
            try provider.latest(quotes: [], today: "2017-03-10", isKnownCurrency: { _ in true }, using: Self.client)
        }
        print("hostile: JSON \(depth) levels deep: \(clock.now - start) → \(error.map { $0.description } ?? "accepted")")
        guard case let .malformedBody(_, reason)? = error else {
            Issue.record("expected malformedBody, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("nesting deeper than 64"))
    }

    @Test func aProviderEchoingTheKeyDoesNotLeakIt() {
        server.route("/echo", .json(status: 401, #"{"message":"invalid key QK-123456 for user alice-pw"}"#))
        let client = HTTPClient(configuration: .init(version: "t", secrets: ["alice-pw"]))
        let error = fetchError { () throws(FetchError) in try client.get(url: server.baseURL + "/echo?apikey=QK-123456") }
        #expect(
            error == .httpStatus(url: server.baseURL + "/echo?apikey=***", status: 401, message: "invalid key *** for user ***"))
    }
}
