import TestSupport
import Testing

@testable import TripCore

/// The rule of a `PurchaseTextField` (a receipt number, a cost centre), and the import fast path's
/// shortcut through it.
@Suite("Purchase text fields: one rule, and a fast path that agrees with it")
struct PurchaseTextFieldTests {
    let field = PurchaseTextField("cost_centre")

    @Test func storedTidyWithItsCaseKept() throws {
        #expect(field.key == "cost_centre")
        #expect(field.flag == "cost-centre")
        #expect(try field.value("  CC-17   Lisbon ") == "CC-17 Lisbon")
        #expect(try field.value("Ünïcode 東京") == "Ünïcode 東京")
        #expect(try field.value("") == nil)
        #expect(try field.value("   ") == nil)
    }

    @Test func refusedNamingTheFlag() {
        #expect(throws: TripError.self) { try field.value("\u{1b}[31mred") }
        do {
            _ = try field.value(String(repeating: "x", count: TextField.labelMaxBytes + 1))
            Issue.record("a text over the limit was accepted")
        } catch {
            #expect(error.description.hasPrefix("cost-centre:"), "\(error)")
        }
    }

    /// A field of a few words: any case of one is stored as declared; anything else is refused
    /// naming the flag, the value and the choices; an empty text still clears it.
    @Test func aChoiceIsStoredAsDeclaredAndNothingElse() throws {
        let status = PurchaseTextField("claim_status", choices: ["draft", "submitted", "paid"])
        #expect(try status.value("draft") == "draft")
        #expect(try status.value("  SUBMITTED ") == "submitted")
        #expect(try status.value("Paid") == "paid")
        #expect(try status.value("") == nil)
        do {
            _ = try status.value("sent")
            Issue.record("a word that is not a choice was accepted")
        } catch {
            #expect(error.description == "claim-status: \"sent\" is not one of draft, submitted, paid", "\(error)")
        }
        // The fast path takes a choice as spelled and leaves every other cell to `value`.
        func asIs(_ text: String) -> Bool { Array(text.utf8).withUnsafeBufferPointer { status.isStoredAsIs($0) } }
        #expect(asIs("paid") && asIs("submitted"))
        #expect(!asIs("Paid") && !asIs("sent") && !asIs(" paid"))
        #expect(Array("Paid".utf8).withUnsafeBufferPointer { field.isStoredAsIs($0) })
    }

    /// `isStoredAsIs` says yes only where `value` stores the bytes unchanged: 20,000 seeded texts
    /// of printable ASCII, spaces, tabs, controls and non-ASCII, short and over the limit.
    @Test func theFastPathsShortcutAgreesWithTheRule() {
        let seed: UInt64 = 4026
        var rng = SplitMix64(seed: seed)
        let alphabet: [UInt8] = [0x20, 0x20, 0x09, 0x1B, 0x7F, 0x41, 0x7A, 0x2D, 0x30, 0x22, 0x2C, 0xC3, 0xA9]
        var asIs = 0
        for _ in 0..<20_000 {
            let length = Int(rng.next() % 4 == 0 ? rng.next() % 130 : rng.next() % 8)
            var bytes = (0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            if rng.next() % 3 == 0 { bytes = bytes.filter { $0 < 0x80 && $0 >= 0x20 && $0 != 0x7F } }
            let text = String(decoding: bytes, as: UTF8.self)
            let fast = bytes.withUnsafeBufferPointer { field.isStoredAsIs($0) }
            if fast {
                asIs += 1
                #expect((try? field.value(text)) == text, "seed \(seed): \(Array(text.utf8))")
            }
        }
        #expect(asIs > 1_000, "the draw reached the shortcut \(asIs) times")
    }
}
