import Foundation
import Testing

@testable import TripCore

/// Replays the `amount` fuzz target's inputs (Tests/Fuzz, `make fuzz`): its seeds and every input
/// it ever failed on, read by path from `Tests/Fuzz/{Corpus,Regressions}/amount/` (not bundled).
///
/// Each input is checked with the target's invariants: evaluation either succeeds for every
/// rounding mode or fails with a one-line message; a result re-rendered as plain and grouped text
/// re-parses to the same minor units; a percentage stays within 0…1.
@Suite struct TripCoreFuzzRegressionTests {
    static func inputs() -> [String] {
        let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz")
        return ["Corpus/amount", "Regressions/amount"].flatMap { folder -> [String] in
            let url = fuzz.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.sorted().map { url.appendingPathComponent($0).path }
        }
    }

    static func controlCharacters(_ message: String) -> [UInt32] {
        message.unicodeScalars.map(\.value).filter { $0 < 0x20 || $0 == 0x7F || (0x80...0x9F).contains($0) }
    }

    @Test func theSeedsAreThere() {
        #expect(Self.inputs().count >= 10, "Tests/Fuzz/Corpus/amount is missing")
    }

    @Test(arguments: inputs(), [(0, "JPY"), (2, "EUR"), (3, "KWD")])
    func amountRoundTrips(_ path: String, currency: (minorUnits: Int, code: String)) throws {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        let value: Int64
        do {
            value = try AmountExpression.evaluate(text, minorUnits: currency.minorUnits)
        } catch {
            #expect(Self.controlCharacters(error.description) == [])
            return
        }
        let floor = try AmountExpression.evaluate(text, minorUnits: currency.minorUnits, rounding: .floor)
        let ceiling = try AmountExpression.evaluate(text, minorUnits: currency.minorUnits, rounding: .ceiling)
        #expect(floor <= value && value <= ceiling && ceiling - floor <= 1)
        let plain = Money(
            minorUnits: value, currency: Currency(code: currency.code, minorUnits: currency.minorUnits, name: currency.code)
        ).plainText
        for rendered in [plain, Money.group(plain)] {
            #expect(try AmountExpression.evaluate(rendered, minorUnits: currency.minorUnits) == value, "\(rendered)")
        }
    }

    @Test(arguments: inputs())
    func percentageStaysInRange(_ path: String) throws {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        guard case .percent(let fraction, let stored)? = try? AdjustmentSpec.parse(text, field: "discount") else { return }
        #expect(!fraction.isNegative && fraction <= .one)
        #expect(try AdjustmentSpec.parse(stored, field: "discount") == .percent(fraction, text: stored))
    }
}
