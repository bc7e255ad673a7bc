// Fuzz target `csv`: any bytes through `CSVReader(bytes:chunkSize:)` and `next()` until the end
// or the first failure. Keep this thin: it is the reader's public entry point only.
//
// Checks:
// - chunking is invisible: 64 KiB chunks and 4-byte chunks (the minimum) and a chunk size taken
//   from the input give the same records and the same failure;
// - every record has the first record's field count; a failure names the record after the last
//   one returned, in one line without line ends;
// - round trip: the records written back as RFC 4180 (every field quoted, `""` for `"`, CRLF)
//   read back as the same records.
import Exchange

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = bytes(data, size)
    let whole = readAll(input, chunkSize: 1 << 16)
    let tiny = readAll(input, chunkSize: 4)
    require(whole == tiny, "64 KiB and 4-byte chunks disagree: \(whole) vs \(tiny)")
    let odd = 5 + Int(input.first ?? 0) % 60
    let other = readAll(input, chunkSize: odd)
    require(whole == other, "64 KiB and \(odd)-byte chunks disagree")

    if let count = whole.records.first?.count {
        require(count >= 1, "a record without fields")
        require(whole.records.allSatisfy { $0.count == count }, "field counts differ: \(whole.records.map(\.count))")
    }
    if let failure = whole.failure {
        require(
            failure.record == whole.records.count + 1,
            "failure names record \(failure.record) after \(whole.records.count) records")
        require(!failure.description.contains(where: { $0 == "\n" || $0 == "\r" }), "failure is not one line: \(failure)")
    } else if !whole.records.isEmpty {
        var text: [UInt8] = []
        for record in whole.records {
            text += record.map { "\"" + $0.replacingQuotes + "\"" }.joined(separator: ",").utf8
            text += [0x0D, 0x0A]
        }
        let again = readAll(text, chunkSize: 1 << 16)
        require(
            again.failure == nil && again.records == whole.records, "round trip changed the records: \(whole.records) → \(again)")
    }
    return 0
}

struct Outcome: Equatable {
    var records: [[String]] = []
    var failure: CSVReader.Failure?
}

func readAll(_ input: [UInt8], chunkSize: Int) -> Outcome {
    let reader = CSVReader(bytes: input, chunkSize: chunkSize)
    var outcome = Outcome()
    do {
        while let record = try reader.next() {
            outcome.records.append(record)
            require(
                reader.recordNumber == outcome.records.count, "recordNumber \(reader.recordNumber) after \(outcome.records.count)"
            )
        }
    } catch {
        outcome.failure = error
    }
    return outcome
}

extension String {
    /// Every `"` doubled, by bytes: a quote followed by a combining mark is one `Character`.
    var replacingQuotes: String {
        var out: [UInt8] = []
        for b in utf8 { out.append(b); if b == 0x22 { out.append(0x22) } }
        return String(decoding: out, as: UTF8.self)
    }
}
