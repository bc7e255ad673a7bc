import Foundation
import Rendering
import Testing
import TripModel

@testable import Exchange
@testable import TripLedger

/// Replays the `csv` fuzz target's inputs (Tests/Fuzz, `make fuzz`): its seeds and every input it
/// ever failed on, read by path from `Tests/Fuzz/{Corpus,Regressions}/csv/` (not bundled).
///
/// Each input is checked with the target's invariants: the chunk size never changes the records or
/// the failure, every record has the first record's field count, a failure names the record after
/// the last one returned, and the records written back as RFC 4180 read back unchanged.
@Suite struct TripLedgerFuzzRegressionTests {
    static func inputs() -> [String] {
        let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz")
        return ["Corpus/csv", "Regressions/csv"].flatMap { folder -> [String] in
            let url = fuzz.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.sorted().map { url.appendingPathComponent($0).path }
        }
    }

    struct Outcome: Equatable {
        var records: [[String]] = []
        var failure: CSVReader.Failure?
    }

    static func readAll(_ bytes: [UInt8], chunkSize: Int) -> Outcome {
        let reader = CSVReader(bytes: bytes, chunkSize: chunkSize)
        var outcome = Outcome()
        do {
            while let record = try reader.next() { outcome.records.append(record) }
        } catch {
            outcome.failure = error
        }
        return outcome
    }

    @Test func theSeedsAreThere() {
        #expect(Self.inputs().count >= 5, "Tests/Fuzz/Corpus/csv is missing")
    }

    @Test(arguments: inputs())
    func readsTheSameInAnyChunks(_ path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let whole = Self.readAll(bytes, chunkSize: 1 << 16)
        for chunkSize in [4, 5, 7, 64] {
            #expect(Self.readAll(bytes, chunkSize: chunkSize) == whole, "chunk size \(chunkSize)")
        }
        if let count = whole.records.first?.count {
            #expect(whole.records.allSatisfy { $0.count == count })
        }
        if let failure = whole.failure {
            #expect(failure.record == whole.records.count + 1)
            #expect(!failure.description.contains { $0 == "\n" || $0 == "\r" })
            return
        }
        let written = whole.records.map { record in
            // By bytes: a quote followed by a combining mark is one `Character`.
            record.map { "\"" + String(decoding: $0.utf8.flatMap { $0 == 0x22 ? [0x22, 0x22] : [$0] }, as: UTF8.self) + "\"" }
                .joined(separator: ",") + "\r\n"
        }.joined()
        #expect(Self.readAll(Array(written.utf8), chunkSize: 1 << 16) == Outcome(records: whole.records))
    }
}
