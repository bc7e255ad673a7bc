/// SQL values laid out flat for binding many rows at once without a `String` or an enum payload
/// per value: integers inline, texts as ranges of one shared byte buffer. Nothing in it is
/// reference-counted, so building, handing over and binding a batch allocates and retains nothing
/// per value (`[SQLValue]` cost `trip import` about a third of its inserting thread).
package struct PackedValues {
    /// One value: `length` < 0 is NULL, `length` == `Cell.integer` an integer in `payload`, else a
    /// text of `length` bytes at `text[payload...]`.
    struct Cell {
        package var payload: Int64
        var length: Int32

        package static let null: Int32 = -1
        package static let integer: Int32 = -2
    }

    private(set) var cells: [Cell] = []
    /// The UTF-8 of every text cell, back to back.
    private(set) var text: [UInt8] = []

    package init() {}

    package var count: Int { cells.count }
    package var isEmpty: Bool { cells.isEmpty }

    /// Empties it, keeping its capacity (one row after another).
    package mutating func removeAll() {
        cells.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
    }

    /// Appends cell `index` of `other`.
    package mutating func append(_ other: PackedValues, at index: Int) {
        let cell = other.cells[index]
        guard cell.length >= 0 else {
            cells.append(cell)
            return
        }
        cells.append(Cell(payload: Int64(text.count), length: cell.length))
        text.append(contentsOf: other.text[Int(cell.payload)..<Int(cell.payload) + Int(cell.length)])
    }

    /// Cell `index` as text, `nil` when it is not one.
    package func text(at index: Int) -> String? {
        guard case .text(let value) = value(at: index) else { return nil }
        return value
    }

    /// `body` of cell `index`'s UTF-8 when it is a text, else `nil`.
    @discardableResult
    package func withText<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        let c = cells[index]
        guard c.length >= 0 else { return nil }
        return try text.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[Int(c.payload)..<Int(c.payload) + Int(c.length)])) }
    }

    /// Cell `index` as an `SQLValue`.
    package func value(at index: Int) -> SQLValue {
        let c = cells[index]
        switch c.length {
        case Cell.null: return .null
        case Cell.integer: return .integer(c.payload)
        default: return .text(String(decoding: text[Int(c.payload)..<Int(c.payload) + Int(c.length)], as: UTF8.self))
        }
    }

    package mutating func reserve(cells n: Int, textBytes: Int) {
        cells.reserveCapacity(n)
        text.reserveCapacity(textBytes)
    }

    @inline(__always)
    package mutating func appendInteger(_ v: Int64) { cells.append(Cell(payload: v, length: Cell.integer)) }

    @inline(__always)
    package mutating func appendNull() { cells.append(Cell(payload: 0, length: Cell.null)) }

    @inline(__always)
    package mutating func appendText(_ bytes: UnsafeBufferPointer<UInt8>) {
        cells.append(Cell(payload: Int64(text.count), length: Int32(bytes.count)))
        text.append(contentsOf: bytes)
    }

    /// Appends a text cell of the bytes `body` appends: built in place, not copied in.
    package mutating func appendText(building body: (inout [UInt8]) throws -> Void) rethrows {
        let start = text.count
        try body(&text)
        cells.append(Cell(payload: Int64(start), length: Int32(text.count - start)))
    }

    @inline(__always)
    package mutating func appendText(_ bytes: [UInt8]) {
        cells.append(Cell(payload: Int64(text.count), length: Int32(bytes.count)))
        text.append(contentsOf: bytes)
    }

    package mutating func appendText(_ s: String) {
        var s = s
        s.withUTF8 { appendText($0) }
    }

    package mutating func append(_ value: SQLValue) {
        switch value {
        case .null: appendNull()
        case .integer(let v): appendInteger(v)
        case .text(let t): appendText(t)
        }
    }

    /// Cells `range` as `SQLValue`s (for comparing and for tests).
    package func sqlValues(_ range: Range<Int>) -> [SQLValue] { range.map(value(at:)) }

    /// Calls `body` with the cells and the text buffer (never a nil base address, so that an empty
    /// text binds as '' rather than NULL).
    func withBuffers<R>(_ body: (UnsafeBufferPointer<Cell>, UnsafeRawPointer) throws -> R) rethrows -> R {
        try cells.withUnsafeBufferPointer { c in
            try text.withUnsafeBufferPointer { t in
                try body(c, t.baseAddress.map(UnsafeRawPointer.init) ?? PackedValues.emptyText)
            }
        }
    }

    nonisolated(unsafe) private static let emptyText = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))
}
