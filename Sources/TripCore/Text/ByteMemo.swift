#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Values parsed from cell texts, found again by the cell's UTF-8 bytes, so an import (or a
/// streamed listing) parses each distinct text once. The last hit and the first 16 texts are
/// compared directly (cheap for the short cells of a CSV file, whose rows mostly repeat them); any
/// more go to a dictionary.
///
/// The fast path keys by the bytes it has in hand; the general path by `String` (`memo[text]`).
public struct ByteMemo<Value> {
    private var keys: [[UInt8]] = []
    private var values: [Value] = []
    private var more: [[UInt8]: Int] = [:]
    private var last = -1

    public init() {}

    public mutating func find(_ key: UnsafeBufferPointer<UInt8>) -> Value? {
        if last >= 0 && sameBytes(key, keys[last]) { return values[last] }
        for i in 0..<min(keys.count, 16) where sameBytes(key, keys[i]) {
            last = i
            return values[i]
        }
        guard keys.count > 16, let i = more[Array(key)] else { return nil }
        last = i
        return values[i]
    }

    /// Call only after `find` missed: a key is remembered once.
    public mutating func insert(_ key: UnsafeBufferPointer<UInt8>, _ value: Value) {
        last = keys.count
        keys.append(Array(key))
        values.append(value)
        if last >= 16 { more[keys[last]] = last }
    }

    /// The value parsed from `text`; setting `nil` is ignored.
    public subscript(text: String) -> Value? {
        mutating get {
            var text = text
            return text.withUTF8 { find($0) }
        }
        set {
            guard let newValue else { return }
            var text = text
            text.withUTF8 { insert($0, newValue) }
        }
    }
}

/// Whether two byte strings are equal.
@inline(__always)
public func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    // Cells are short: a loop beats a call into memcmp.
    if a.count <= 16 {
        for i in 0..<a.count where a[i] != b[i] { return false }
        return true
    }
    return memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
}

@inline(__always)
public func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return b.withUnsafeBufferPointer { sameBytes(a, $0) }
}
