/// The one rule for characters that must not reach a terminal as they are.
///
/// Free text is checked against `isControl` when it is typed (`TextField.check`), and every
/// output that echoes text escapes, drops or replaces what `isUnsafe` flags: error messages
/// (`quoted`), text output (`TextFormat`), JSON, journals and provider messages. A second copy of
/// these tests is what `RuleHygieneTests` looks for.
public enum UnsafeText {
    /// C0 controls (U+0000–U+001F, so also tab, LF, CR and ESC), DEL (U+007F) and C1 controls
    /// (U+0080–U+009F): exactly Unicode's `Cc` category.
    @inlinable
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// A control character, or a format character (`Cf`: bidi overrides such as U+202E,
    /// zero-width spaces) other than the zero-width joiner U+200D, which emoji sequences need.
    @inlinable
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII has no format characters: no Unicode property lookup for it.
        if scalar.value < 0x80 { return scalar.value < 0x20 || scalar.value == 0x7F }
        return isControl(scalar) || (scalar.properties.generalCategory == .format && scalar.value != 0x200D)
    }

    /// `\u{1b}`: lower-case hex, the form Swift and the error messages use.
    public static func escaped(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16))}"
    }
}
