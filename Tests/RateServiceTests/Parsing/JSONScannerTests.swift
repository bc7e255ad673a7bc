import Testing

@testable import RateService

struct JSONScannerTests {
    @Test func numbersKeepTheirExactText() throws {
        let value = try JSONScanner.parse(Array(#"{"a":1.0,"b":0.84328,"c":17549,"d":-2.5e-3,"e":1.10}"#.utf8))
        #expect(value["a"] == .number("1.0"))
        #expect(value["b"] == .number("0.84328"))
        #expect(value["c"] == .number("17549"))
        #expect(value["d"] == .number("-2.5e-3"))
        #expect(value["e"] == .number("1.10"))
    }

    @Test func stringsAndEscapes() throws {
        let value = try JSONScanner.parse(
            Array(#"{"s":"a\"b\\c\/d\n\u00e9\ud83d\ude00","t":true,"f":false,"n":null,"x":[1,[]]}"#.utf8))
        #expect(value["s"] == .string("a\"b\\c/d\né😀"))
        #expect(value["t"] == .bool(true) && value["f"] == .bool(false) && value["n"] == .null)
        #expect(value["x"] == .array([.number("1"), .array([])]))
    }

    @Test func depthIsLimited() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONScanner.parse(Array(ok.utf8)) }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONScanner.Failure.self) { try JSONScanner.parse(Array(deep.utf8)) }
        // Far deeper input fails the same way instead of overflowing the stack.
        let hostile = String(repeating: #"{"a":"#, count: 100_000)
        #expect(throws: JSONScanner.Failure.self) { try JSONScanner.parse(Array(hostile.utf8)) }
    }

    @Test(arguments: [
        "", "{", #"{"a":}"#, #"{"a":1,}"#, "[1,]", "01", "1.", "-", ".5", "+1", "NaN", "Infinity", "-Infinity",
        #"{"a":1} {"#, #""\x""#, "\"\u{01}\"", #""\ud800""#, "tru", "nul", #"{'a':1}"#, "1e", "1e+",
    ])
    func rejectsInvalidDocuments(text: String) {
        #expect(throws: JSONScanner.Failure.self) { try JSONScanner.parse(Array(text.utf8)) }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONScanner.Failure.self) { try JSONScanner.parse([0x22, 0xFF, 0x22]) }
    }

    @Test func acceptsBOMAndWhitespace() throws {
        #expect(
            try JSONScanner.parse([0xEF, 0xBB, 0xBF] + Array(" \n{\"a\" : [ 1 , 2 ] }\r\n".utf8))["a"]
                == .array([.number("1"), .number("2")]))
    }
}

extension JSONScannerTests {
    @Test(arguments: [65, 100, 100_000, 1_000_000])
    func tooDeepIsItsOwnKindOfFailure(depth: Int) {
        for (open, close) in [("[", "]"), (#"{"a":"#, "}")] {
            let text = String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)
            do {
                _ = try JSONScanner.parse(Array(text.utf8))
                Issue.record("\(depth) levels accepted")
            } catch {
                #expect(error.kind == .nestingTooDeep(limit: 64))
                #expect(error.description.hasSuffix("nesting deeper than 64"))
            }
        }
        #expect((try? JSONScanner.parse(Array("[1,]".utf8))) == nil)
        do { _ = try JSONScanner.parse(Array("[1,]".utf8)) } catch { #expect(error.kind == .syntax) }
    }
}
