import FXTestServer
import Foundation
import RateService
import TestSupport
import Testing
import TripCore

/// Certificate verification is on: a real TLS server (`openssl s_server`) with a self-signed
/// certificate for 127.0.0.1 must be refused. The only proof that verification is on: without the
/// openssl tool it fails in CI (`CI=true`) and elsewhere says in one line what is missing.
@Suite struct CertificateVerificationTests {
    static let openssl = "/usr/bin/openssl"

    @Test(.timeLimit(.minutes(1)))
    func selfSignedCertificateIsRejected() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.openssl) else {
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "\(Self.openssl) is missing in CI: `make test-deps` installs it")
            print("skipped: \(Self.openssl) is missing (apt-get install openssl)")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("key.pem").path, cert = folder.appendingPathComponent("cert.pem").path
        let generate = try spawnAndWait(
            Self.openssl,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
            ].map { Array($0.utf8) }, environment: [:])
        try #require(generate.exitCode == 0, "\(String(decoding: generate.stderr, as: UTF8.self))")

        // A port that was free a moment ago: bind with FXTestServer, then release it. Another test
        // may take it before s_server binds it; s_server then exits at once, and another port is tried.
        var server: SpawnedProcess?, port = 0
        for _ in 0..<5 {
            let probe = try FXTestServer()
            port = probe.port
            probe.stop()
            let started = try SpawnedProcess(
                Self.openssl, ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", cert, "-key", key, "-www", "-quiet"],
                environment: [:])
            usleep(100_000)
            if started.isRunning {
                server = started
                break
            }
        }
        let tls = try #require(server, "s_server found no free port in 5 tries")
        defer {
            tls.kill()
            tls.wait()
        }

        let client = HTTPClient.test(total: .seconds(3))
        var error: FetchError?
        for _ in 0..<50 {  // wait (≤ 5 s) for s_server to listen
            do {
                _ = try client.get(url: "https://127.0.0.1:\(port)/")
                error = nil
            } catch let caught {
                error = caught
            }
            if case .connectionRefused? = error { Thread.sleep(forTimeInterval: 0.1) } else { break }
        }
        guard case let .tls(host, detail)? = error else {
            Issue.record("expected a TLS error, got \(String(describing: error))")
            return
        }
        #expect(host == "127.0.0.1:\(port)")
        #expect(detail.contains("certificate"), "\(detail)")
    }
}
