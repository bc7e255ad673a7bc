// Invariant checks shared by every fuzz target (compiled into each harness by Tests/Fuzz/fuzz.sh).
//
// A failed check calls `fatalError`, which libFuzzer reports as a crash and saves the input, so an
// invariant violation is found, minimised and kept exactly like a memory error.

/// Stops the run when `condition` does not hold; `message` names the invariant and the values.
@inline(__always)
func require(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition { fatalError("fuzz invariant: \(message())", file: file, line: line) }
}

/// The one-line, terminal-safe contract of every error message: no line end, no other control
/// character (C0, DEL, C1), so a hostile value cannot split the line or move the cursor.
func requireOneLine(_ message: String, _ what: String) {
    for scalar in message.unicodeScalars {
        let v = scalar.value
        require(
            v >= 0x20 && v != 0x7F && !(0x80...0x9F).contains(v),
            "\(what) error has control character U+\(String(v, radix: 16, uppercase: true)): \(message.debugDescription)")
    }
}

/// The fuzzer's bytes as an array (the parsers take `[UInt8]`).
func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}
