import FXTestServer
import Foundation
import TestSupport
import Testing

/// `trip rates sync` through the binary against a hostile loopback server: each case exits 69
/// within its limit with one line on stderr, and the ledger is byte-for-byte the same table dump.
@Suite("End to end: hostile network")
struct HostileNetworkEndToEndTests {
    /// A ledger with one JPY purchase on 2017-03-09, the first provider of `chain` pointed at `server`
    /// (2 s connect, 2 s total).
    func setUp(
        _ server: FXTestServer, folder: TemporaryFolder, chain: String = "frankfurter",
        baseURL: String? = nil, extraConfig: String = "", environment: [String: String] = [:]
    ) throws -> TripProcess {
        let config = folder.file("config.toml")
        try "[rates]\nchain = \"\(chain)\"\necb_history = \"90d\"\nconnect_timeout = 2\ntotal_timeout = 2\n\(extraConfig)"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let trip = TripProcess(
            ledgerPath: folder.file("ledger.sqlite"), today: HostileBodies.date,
            extra: ["TRIP_CONFIG": config, "TRIP_RATES_URL": baseURL ?? server.baseURL, "no_proxy": "*"].merging(environment) {
                $1
            })
        try #require(trip.run("new", "X", "--currency", "JPY", "--home", "USD").exitCode == 0)
        try #require(trip.run("add", "1000", "--date", "2017-03-09").exitCode == 0)
        return trip
    }

    /// Runs `trip rates sync`, checks exit 69, one stderr line, no stdout, an unchanged dump; returns stderr.
    func refusedSync(_ label: String, _ trip: TripProcess, folder: TemporaryFolder, limit: Duration = .seconds(15)) throws
        -> String
    {
        let before = try dumpLedger(folder.file("ledger.sqlite"))
        let clock = ContinuousClock()
        let start = clock.now
        let sync = try trip.run("rates", "sync")
        let elapsed = clock.now - start
        print("hostile e2e: \(label): \(elapsed) → exit \(sync.exitCode): \(sync.stderr)", terminator: "")
        #expect(sync.exitCode == 69, "\(label): \(sync.stderr)")
        #expect(sync.stdout.isEmpty)
        #expect(sync.stderr.filter { $0 == "\n" }.count == 1, "\(label): \(sync.stderr)")
        #expect(elapsed < limit, "\(label) took \(elapsed)")
        #expect(try dumpLedger(folder.file("ledger.sqlite")) == before, "\(label): nothing cached")
        return sync.stderr
    }

    @Test("hostile server", arguments: HostileCase.network)
    func hostileServer(_ hostile: HostileCase) throws {
        let server = try FXTestServer()
        server.route("*", hostile.route)
        let folder = TemporaryFolder()
        let stderr = try refusedSync(hostile.name, try setUp(server, folder: folder), folder: folder)
        #expect(hostile.expected.contains { stderr.contains($0) }, "\(hostile.name): \(stderr)")
    }

    @Test("hostile rate", arguments: ["frankfurter", "open-er-api", "ecb"], ["0", "-1.5", "1e308", #""NaN""#, "1e-400"])
    func hostileRate(chain: String, rate: String) throws {
        let server = try FXTestServer()
        server.route(
            "/2017-03-09..2017-03-09", .json(HostileBodies.frankfurterSeries(from: "2017-03-09", to: "2017-03-09", usd: rate)))
        server.route("/latest", .json(HostileBodies.frankfurterLatest(usd: rate)))
        server.route("/latest/USD", .json(HostileBodies.openERAPILatest(eur: rate)))
        server.route("/eurofxref-hist-90d.xml", .file(Array(HostileBodies.ecb(usd: rate).utf8), contentType: "text/xml"))
        let folder = TemporaryFolder()
        let stderr = try refusedSync("\(chain) rate \(rate)", try setUp(server, folder: folder, chain: chain), folder: folder)
        #expect(
            stderr.contains("rate '\(rate.filter { $0 != "\"" }.prefix(30))'") || stderr.contains("not a number"), "\(stderr)")
    }

    @Test func noCredentialAppearsOnStderr() throws {
        let key = "envKEY-7c1f9a0b55d2"
        let server = try FXTestServer()
        // The server echoes everything it was given back: in a redirect target and in a message.
        server.route("*", .redirect(to: "http://rates.example.net/\(key)/hunter2?apikey=QUERYSECRET&app_id=APPID-SECRET"))
        let folder = TemporaryFolder()
        let base = "http://alice:hunter2@127.0.0.1:\(server.port)/v6/\(key)?access_key=ACCESS-SECRET"
        let trip = try setUp(
            server, folder: folder, chain: "open-er-api", baseURL: base, environment: ["TRIP_OPENERAPI_KEY": key])
        let stderr = try refusedSync("credentials everywhere", trip, folder: folder)
        for secret in [key, "hunter2", "QUERYSECRET", "APPID-SECRET", "ACCESS-SECRET"] {
            #expect(!stderr.contains(secret), "\(secret) leaked: \(stderr)")
        }
        #expect(stderr.contains("Refused redirect"), "\(stderr)")
        #expect(server.requests.first?.path.contains(key) == true, "the key was sent, only never shown")
    }

    @Test func tripConfigShowsProviderURLsMasked() throws {
        let key = "envKEY-5e5e5e5e5e5e"
        let folder = TemporaryFolder()
        let trip = TripProcess(
            ledgerPath: folder.file("ledger.sqlite"),
            extra: [
                "TRIP_RATES_URL": "https://carol:pa55word-x@rates.example.net/v6/\(key)?apikey=CFGSECRET",
                "TRIP_OPENERAPI_KEY": key,
            ])
        for format in ["text", "json"] {
            let result = try trip.run("config", "--format", format)
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stdout.contains("rates.example.net"), "\(result.stdout)")
            for secret in [key, "pa55word-x", "CFGSECRET"] {
                #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "\(secret) leaked in \(format)")
            }
        }
    }

    @Test func aKeyInACurlErrorIsMaskedToo() throws {
        // Nothing listens: libcurl's own error text is what reaches stderr.
        let server = try FXTestServer()
        server.stop()
        let folder = TemporaryFolder()
        let key = "envKEY-0f0e0d0c0b0a"
        let trip = try setUp(
            server, folder: folder, chain: "open-er-api",
            baseURL: "http://bob:s3cr3t-pw@127.0.0.1:\(server.port)/v6/\(key)?apikey=QSECRET",
            environment: ["TRIP_OPENERAPI_KEY": key])
        let stderr = try refusedSync("connection refused with credentials", trip, folder: folder)
        for secret in [key, "s3cr3t-pw", "QSECRET"] { #expect(!stderr.contains(secret), "\(stderr)") }
    }

    @Test(arguments: [
        "verify_tls = false", "insecure = true", "ssl_verify_peer = 0", "ssl_verify_host = 0", "ca_bundle = \"/tmp/x.pem\"",
        "allow_http = true",
    ])
    func noSettingTurnsCertificateVerificationOff(line: String) throws {
        let server = try FXTestServer()
        server.route("*", .json(HostileBodies.frankfurterLatest(usd: "1.0565")))
        let folder = TemporaryFolder()
        let config = folder.file("config.toml")
        let trip = TripProcess(
            ledgerPath: folder.file("ledger.sqlite"), today: HostileBodies.date,
            extra: ["TRIP_CONFIG": config, "TRIP_RATES_URL": server.baseURL])
        for section in ["", "[rates]\n"] {
            try "\(section)\(line)\n".write(toFile: config, atomically: true, encoding: .utf8)
            let sync = try trip.run("rates", "sync")
            #expect(sync.exitCode != 0 && sync.exitCode != 69, "\(section)\(line): \(sync.stderr)")
            #expect(sync.stderr.contains("unknown setting"), "\(section)\(line): \(sync.stderr)")
        }
        #expect(server.requests.isEmpty, "refused before any request")
    }

    @Test func plainHTTPToAnotherHostIsRefusedWhateverTheEnvironmentSays() throws {
        let server = try FXTestServer()
        let folder = TemporaryFolder()
        // Environment names that other tools use to relax TLS; trip must not care.
        let trip = try setUp(
            server, folder: folder, baseURL: "http://rates.example.net/v1",
            environment: [
                "CURL_INSECURE": "1", "CURL_CA_BUNDLE": "/dev/null", "SSL_CERT_FILE": "/dev/null", "TRIP_INSECURE": "1",
                "NODE_TLS_REJECT_UNAUTHORIZED": "0", "TRIP_ALLOW_HTTP": "1",
            ])
        let stderr = try refusedSync("plain http to a named host", trip, folder: folder)
        #expect(stderr.contains("plain http is only allowed to loopback hosts"), "\(stderr)")
    }
}
