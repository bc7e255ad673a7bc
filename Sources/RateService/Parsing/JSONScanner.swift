/// A small strict JSON reader (RFC 8259) that keeps number lexemes as their exact text.
///
/// Rates must never pass through `Double`, so numbers come back as `.number("1.0789")`.
/// Nesting deeper than `maxDepth` is rejected, which bounds recursion on hostile input.
/// No extensions: no comments, trailing commas, `NaN` or `Infinity`.
struct JSONScanner {
    /// Why a body is not JSON; `offset` is the byte position of the problem.
    struct Failure: Error, Equatable, CustomStringConvertible {
        /// What kind of problem, for callers that treat hostile nesting apart from plain syntax.
        enum Kind: Equatable {
            /// Not JSON, or not the JSON expected.
            case syntax
            /// Arrays/objects nested deeper than `limit`; parsing stopped there (no deeper recursion).
            case nestingTooDeep(limit: Int)
        }

        var offset: Int
        var reason: String
        var kind: Kind = .syntax
        var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// Deepest nesting of arrays/objects accepted.
    static let maxDepth = 64

    /// Parses a complete document (one value, optional surrounding whitespace, optional UTF-8 BOM).
    static func parse(_ bytes: [UInt8], maxDepth: Int = maxDepth) throws(Failure) -> ScannedJSON {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> ScannedJSON in
            var scanner = JSONScanner(bytes: buffer, maxDepth: maxDepth)
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.position = 3 }
            scanner.skipWhitespace()
            let value = try scanner.parseValue(depth: 0)
            scanner.skipWhitespace()
            guard scanner.position == buffer.count else { throw scanner.failure("unexpected data after the value") }
            return value
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var position = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func failure(_ reason: String) -> Failure { Failure(offset: position, reason: reason) }

    private func tooDeep() -> Failure {
        Failure(offset: position, reason: "nesting deeper than \(maxDepth)", kind: .nestingTooDeep(limit: maxDepth))
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func expect(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count,
            UnsafeBufferPointer(start: literal.utf8Start, count: count).elementsEqual(bytes[position..<position + count])
        else { throw failure("unknown literal") }
        position += count
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> ScannedJSON {
        guard let byte = current else { throw failure("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("unexpected character '\(Unicode.Scalar(byte))'")
        }
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> ScannedJSON {
        guard depth <= maxDepth else { throw tooDeep() }
        position += 1
        var members: [(key: String, value: ScannedJSON)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") { position += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':'") }
            position += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(members)
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> ScannedJSON {
        guard depth <= maxDepth else { throw tooDeep() }
        position += 1
        var elements: [ScannedJSON] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { position += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(Failure) -> String {
        let start = position
        func digits(_ scanner: inout JSONScanner) -> Int {
            let from = scanner.position
            while let byte = scanner.current, byte >= 0x30 && byte <= 0x39 { scanner.position += 1 }
            return scanner.position - from
        }
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else if digits(&self) == 0 {
            throw failure("expected a digit")
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw failure("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw failure("expected exponent digits") }
        }
        if let byte = current, byte >= 0x30 && byte <= 0x39 { throw failure("leading zero in a number") }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    private mutating func parseString() throws(Failure) -> String {
        position += 1  // opening quote
        var scratch: [UInt8] = []
        var segmentStart = position
        while true {
            guard let byte = current else { throw failure("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                scratch.append(contentsOf: bytes[segmentStart..<position])
                position += 1
                guard let text = String(validating: scratch, as: UTF8.self) else {
                    throw failure("string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                scratch.append(contentsOf: bytes[segmentStart..<position])
                position += 1
                try parseEscape(into: &scratch)
                segmentStart = position
            case 0..<0x20:
                throw failure("control character in string")
            default:
                position += 1
            }
        }
    }

    private mutating func parseEscape(into scratch: inout [UInt8]) throws(Failure) {
        guard let byte = current else { throw failure("unterminated escape") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard current == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u")
                else { throw failure("unpaired surrogate") }
                position += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw failure("unpaired surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid \\u escape") }
            scratch.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw failure("invalid escape")
        }
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw failure("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
