import Foundation
import Testing

/// The executable's commands keep no rendering of their own: each passes values to a renderer
/// (`Rendering`) and prints what it returns. A command
/// that builds a JSON object, pads a column or writes its message as a literal fails here.
@Suite("Commands keep no rendering")
struct ThinCommandTests {
    /// What rendering looks like in a command file, with why each is flagged.
    static let patterns: [(pattern: String, why: String)] = [
        (#"\.object\(\["#, "builds a JSON object"),
        (#"\.array\("#, "builds a JSON array"),
        (#"String\(repeating:"#, "pads a text column"),
        (#"\btext:\s*"[^"]"#, "writes its text output as a literal"),
        (#"\btext:\s*\n\s*""#, "writes its text output as a literal"),
    ]

    static func findings(in text: String, file: String) -> [String] {
        patterns.flatMap { p in
            text.ranges(of: try! Regex(p.pattern)).map { range in
                let line = text[..<range.lowerBound].count(where: { $0 == "\n" }) + 1
                return "\(file):\(line): \(p.why)"
            }
        }
    }

    @Test func commandsPassValuesToRenderers() throws {
        let folder = SQLHygieneTests.sources.appendingPathComponent("trip/Commands")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 40, "found \(files.count) command files")
        var found: [String] = []
        for file in files {
            found += Self.findings(in: try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8), file: file)
        }
        #expect(found.isEmpty, "rendering in command files:\n\(found.joined(separator: "\n"))")
    }

    @Test(arguments: [
        (#"emit(global.format, json: .object(["backup": .string(target)]), text: LedgerFormat.text(backup: target))"#, 1),
        (#"emit(global.format, json: trip.json, text: "Renamed to \(trip.name)")"#, 1),
        ("text.append(\"\\(k)\\(String(repeating: \" \", count: 3))\")", 1),
        (#"emit(global.format, json: LedgerFormat.json(backup: target), text: LedgerFormat.text(backup: target))"#, 0),
    ])
    func flagsRendering(line: String, count: Int) {
        #expect(Self.findings(in: line, file: "X.swift").count == count)
    }
}
