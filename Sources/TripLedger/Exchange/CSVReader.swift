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
    private var scratch: [UInt8] = []
    /// Records returned so far: the number of the last one.
    public private(set) var recordNumber = 0
    /// The line (1-based) the reader is on; a quoted field with line ends spans several.
    public private(set) var line = 1
    /// Every record must have this many fields; set from the first record when `nil`.
    public var expectedFieldCount: Int?

    /// Reads from `fd` (not closed by the reader) in chunks of `chunkSize` bytes.
    public init(fileDescriptor fd: Int32, chunkSize: Int = 1 << 16) {
        source = .descriptor(fd)
        self.chunkSize = max(chunkSize, 4)
        buffer = [UInt8](repeating: 0, count: self.chunkSize)
    }

    /// Reads `bytes`, handed over `chunkSize` bytes at a time exactly as a descriptor would be.
    public init(bytes: [UInt8], chunkSize: Int = 1 << 16) {
        source = .memory(bytes, offset: 0)
        self.chunkSize = max(chunkSize, 4)
        buffer = [UInt8](repeating: 0, count: self.chunkSize)
    }

    /// The next record's fields, or `nil` at the end of the input.
    public func next() throws(Failure) -> [String]? {
        if !checkedBOM { try skipBOM() }
        // Blank lines between records are not records.
        while true {
            guard let b = try peek() else { return nil }
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
        var fields: [String] = []
        fields.reserveCapacity(expectedFieldCount ?? 16)
        while true {
            scratch.removeAll(keepingCapacity: true)
            let text: String?
            if try peek() == Self.quote {
                try readQuoted()
                text = scratch.withUnsafeBufferPointer { Self.decode($0) }
            } else if let direct = unquotedInBuffer() {
                text = direct
            } else {
                try readUnquoted()
                text = scratch.withUnsafeBufferPointer { Self.decode($0) }
            }
            guard let text else {
                throw Failure(record: recordNumber, reason: "field \(fields.count + 1) is not valid UTF-8")
            }
            fields.append(text)
            guard let t = try peek() else { break }
            start += 1
            if t == Self.comma { continue }
            if t == Self.cr, try peek() == Self.lf { start += 1 }
            line += 1
            break
        }
        if let n = expectedFieldCount {
            guard fields.count == n else {
                throw Failure(record: recordNumber, reason: "has \(fields.count) field\(fields.count == 1 ? "" : "s"); the header has \(n)")
            }
        } else {
            expectedFieldCount = fields.count
        }
        return fields
    }

    private static let comma: UInt8 = 0x2C, quote: UInt8 = 0x22, cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    /// The common case without a copy: an unquoted field whose end is already in the buffer.
    /// `nil` (nothing consumed) when the field runs past the buffer.
    private func unquotedInBuffer() -> String?? {
        var i = start
        let stop = end
        return buffer.withUnsafeBufferPointer { p -> String?? in
            while i < stop {
                let c = p[i]
                if c == Self.comma || c == Self.cr || c == Self.lf { break }
                i += 1
            }
            guard i < stop else { return nil }
            let text = Self.decode(UnsafeBufferPointer(rebasing: p[start..<i]))
            start = i
            return .some(text)
        }
    }

    /// UTF-8 to `String`, or `nil` when the bytes are not UTF-8. ASCII (most CSV fields) skips validation.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var ascii = true
        for b in bytes where b >= 0x80 { ascii = false; break }
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// An unquoted field: everything up to `,`, CR, LF or the end, scanned a chunk at a time.
    private func readUnquoted() throws(Failure) {
        while true {
            if start == end, !(try refill()) { return }
            var i = start
            buffer.withUnsafeBufferPointer { p in
                while i < end {
                    let c = p[i]
                    if c == Self.comma || c == Self.cr || c == Self.lf { break }
                    i += 1
                }
            }
            scratch.append(contentsOf: buffer[start..<i])
            start = i
            try checkFieldSize()
            if i < end { return }
        }
    }

    /// A quoted field, from its opening quote to its closing one; `""` inside is one quote.
    private func readQuoted() throws(Failure) {
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
            if scratch.count & 0xFFF == 0 { try checkFieldSize() }
        }
        if let after = try peek(), after != Self.comma, after != Self.cr, after != Self.lf {
            throw Failure(record: recordNumber,
                          reason: "has a character after a closing quote on line \(line); write a quote inside a quoted field as \"\"")
        }
    }

    private func checkFieldSize() throws(Failure) {
        if scratch.count > Self.maxFieldBytes {
            throw Failure(record: recordNumber, reason: "has a field longer than \(Self.maxFieldBytes) bytes")
        }
    }

    private func skipBOM() throws(Failure) {
        checkedBOM = true
        // The BOM is 3 bytes; make sure they are all in the buffer even with tiny chunks.
        while end - start < 3, try fill() {}
        if end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF {
            start += 3
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
