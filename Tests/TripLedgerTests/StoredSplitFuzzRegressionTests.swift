import Foundation
import Testing
import TripCore
import TripLedger
import TripModel

/// Replays the `splits` fuzz target's inputs (Tests/Fuzz, `make fuzz`): its seeds and every input
/// it ever failed on (`2=abc` as a stored payer ended `trip settle` with SIGILL), read by path from
/// `Tests/Fuzz/{Corpus,Regressions}/splits/`. Each input (payers, a line feed, shares) is checked
/// with the target's invariants: read or refused alike by the balance and export readers, in one
/// line naming the purchase; a read split divides any amount exactly and settles to zero.
@Suite struct StoredSplitFuzzRegressionTests {
    static let memberIDs: [Int64] = [1, 2, 3, 70_000]
    static let members = memberIDs.map { Member(id: $0, tripID: 1, name: "m\($0)", joinedAt: "2026-03-01T00:00:00Z") }

    static func inputs() -> [String] {
        let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz")
        return ["Corpus/splits", "Regressions/splits"].flatMap { folder -> [String] in
            let url = fuzz.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.sorted().map { url.appendingPathComponent($0).path }
        }
    }

    @Test func theSeedsAreThere() {
        #expect(Self.inputs().count >= 10, "Tests/Fuzz/{Corpus,Regressions}/splits is missing")
    }

    /// Both readers alike; nil when refused.
    static func read(_ text: String) -> [(position: Int, weight: Rational)]? {
        let read = Result { () throws(TripError) in try StoredSplit.read(text, memberIDs: memberIDs, purchase: 7) }
        let cell = Result { () throws(TripError) in try StoredSplit.exportCell(text, members: members, purchase: 7) }
        switch (read, cell) {
        case (.failure(let a), .failure(let b)):
            #expect(a == b, "\(text.debugDescription)")
            #expect(a.exitCode == 65 && a.description.contains("purchase #7") && !a.description.contains("\n"), "\(a)")
            return nil
        case (.success(let parts), .success):
            #expect(parts.allSatisfy { !$0.weight.isNegative } && (parts.isEmpty || parts.contains { !$0.weight.isZero }))
            return parts
        default:
            Issue.record("read \(read) but export \(cell) for \(text.debugDescription)")
            return nil
        }
    }

    @Test(arguments: inputs())
    func readOrRefusedInOneLineAndSettles(_ path: String) throws {
        let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let cut = input.firstIndex(of: 0x0A)
        let payers = String(decoding: input[..<(cut ?? input.endIndex)], as: UTF8.self)
        let shares = cut.map { String(decoding: input[($0 + 1)...], as: UTF8.self) } ?? payers
        guard let paid = Self.read(payers), let shared = Self.read(shares), !paid.isEmpty, !shared.isEmpty else { return }
        for amount in [1, 1_234_567, PurchaseBound.maxMinorUnits, -PurchaseBound.maxMinorUnits] {
            var balances = [Int64](repeating: 0, count: Self.memberIDs.count)
            Allocation.divide(amount, among: paid.map { (index: $0.position, weight: $0.weight) }) { k, part in balances[paid[k].position] += part }
            Allocation.divide(amount, among: shared.map { (index: $0.position, weight: $0.weight) }) { k, part in
                balances[shared[k].position] -= part
            }
            #expect(balances.reduce(0, +) == 0, "\(path): \(balances)")
            #expect(!SettleUp.plan(balances: balances).isEmpty || balances.allSatisfy { $0 == 0 })
        }
    }
}
