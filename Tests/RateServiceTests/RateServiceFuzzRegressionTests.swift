import Foundation
import Testing
import TripCore

@testable import RateService

/// Replays every input the provider fuzz targets (Tests/Fuzz, `make fuzz`) ever failed on.
///
/// The inputs live in `Tests/Fuzz/Regressions/<target>/`, read by path from this file's location
/// (not a bundled resource), one file per finding, named after what it broke. Each must now be
/// rejected with a one-line, control-character-free message, or accepted with exact positive rates,
/// as the fuzz targets demand.
@Suite struct RateServiceFuzzRegressionTests {
    static let today = "2026-03-08"

    /// The files of `Tests/Fuzz/Regressions/<target>`, sorted by name.
    static func regressions(_ target: String) -> [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/\(target)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0).path }
    }

    static func body(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The control characters (C0, DEL, C1) in `message`; none are allowed in an error.
    static func controlCharacters(_ message: String) -> [UInt32] {
        message.unicodeScalars.map(\.value).filter { $0 < 0x20 || $0 == 0x7F || (0x80...0x9F).contains($0) }
    }

    static func known(_ code: String) -> Bool { code != "CYP" && code != "HRK" }

    @Test(arguments: ["frankfurter", "openerapi", "ecb"])
    func everyTargetHasItsRegressions(_ target: String) {
        #expect(!Self.regressions(target).isEmpty, "Tests/Fuzz/Regressions/\(target) is missing or empty")
    }

    /// What the fuzz targets demand of one parse: an accepted batch holds only rates that are exact
    /// positive `Rational`s (what conversion needs); a rejection is one terminal-safe line.
    static func check(_ parse: () throws(FetchError) -> RateBatch) {
        do {
            let batch = try parse()
            for o in batch.observations {
                let rate = Rational(decimalText: o.rate)
                #expect(rate != nil && rate! > .zero, "accepted rate \(o.rate) for \(o.quote) is not an exact positive decimal")
            }
        } catch {
            #expect(controlCharacters(error.description) == [], "\(error.description.debugDescription)")
        }
    }

    @Test(arguments: regressions("frankfurter"))
    func frankfurter(_ path: String) throws {
        let response = HTTPResponse(
            status: 200, headers: ["content-type": "application/json"], body: try Self.body(path),
            url: "https://api.frankfurter.dev/v1/latest")
        let provider = Frankfurter()
        Self.check { () throws(FetchError) in
            try provider.parseDay(response, askedDate: nil, today: Self.today, isKnownCurrency: Self.known)
        }
        Self.check { () throws(FetchError) in
            try provider.parseSeries(response, to: "2026-03-01", today: Self.today, isKnownCurrency: Self.known)
        }
    }

    @Test(arguments: regressions("openerapi"))
    func openERAPI(_ path: String) throws {
        let response = HTTPResponse(
            status: 200, headers: ["content-type": "application/json"], body: try Self.body(path),
            url: "https://open.er-api.com/v6/latest/USD")
        Self.check { () throws(FetchError) in
            try OpenERAPI().parseLatest(response, base: "USD", today: Self.today, isKnownCurrency: Self.known)
        }
    }

    @Test(arguments: regressions("ecb"))
    func ecb(_ path: String) throws {
        let response = HTTPResponse(
            status: 200, headers: ["content-type": "text/xml"], body: try Self.body(path),
            url: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml")
        Self.check { () throws(FetchError) in
            try ECBXML().parse(response, today: Self.today, isKnownCurrency: Self.known)
        }
    }
}
