import FXTestServer
import Foundation
import TestSupport

/// A loopback ECB mirror serving the recorded 90-day history (`Fixtures/ecb_hist_90d.xml`), and
/// the config that makes `trip rates sync` use it alone: the rate source of the hardening suites
/// that sync while killing or racing `trip`.
struct ECBMirror {
    static let xml: String = {
        let url = Bundle.module.url(forResource: "Fixtures/ecb_hist_90d.xml", withExtension: nil)!
        return try! String(contentsOf: url, encoding: .utf8)
    }()

    let server: FXTestServer
    /// `config.toml` in the test's folder: chain `ecb`, 90 days of history.
    let config: String

    init(folder: TemporaryFolder) throws {
        server = try FXTestServer()
        server.route("/eurofxref-hist-90d.xml", .file(Array(Self.xml.utf8), contentType: "text/xml"))
        config = folder.file("config.toml")
        try "[rates]\nchain = \"ecb\"\necb_history = \"90d\"\ntotal_timeout = 30\n".write(toFile: config, atomically: true, encoding: .utf8)
    }

    /// `trip` on the ledger at `path`, on 2017-03-10, syncing from this mirror.
    func trip(_ path: String) -> TripProcess {
        TripProcess(ledgerPath: path, today: "2017-03-10", extra: ["TRIP_CONFIG": config, "TRIP_RATES_URL": server.baseURL, "no_proxy": "*"])
    }
}
