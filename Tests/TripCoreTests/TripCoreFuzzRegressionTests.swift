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

    /// Every input is read as an adjustment twice, as given and with a `%` appended (so that each
    /// seed, not only the few that end in `%`, reaches the percentage parser), and every outcome is
    /// checked: a percentage within 0…1 whose stored text re-parses the same, an amount kept
    /// trimmed and non-empty, or a one-line error.
    @Test(arguments: inputs())
    func adjustmentKeepsItsInvariants(_ path: String) throws {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        for candidate in [text, text + "%"] {
            let spec: AdjustmentSpec
            do {
                spec = try AdjustmentSpec.parse(candidate, field: "discount")
            } catch {
                #expect(
                    !error.description.isEmpty && Self.controlCharacters(error.description) == [], "\(candidate.debugDescription)")
                continue
            }
            switch spec {
            case .percent(let fraction, let stored):
                #expect(!fraction.isNegative && fraction <= .one, "\(candidate.debugDescription)")
                #expect(try AdjustmentSpec.parse(stored, field: "discount") == spec, "\(candidate.debugDescription)")
            case .amount(let stored):
                #expect(!stored.isEmpty && stored == stored.trimmingSpaces, "\(candidate.debugDescription)")
                #expect(try AdjustmentSpec.parse(stored, field: "discount") == spec, "\(candidate.debugDescription)")
            }
        }
    }
}
