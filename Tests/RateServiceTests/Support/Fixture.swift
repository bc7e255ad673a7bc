// The one place that builds real parts for these tests: fixture bytes, a loopback server,
// a client with short limits, the ISO 4217 list.

import FXTestServer
import Foundation
import RateService

enum Fixture {
    /// Bytes of `Fixtures/<name>`.
    static func bytes(_ name: String) -> [UInt8] {
        let dot = name.firstIndex(of: ".")!
        let url = Bundle.module.url(
            forResource: String(name[..<dot]), withExtension: String(name[name.index(after: dot)...]), subdirectory: "Fixtures")!
        return [UInt8](try! Data(contentsOf: url))
    }

    static func text(_ name: String) -> String { String(decoding: bytes(name), as: UTF8.self) }

    /// The 178 active ISO 4217 codes of `iso4217.csv` (ANG, BGN, HRK, ZWL … are not among them).
    static let activeCodes: Set<String> = Set(
        text("iso4217.csv").split(separator: "\n").dropFirst().map { String($0.prefix(3)) })

    static func isActive(_ code: String) -> Bool { activeCodes.contains(code) }
}

extension HTTPClient {
    /// A client with test-sized limits (1 s connect, `total` seconds in all).
    static func test(total: Duration = .seconds(5), maxBodyBytes: Int = 10 << 20) -> HTTPClient {
        HTTPClient(
            configuration: .init(
                version: "9.9.9-test", connectTimeout: .seconds(1), totalTimeout: total, maxBodyBytes: maxBodyBytes))
    }
}

/// Runs `body` and returns the `FetchError` it threw, or nil if it returned.
func fetchError<T>(_ body: () throws(FetchError) -> T) -> FetchError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
