import TripCore
import TripModel

/// A first share's purchases as one change: `{"count":N,"columns":[…],"rows":[[…],…]}`, each row
/// the values of one purchase under one column list: its global id, its clock, then the columns a
/// purchase's own change carries (`purchasePayload`), in the same order.
///
/// One change instead of one per purchase: the column names are written once instead of in every
/// row, which makes the bytes a share sends and the server stores about a third, and the server
/// appends one row to the log instead of tens of thousands. A join applies it in bulk. Every later
/// edit of those purchases travels as a change of its own (`kind` `purchase`), built on the clock
/// the snapshot gave the row.
public struct PurchaseSnapshot {
    /// The `kind` of its change. Server schema 4 names it, so that a `trip` that cannot read it
    /// refuses the server instead of skipping the purchases.
    public static let kind = "snapshot"
    /// The two columns before the purchase's own: its global id and the clock of its version.
    static let keyColumns = ["gid", "hlc"]

    /// The purchases' columns after `keyColumns`.
    public let columns: [String]
    public let count: Int
    private let text: String
    /// Where the rows' array begins in `text`.
    private let rowsStart: Int

    /// Reads the head of a snapshot; `nil` when `text` is not one.
    public init?(_ text: String) {
        var text = text
        let head = text.withUTF8 { bytes -> (count: Int, columns: [String], rowsStart: Int)? in
            var reader = JSONReader(bytes)
            guard reader.take(0x7B), reader.string() == "count", reader.take(0x3A), case .integer(let count)? = reader.scalar(fractions: .refused),
                reader.take(0x2C), reader.string() == "columns", reader.take(0x3A), reader.take(0x5B)
            else { return nil }
            var columns: [String] = []
            if !reader.take(0x5D) {
                repeat {
                    guard let name = reader.string() else { return nil }
                    columns.append(name)
                } while reader.take(0x2C)
                guard reader.take(0x5D) else { return nil }
            }
            guard columns.starts(with: PurchaseSnapshot.keyColumns), reader.take(0x2C), reader.string() == "rows", reader.take(0x3A)
            else { return nil }
            reader.skipSpace()
            return (Int(count), Array(columns.dropFirst(PurchaseSnapshot.keyColumns.count)), reader.index)
        }
        guard let head else { return nil }
        self.text = text
        self.count = head.count
        self.columns = head.columns
        self.rowsStart = head.rowsStart
    }

    /// How many purchases a snapshot holds, read from its head alone; 0 when `text` is not one.
    public static func count(in text: String?) -> Int {
        text.flatMap(PurchaseSnapshot.init)?.count ?? 0
    }

    /// Calls `body` with each row's global id (its UTF-8, valid only inside `body`), clock and
    /// values (one cell per `columns`), in order. Throws when a row is malformed or the rows are
    /// not `count`.
    package func forEachRow(_ body: (_ gid: UnsafeBufferPointer<UInt8>, _ hlc: Int64, _ values: PackedValues) throws -> Void) throws {
        var text = text
        let width = columns.count
        let start = rowsStart
        let bad = TripError.badText(field: "snapshot", reason: "a shared trip's purchases could not be read")
        let rows = try text.withUTF8 { bytes throws -> Int in
            var reader = JSONReader(bytes)
            reader.index = start
            guard reader.take(0x5B) else { throw bad }
            if reader.take(0x5D) { return 0 }
            var rows = 0
            var values = PackedValues()
            values.reserve(cells: width, textBytes: 1024)
            repeat {
                guard reader.take(0x5B), let gid = reader.stringBytes(), reader.take(0x2C),
                    case .integer(let hlc)? = reader.scalar(fractions: .refused)
                else { throw bad }
                values.removeAll()
                for _ in 0..<width {
                    guard reader.take(0x2C), reader.scalar(into: &values, fractions: .asText) else { throw bad }
                }
                guard reader.take(0x5D) else { throw bad }
                switch gid {
                case .inPlace(let bytes): try body(bytes, hlc, values)
                case .unescaped(let bytes): try bytes.withUnsafeBufferPointer { try body($0, hlc, values) }
                }
                rows += 1
            } while reader.take(0x2C)
            guard reader.take(0x5D), reader.take(0x7D) else { throw bad }
            return rows
        }
        guard rows == count else { throw bad }
    }

    /// One row as its purchase's own change carries it: a JSON object of `columns`.
    package func payload(_ packed: PackedValues) -> String {
        let values = packed.sqlValues(0..<packed.count)
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (i, name) in columns.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            PurchaseSnapshot.write(i < values.count ? values[i] : .null, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The rows of `gids` as their purchases' own changes carry them, with their clocks.
    public func payloads(of gids: Set<String>) throws -> [String: (hlc: Int64, payload: String)] {
        var found: [String: (hlc: Int64, payload: String)] = [:]
        try forEachRow { bytes, hlc, values in
            let gid = String(decoding: bytes, as: UTF8.self)
            if gids.contains(gid) { found[gid] = (hlc, payload(values)) }
        }
        return found
    }

    package static func write(_ value: SQLValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .integer(let n): out.append(contentsOf: String(n).utf8)
        case .text(let s): JSONValue.writeString(s, to: &out)
        }
    }

    /// Builds a snapshot row by row, each value written as it is read.
    package struct Writer {
        private var out: [UInt8] = []
        private let count: Int
        private var rows = 0

        /// `columns`: the purchases' columns as SQLite's `json_array` gives them, then `refund_of`,
        /// `payers` and `shares`.
        package init(count: Int, columns: [String], capacity: Int) {
            self.count = count
            out.reserveCapacity(capacity)
            out.append(contentsOf: "{\"count\":\(count),\"columns\":".utf8)
            JSONValue.array((PurchaseSnapshot.keyColumns + columns).map { .string($0) }).write(to: &out)
            out.append(contentsOf: ",\"rows\":[".utf8)
        }

        /// Starts a purchase's row: `array` is its columns as SQLite's `json_array` wrote them.
        package mutating func beginRow(gid: UnsafeBufferPointer<UInt8>, hlc: Int64, array: UnsafeBufferPointer<UInt8>) {
            if rows > 0 { out.append(UInt8(ascii: ",")) }
            rows += 1
            out.append(UInt8(ascii: "["))
            JSONValue.writeString(bytes: gid, to: &out)
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: String(hlc).utf8)
            // The array's own brackets are dropped: its values continue this row.
            if array.count > 2 {
                out.append(UInt8(ascii: ","))
                out.append(contentsOf: UnsafeBufferPointer(rebasing: array[1..<(array.count - 1)]))
            }
        }

        /// The row's next value: a text, or null.
        package mutating func append(text: UnsafeBufferPointer<UInt8>?) {
            out.append(UInt8(ascii: ","))
            if let text { JSONValue.writeString(bytes: text, to: &out) } else { out.append(contentsOf: "null".utf8) }
        }

        package mutating func endRow() {
            out.append(UInt8(ascii: "]"))
        }

        /// The snapshot; throws when it holds other than the `count` rows its head says.
        package consuming func finish() throws -> String {
            guard rows == count else {
                throw TripError.badText(field: "snapshot", reason: "\(rows) purchases were read for a snapshot of \(count)")
            }
            out.append(contentsOf: "]}".utf8)
            return String(decoding: out, as: UTF8.self)
        }
    }
}
