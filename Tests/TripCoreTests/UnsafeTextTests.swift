import Testing
import TripCore

/// `UnsafeText` is the one rule every echo of user or provider text follows.
@Suite struct UnsafeTextTests {
    @Test(
        arguments: [
            // (scalar, isControl, isUnsafe)
            (0x00, true, true), (0x09, true, true), (0x0A, true, true), (0x1B, true, true), (0x1F, true, true),
            (0x20, false, false), (0x41, false, false), (0x7E, false, false), (0x7F, true, true),
            (0x80, true, true), (0x85, true, true), (0x9B, true, true), (0x9F, true, true), (0xA0, false, false),
            (0xE9, false, false), (0xAD, false, true),  // soft hyphen is a format character
            (0x200B, false, true), (0x200D, false, false), (0x202E, false, true), (0x2066, false, true),
            (0xFEFF, false, true), (0x2028, false, false), (0x1F600, false, false), (0xE0001, false, true),
        ] as [(UInt32, Bool, Bool)])
    func classifies(value: UInt32, control: Bool, unsafe: Bool) {
        let scalar = Unicode.Scalar(value)!
        #expect(UnsafeText.isControl(scalar) == control)
        #expect(UnsafeText.isUnsafe(scalar) == unsafe)
    }

    /// Every Cc scalar is a control and nothing else is: the rule is Unicode's category, written fast.
    @Test func controlIsExactlyTheCcCategory() {
        for value in UInt32(0)...0x2FFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(UnsafeText.isControl(scalar) == (scalar.properties.generalCategory == .control), "U+\(String(value, radix: 16))")
        }
    }

    @Test func escapesInSwiftsForm() {
        #expect(UnsafeText.escaped("\u{1B}") == "\\u{1b}")
        #expect(UnsafeText.escaped("\u{202E}") == "\\u{202e}")
        #expect(quoted("a\u{202E}b\u{9B}c\u{200D}d") == "\"a\\u{202e}b\\u{9b}c\u{200D}d\"")
    }
}
