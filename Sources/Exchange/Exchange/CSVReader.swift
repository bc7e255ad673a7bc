import Storage
import TripLedger

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming RFC 4180 reader: one record at a time from a file descriptor, in fixed-size chunks,
/// so memory stays constant however long the file is (one chunk plus the current record).
///
/// Accepted: fields separated by `,`; records ended by CRLF, LF or a lone CR; a last record with or
/// without a line end; fields in double quotes, which may hold commas, line ends and doubled quotes
/// (`""` is one `"`); a UTF-8 byte order mark at the very start (skipped). A quote inside an unquoted
/// field is kept as a literal character. Blank lines are skipped and not counted.
///
/// Rejected, with the record's number (1 = the first record, usually the header): a quoted field
/// that is never closed, a character other than `,` or a line end after a closing quote, a record
/// whose field count differs from the first record's, bytes that are not UTF-8, a field over 1 MiB.
public final class CSVReader {
    /// A malformed record. `record` counts records from 1, the header included.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public let record: Int
        public let reason: String
        /// The encoding the bytes look like when they are not UTF-8 (`UTF-16LE`, `Windows-1252`).
        public var encoding: String? = nil
        public var description: String { "record \(record): \(reason)" }
    }

    private enum Source {
        case descriptor(Int32)
        case memory([UInt8], offset: Int)
    }

    /// The largest field accepted, in bytes: a bound on memory for a file with a runaway quote.
    public static let maxFieldBytes = 1 << 20

    private var source: Source
    private let chunkSize: Int
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var finished = false
    private var checkedBOM = false
    /// Records returned so far: the number of the last one.
    public private(set) var recordNumber = 0
    /// The line (1-based) the reader is on; a quoted field with line ends spans several.
    public private(set) var line = 1
    /// Every record must have this many fields; set from the first record when `nil`.
    public var expectedFieldCount: Int?

    /// The field separator: `,` (RFC 4180), or `;` as many European banks write statements.
    public let delimiter: UInt8
    /// The largest byte `wholeLineInBuffer` must look at twice (quote, CR, LF and the delimiter).
    private let specialMax: UInt8

    /// Reads from `fd` (not closed by the reader) in chunks of `chunkSize` bytes, after `prefix`
    /// (bytes already read from it, at most `chunkSize`: `firstLine(of:)`).
    public init(fileDescriptor fd: Int32, chunkSize: Int = 1 << 16, delimiter: UInt8 = 0x2C, prefix: [UInt8] = []) {
        self.delimiter = delimiter
        specialMax = max(delimiter, Self.comma)
        source = .descriptor(fd)
        self.chunkSize = max(chunkSize, 4, prefix.count)
        buffer = [UInt8](repeating: 0, count: self.chunkSize)
        for (k, b) in prefix.enumerated() { buffer[k] = b }
        end = prefix.count
    }

    /// Reads `bytes`, handed over `chunkSize` bytes at a time exactly as a descriptor would be.
    public init(bytes: [UInt8], chunkSize: Int = 1 << 16, delimiter: UInt8 = 0x2C) {
        self.delimiter = delimiter
        specialMax = max(delimiter, Self.comma)
        source = .memory(bytes, offset: 0)
        self.chunkSize = max(chunkSize, 4)
        buffer = [UInt8](repeating: 0, count: self.chunkSize)
    }

    /// The next record's fields, or `nil` at the end of the input.
    public func next() throws(Failure) -> [String]? {
        guard try next(into: &record) else { return nil }
        return (0..<record.count).map { record.string($0) }
    }

    private var record = CSVRecord()

    /// Reads the next record into `record` (its earlier contents are replaced, its storage reused):
    /// `false` at the end of the input. Every field has been checked to be UTF-8.
    public func next(into record: inout CSVRecord) throws(Failure) -> Bool {
        if !checkedBOM { try skipBOM() }
        // Blank lines between records are not records.
        while true {
            guard let b = try peek() else { return false }
            if b == Self.lf { start += 1; line += 1; continue }
            if b == Self.cr {
                start += 1
                if try peek() == Self.lf { start += 1 }
                line += 1
                continue
            }
            break
        }
        recordNumber += 1
        record.removeAll()
        if !wholeLineInBuffer(into: &record) {
            try readFields(into: &record)
        }
        if let n = expectedFieldCount {
            guard record.count == n else {
                throw Failure(record: recordNumber, reason: "has \(record.count) field\(record.count == 1 ? "" : "s"); the header has \(n)")
            }
        } else {
            expectedFieldCount = record.count
        }
        return true
    }

    /// The common record in one pass over the buffer: no quotes, ASCII, and its line end already
    /// read. `false` (nothing consumed, `record` left empty) for any other: `readFields` reads it.
    private func wholeLineInBuffer(into record: inout CSVRecord) -> Bool {
        let first = start, stop = end
        let consumed = buffer.withUnsafeBufferPointer { p -> Int? in
            var i = first
            var high: UInt8 = 0
            let delimiter = self.delimiter, specialMax = self.specialMax
            while i < stop {
                let c = p[i]
                if c <= specialMax {
                    if c == delimiter {
                        record.markSeparator(at: i - first)
                    } else if c == Self.lf || c == Self.cr {
                        break
                    } else if c == Self.quote {
                        record.removeAll()
                        return nil
                    }
                }
                high |= c
                i += 1
            }
            // A CR as the buffer's last byte may be the first half of a CRLF.
            guard i < stop, high < 0x80, p[i] == Self.lf || i + 1 < stop else {
                record.removeAll()
                return nil
            }
            record.endLine(UnsafeBufferPointer(rebasing: p[first..<i]))
            return p[i] == Self.cr && p[i + 1] == Self.lf ? i + 2 - first : i + 1 - first
        }
        guard let consumed else { return false }
        start += consumed
        line += 1
        return true
    }

    /// Any record, byte by byte, refilling the buffer as needed.
    private func readFields(into record: inout CSVRecord) throws(Failure) {
        while true {
            let fieldStart = record.bytes.count
            if try peek() == Self.quote {
                try readQuoted(into: &record.bytes)
            } else if !unquotedInBuffer(into: &record.bytes) {
                try readUnquoted(into: &record.bytes)
            }
            if !record.endField(from: fieldStart) {
                throw Failure(
                    record: recordNumber, reason: "field \(record.count) is not valid UTF-8",
                    encoding: "Windows-1252")
            }
            guard let t = try peek() else { break }
            start += 1
            if t == delimiter { continue }
            if t == Self.cr, try peek() == Self.lf { start += 1 }
            line += 1
            break
        }
    }

    private static let comma: UInt8 = 0x2C, quote: UInt8 = 0x22, cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    /// The common case: an unquoted field whose end is already in the buffer, appended to `out`.
    /// `false` (nothing consumed) when the field runs past the buffer.
    private func unquotedInBuffer(into out: inout [UInt8]) -> Bool {
        let stop = end
        return buffer.withUnsafeBufferPointer { p -> Bool in
            var i = start
            while i < stop {
                let c = p[i]
                if c == delimiter || c == Self.cr || c == Self.lf { break }
                i += 1
            }
            guard i < stop else { return false }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<i]))
            start = i
            return true
        }
    }

    /// An unquoted field: everything up to `,`, CR, LF or the end, scanned a chunk at a time.
    private func readUnquoted(into scratch: inout [UInt8]) throws(Failure) {
        let fieldStart = scratch.count
        while true {
            if start == end, !(try refill()) { return }
            var i = start
            buffer.withUnsafeBufferPointer { p in
                while i < end {
                    let c = p[i]
                    if c == delimiter || c == Self.cr || c == Self.lf { break }
                    i += 1
                }
            }
            scratch.append(contentsOf: buffer[start..<i])
            start = i
            try checkFieldSize(scratch.count - fieldStart)
            if i < end { return }
        }
    }

    /// A quoted field, from its opening quote to its closing one; `""` inside is one quote.
    private func readQuoted(into scratch: inout [UInt8]) throws(Failure) {
        let fieldStart = scratch.count
        let openedOn = line
        start += 1
        while true {
            guard let c = try peek() else {
                throw Failure(record: recordNumber, reason: "has an unbalanced quote: the quoted field opened on line \(openedOn) is never closed")
            }
            start += 1
            if c == Self.quote {
                if try peek() == Self.quote {
                    start += 1
                    scratch.append(Self.quote)
                    continue
                }
                break
            }
            if c == Self.lf { line += 1 } else if c == Self.cr, try peek() != Self.lf { line += 1 }
            scratch.append(c)
            if (scratch.count - fieldStart) & 0xFFF == 0 { try checkFieldSize(scratch.count - fieldStart) }
        }
        if let after = try peek(), after != delimiter, after != Self.cr, after != Self.lf {
            throw Failure(
                record: recordNumber,
                reason: "has a character after a closing quote on line \(line); write a quote inside a quoted field as \"\"")
        }
    }

    private func checkFieldSize(_ bytes: Int) throws(Failure) {
        if bytes > Self.maxFieldBytes {
            throw Failure(record: recordNumber, reason: "has a field longer than \(Self.maxFieldBytes) bytes")
        }
    }

    private func skipBOM() throws(Failure) {
        checkedBOM = true
        // The BOM is 3 bytes; make sure they are all in the buffer even with tiny chunks.
        while end - start < 3, try fill() {}
        if end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF {
            start += 3
            return
        }
        // UTF-16 (Excel's "Unicode text", some bank exports) starts with its byte order mark, at the
        // very start only: after a UTF-8 BOM the same bytes are just invalid UTF-8, whatever the chunks.
        if end - start >= 2 {
            let b0 = buffer[start], b1 = buffer[start + 1]
            if b0 == 0xFF && b1 == 0xFE { throw Failure(record: 1, reason: "is UTF-16LE text, not UTF-8", encoding: "UTF-16LE") }
            if b0 == 0xFE && b1 == 0xFF { throw Failure(record: 1, reason: "is UTF-16BE text, not UTF-8", encoding: "UTF-16BE") }
        }
    }

    @inline(__always)
    private func peek() throws(Failure) -> UInt8? {
        if start == end, !(try refill()) { return nil }
        return buffer[start]
    }

    /// Replaces the consumed buffer with the next chunk; `false` at the end of the input.
    private func refill() throws(Failure) -> Bool {
        start = 0
        end = 0
        return try fill()
    }

    /// Appends the next chunk after the unread bytes, moving them to the front first.
    private func fill() throws(Failure) -> Bool {
        if finished { return false }
        if start > 0 {
            let unread = end - start
            if unread > 0 {
                for k in 0..<unread { buffer[k] = buffer[start + k] }
            }
            start = 0
            end = unread
        }
        let room = buffer.count - end
        guard room > 0 else { return true }
        var n = 0
        switch source {
        case .descriptor(let fd):
            while true {
                n = buffer.withUnsafeMutableBytes { p in read(fd, p.baseAddress! + end, room) }
                if n >= 0 { break }
                if errno == EINTR { continue }
                throw Failure(record: recordNumber + 1, reason: "cannot be read: \(String(cString: strerror(errno)))")
            }
        case .memory(let bytes, let offset):
            n = min(room, bytes.count - offset)
            if n > 0 {
                for k in 0..<n { buffer[end + k] = bytes[offset + k] }
            }
            source = .memory(bytes, offset: offset + n)
        }
        if n == 0 {
            finished = true
            return false
        }
        end += n
        return true
    }
}

/// One CSV record as bytes, quotes removed: the fields back to back, each followed by one
/// separator byte; field `i` ends at `ends[i]` and starts one byte after the end of field `i - 1`.
/// Reused record after record, so reading allocates nothing once it has grown.
public struct CSVRecord {
    public internal(set) var bytes: [UInt8] = []
    private var ends: [Int] = []

    public init() {}

    public var count: Int { ends.count }

    /// The byte range of field `i`.
    @inline(__always)
    public func range(_ i: Int) -> Range<Int> { (i == 0 ? 0 : ends[i - 1] + 1)..<ends[i] }

    /// Field `i` as a `String` (its bytes were checked to be UTF-8 when it was read).
    public func string(_ i: Int) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range(i)]), as: UTF8.self) }
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// Ends the field whose bytes were appended from `start` on; `false` when they are not UTF-8.
    /// ASCII (most CSV fields) skips validation.
    mutating func endField(from start: Int) -> Bool {
        ends.append(bytes.count)
        bytes.append(0x2C)
        return bytes.withUnsafeBufferPointer { p in
            let field = UnsafeBufferPointer(rebasing: p[start..<p.count - 1])
            for b in field where b >= 0x80 { return String(validating: field, as: UTF8.self) != nil }
            return true
        }
    }

    /// For a whole line read at once (`endLine`): a separator at `offset` in the line.
    @inline(__always)
    mutating func markSeparator(at offset: Int) { ends.append(offset) }

    /// The whole line, its separators marked: the record's bytes are the line itself.
    mutating func endLine(_ line: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: line)
        ends.append(line.count)
    }
}
