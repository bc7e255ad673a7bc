/// Finds `<Cube …>` elements in ECB eurofxref XML and reads their attributes, nothing more.
///
/// The ECB publishes two layouts: the daily file is tab-indented with single-quoted attributes
/// (`<Cube currency='USD' rate='1.0163'/>`), the 90-day and full-history files put one date
/// per line with double quotes (`<Cube time="2017-03-03"><Cube currency="USD" rate="1.0565"/>…`).
/// Both are handled by scanning for `<Cube` and reading `name=quote…quote` pairs with either
/// quote. Comments, CDATA and entity references do not occur in these files and are not
/// interpreted. Works on raw bytes: the full history (~7,000 dates × 30 currencies) is read
/// in one pass without building a document tree.
struct ECBCubeScanner {

    enum Event {
        /// `<Cube time='YYYY-MM-DD'>`
        case date(String)
        /// `<Cube currency='XXX' rate='1.23'/>`
        case rate(currency: String, rate: String)
    }

    /// Calls `handle` for every dated or rate `<Cube>` in document order. Returns the number of
    /// `<Cube` tags seen (including the wrapper).
    @discardableResult
    static func scan(_ bytes: [UInt8], _ handle: (Event) throws(FetchError) -> Void) throws(ScanError) -> Int {
        try bytes.withUnsafeBufferPointer { (buffer) throws(ScanError) -> Int in
            var count = 0
            var index = 0
            let end = buffer.count
            while index < end {
                // Next '<'.
                guard buffer[index] == UInt8(ascii: "<") else { index += 1; continue }
                guard index + 5 < end, buffer[index + 1] == UInt8(ascii: "C"), buffer[index + 2] == UInt8(ascii: "u"),
                    buffer[index + 3] == UInt8(ascii: "b"), buffer[index + 4] == UInt8(ascii: "e"),
                    isSpaceOrEnd(buffer[index + 5])
                else { index += 1; continue }
                count += 1
                index += 5
                var time: String?, currency: String?, rate: String?
                // Attributes up to '>' (or '/>').
                while true {
                    while index < end, isSpace(buffer[index]) { index += 1 }
                    guard index < end else { throw .syntax(index, "unterminated <Cube> tag") }
                    let byte = buffer[index]
                    if byte == UInt8(ascii: ">") { index += 1; break }
                    if byte == UInt8(ascii: "/") {
                        guard index + 1 < end, buffer[index + 1] == UInt8(ascii: ">") else {
                            throw .syntax(index, "stray '/' in <Cube>")
                        }
                        index += 2
                        break
                    }
                    let nameStart = index
                    while index < end, buffer[index] != UInt8(ascii: "="), !isSpace(buffer[index]),
                        buffer[index] != UInt8(ascii: ">")
                    { index += 1 }
                    let nameEnd = index
                    while index < end, isSpace(buffer[index]) { index += 1 }
                    guard index < end, buffer[index] == UInt8(ascii: "=") else {
                        throw .syntax(index, "attribute without value in <Cube>")
                    }
                    index += 1
                    while index < end, isSpace(buffer[index]) { index += 1 }
                    guard index < end, buffer[index] == UInt8(ascii: "'") || buffer[index] == UInt8(ascii: "\"") else {
                        throw .syntax(index, "unquoted attribute value in <Cube>")
                    }
                    let quote = buffer[index]
                    index += 1
                    let valueStart = index
                    while index < end, buffer[index] != quote {
                        guard buffer[index] != UInt8(ascii: "<") else { throw .syntax(index, "'<' in attribute value") }
                        index += 1
                    }
                    guard index < end else { throw .syntax(valueStart, "unterminated attribute value") }
                    let name = UnsafeBufferPointer(rebasing: buffer[nameStart..<nameEnd])
                    let value = String(decoding: UnsafeBufferPointer(rebasing: buffer[valueStart..<index]), as: UTF8.self)
                    index += 1
                    if name.elementsEqual("time".utf8) {
                        time = value
                    } else if name.elementsEqual("currency".utf8) {
                        currency = value
                    } else if name.elementsEqual("rate".utf8) {
                        rate = value
                    }
                }
                switch (time, currency, rate) {
                case (nil, nil, nil): continue
                case let (time?, nil, nil):
                    do throws(FetchError) { try handle(.date(time)) } catch { throw .rejected(error) }
                case let (nil, currency?, rate?):
                    do throws(FetchError) { try handle(.rate(currency: currency, rate: rate)) } catch { throw .rejected(error) }
                default:
                    throw .syntax(index, "<Cube> with an unexpected combination of time/currency/rate")
                }
            }
            return count
        }
    }

    /// Either the XML is broken or the handler rejected a value.
    enum ScanError: Error {
        case syntax(Int, String)
        case rejected(FetchError)
    }

    @inline(__always) private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    @inline(__always) private static func isSpaceOrEnd(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
    }
}
