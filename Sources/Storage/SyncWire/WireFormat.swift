import TripCore
import TripModel

/// The wire format of shared trips, declared once: for each kind of change, the fields its payload
/// carries, the local column each is stored in, its type and its limits.
///
/// Everything that builds, writes or checks a payload reads this declaration: `RowCodec` reads and
/// writes a row's declared columns only (a column a migration adds does not travel until it is
/// declared here), and `PulledChangeCheck` checks each pulled field against its declared type. A
/// field this release does not declare, in a payload of a later minor version, is kept as it came
/// (`RowCodec.keepUnknownFields`) and sent back with the row, never written to a local column.
///
/// The limits are the ones `trip add`, `trip new` and `trip member add` apply (`TextField`,
/// `CurrencyTable`, `PurchaseBound`, `CivilDate`, `RateQuote`): called, never copied.
package enum WireFormat {
    /// The version every change this release pushes carries (as `versionKey`, the payload's first
    /// member). A payload without one is 1.0, what every release before the declaration wrote.
    /// A later release that only adds fields raises `minor`; one whose payloads this release would
    /// misread raises `major`, and this release sets its changes aside (`PulledChangeCheck`).
    package static let version = WireVersion(major: 1, minor: 0)
    /// The member of a payload that holds its version; never a field of a row.
    package static let versionKey = "v"
    /// The most bytes of fields this release does not declare that one row keeps.
    static let unknownFieldsMaxBytes = 64 * 1024

    /// Every kind's payload, by kind.
    static let payloads: [String: WirePayload] = Dictionary(
        uniqueKeysWithValues: [trip, member, purchase, transfer, snapshot, rate, provider, manualRate, resolution, held].map { ($0.kind, $0) })

    /// `payload` with this release's version as its first member. Not a snapshot's: a release
    /// before the declaration reads a snapshot's head in a fixed order (a snapshot without a
    /// version is 1.0), nor a `held` note, which the server reads.
    static func stamped(_ payload: String, kind: String) -> String {
        guard kind != PurchaseSnapshot.kind, kind != SyncChange.heldKind, payload.hasPrefix("{"),
            !payload.hasPrefix("{\"\(versionKey)\":")
        else { return payload }
        let rest = payload.dropFirst().drop { $0 == " " }
        return "{\"\(versionKey)\":\"\(version)\"" + (rest.hasPrefix("}") ? "" : ",") + rest
    }

    /// A pulled payload without its version, and the version (`nil`: it named none, or not as
    /// its first member; `checkVersion` then looks for it among the fields).
    static func unstamped(_ payload: String) -> (payload: String, version: WireVersion?) {
        let head = "{\"\(versionKey)\":\""
        guard payload.hasPrefix(head) else { return (payload, nil) }
        let afterHead = payload.utf8.index(payload.utf8.startIndex, offsetBy: head.utf8.count)
        guard let close = payload.utf8[afterHead...].firstIndex(of: UInt8(ascii: "\"")),
            let version = WireVersion(String(payload[afterHead..<close]))
        else { return (payload, nil) }
        var rest = payload[payload.utf8.index(after: close)...].drop { $0 == " " }
        if rest.hasPrefix(",") { rest = rest.dropFirst() } else if !rest.hasPrefix("}") { return (payload, nil) }
        return ("{" + rest, version)
    }

    /// Throws when `version` (or, when the change named none first, the payload's `versionKey`
    /// field) is of a later major version than this release reads.
    static func checkVersion(_ version: WireVersion?, fields: [(String, SQLValue)]?) throws(TripError) {
        var found = version
        if found == nil, let value = fields?.first(where: { $0.0 == versionKey })?.1 {
            guard case .text(let text) = value, let v = WireVersion(text) else {
                let shown = if case .integer(let n) = value { String(n) } else { "null" }
                throw .badTextValue(field: versionKey, value: shown, reason: "is not a wire format version (MAJOR.MINOR)")
            }
            found = v
        }
        guard let found, found.major > Self.version.major else { return }
        throw .badText(field: "change", reason: "written by a newer release (wire format \(found)): upgrade trip")
    }

    /// The members of `payload` (a flat JSON object) that `kind` does not declare, as one JSON
    /// object, or `nil` when there are none.
    static func unknownFields(kind: String, _ fields: [(String, SQLValue)]) -> String? {
        guard let declared = payloads[kind] else { return nil }
        let unknown = fields.filter { $0.0 != versionKey && declared.field($0.0) == nil }
        return unknown.isEmpty ? nil : object(unknown)
    }

    /// `fields` as one flat JSON object, in their order.
    package static func object(_ fields: [(String, SQLValue)]) -> String {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (i, (name, value)) in fields.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            PurchaseSnapshot.write(value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// `payload` (a JSON object) with the members of `unknown` (another, `unknownFields`) after its
    /// own: a row edited here carries on what a later release wrote into it.
    package static func appending(unknown: String?, to payload: String) -> String {
        guard let unknown, unknown.count > 2, payload.hasSuffix("}") else { return payload }
        let head = payload.dropLast()
        return head + (head.count > 1 ? "," : "") + unknown.dropFirst()
    }
}

/// The version of the wire format: `MAJOR.MINOR`.
public struct WireVersion: Comparable, Sendable, CustomStringConvertible {
    public let major: Int
    public let minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `MAJOR.MINOR`, each up to six digits; `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ (1...6).contains($0.utf8.count) && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            let major = Int(parts[0]), let minor = Int(parts[1])
        else { return nil }
        self.init(major: major, minor: minor)
    }

    public var description: String { "\(major).\(minor)" }

    public static func < (a: WireVersion, b: WireVersion) -> Bool {
        (a.major, a.minor) < (b.major, b.minor)
    }
}

/// One kind's payload: its fields, and for a row the columns of its local table.
package struct WirePayload {
    /// A column of the local table: a travelling field stored in it, or one that never travels.
    package enum Column {
        case field(WireField)
        /// Never travels; the text says why.
        case local(String, why: String)

        package var name: String {
            switch self {
            case .field(let f): f.name
            case .local(let name, _): name
            }
        }
    }

    package let kind: String
    /// The local table a row of this kind is stored in (`nil`: not a row).
    package let table: String?
    /// Every column of `table`, in the table's order (a row's payload keeps that order, the order
    /// every release before the declaration wrote).
    package let columns: [Column]
    /// The fields of a payload, in the order they travel: those of `columns`, then those stored
    /// elsewhere or travelling as a global id.
    package let fields: [WireField]
    /// The local columns a row is read with (travelling and local-only), in the table's order.
    package let columnNames: [String]
    /// The fields are read and checked by the kind's own receiver (a rate's, `PulledRate`).
    let checkedOnReceipt: Bool
    private let byName: [String: Int]

    package init(kind: String, table: String?, columns: [Column], after: [WireField], checkedOnReceipt: Bool = false) {
        self.kind = kind
        self.table = table
        self.columns = columns
        self.checkedOnReceipt = checkedOnReceipt
        fields =
            columns.compactMap {
                if case .field(let f) = $0 { return f }
                return nil
            } + after
        columnNames = columns.map(\.name)
        byName = Dictionary(fields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    package func field(_ name: String) -> WireField? {
        byName[name].map { fields[$0] }
    }

    /// The position of field `name`, looked at first where the field after the last one found
    /// would be: a payload lists its fields in the declared order, so a pull of thousands of rows
    /// compares names instead of hashing each one.
    @inline(__always)
    private func position(of name: String, expected: Int) -> Int? {
        if expected < fields.count && fields[expected].name == name { return expected }
        return byName[name]
    }

    /// Whether `payload` (its fields) holds a field this release does not declare.
    package func hasUndeclaredField(_ payload: [(String, SQLValue)]) -> Bool {
        var next = 0
        for (key, _) in payload where key != WireFormat.versionKey {
            guard let i = position(of: key, expected: next) else { return true }
            next = i + 1
        }
        return false
    }

    /// Each field of `fields` against its declaration (one this release does not declare: any
    /// number, or text up to a note's limit); the fields a row cannot be without must be there.
    package func check(_ fields: [(String, SQLValue)], trip: String) throws(TripError) {
        guard !checkedOnReceipt else { return }
        // Which declared fields came, by position (a pull checks thousands of payloads).
        var present = [Bool](repeating: false, count: self.fields.count)
        var unknownBytes = 0
        var next = 0
        for (key, value) in fields where key != WireFormat.versionKey {
            if let i = position(of: key, expected: next) {
                next = i + 1
                present[i] = true
                try self.fields[i].check(value, field: "\(kind).\(key)", trip: trip)
                continue
            }
            try WireField(key, .unknown, nullable: true).check(value, field: "\(kind).\(key)", trip: trip)
            unknownBytes += key.utf8.count + 8
            if case .text(let t) = value { unknownBytes += t.utf8.count } else { unknownBytes += 20 }
            guard unknownBytes <= WireFormat.unknownFieldsMaxBytes else {
                throw .badText(
                    field: "\(kind).\(key)",
                    reason: "takes the fields this release does not know past \(WireFormat.unknownFieldsMaxBytes) bytes")
            }
        }
        let missing = self.fields.indices.filter { self.fields[$0].required && !present[$0] }.map { self.fields[$0].name }
        if let first = missing.sorted().first { throw .badText(field: "\(kind).\(first)", reason: "is missing") }
    }
}

/// One field of a payload: its wire name, where it is stored, its type and limits.
package struct WireField {
    /// Where a field lives on a device.
    package enum Storage {
        /// The local column of its name, as it travels.
        case column
        /// A local column of the same name holding a local id; the wire holds the global id.
        case reference
        /// Not in the row's table: a purchase's payers and split (`purchase_splits`), a
        /// refunded purchase's global id; or a payload that is no row (a rate).
        case elsewhere
    }

    package let name: String
    package let type: WireType
    let nullable: Bool
    package let required: Bool
    package let storage: Storage

    package init(_ name: String, _ type: WireType, nullable: Bool = false, required: Bool = false, storage: Storage = .column) {
        self.name = name
        self.type = type
        self.nullable = nullable
        self.required = required
        self.storage = storage
    }

    package func check(_ value: SQLValue, field: @autoclosure () -> String, trip: String) throws(TripError) {
        let text: String
        switch value {
        case .null:
            guard nullable else { throw .badText(field: field(), reason: "is null") }
            return
        case .integer(let n):
            switch type {
            case .minor(let min):
                guard n >= min, PurchaseBound.contains(n) else {
                    throw .badAmount(field: field(), value: String(n), reason: "is out of bounds (\(min) to \(PurchaseBound.maxMinorUnits))")
                }
            case .flag:
                guard n == 0 || n == 1 else { throw .badAmount(field: field(), value: String(n), reason: "is not 0 or 1") }
            case .unknown, .integer:
                break
            default:
                throw .badTextValue(field: field(), value: String(n), reason: "is a number, not text")
            }
            return
        case .text(let t):
            text = t
        }
        func refuse(_ reason: String) -> TripError { .badTextValue(field: field(), value: text, reason: reason) }
        switch type {
        case .minor, .flag, .integer:
            throw refuse("is not a whole number")
        case .text(let max, let layout, let empty):
            _ = try TextField.check(text, field: field(), maxBytes: max, allowEmpty: empty, allowsLayout: layout)
        case .unknown:
            _ = try TextField.check(text, field: field(), maxBytes: TextField.noteMaxBytes, allowsLayout: true)
        case .currency:
            guard (try? CurrencyTable.shared.currency(for: text)) != nil, WireField.hasNoLowercase(text) else {
                throw refuse("is not an ISO 4217 currency that holds money")
            }
        case .date:
            guard CivilDate(iso: text) != nil else { throw refuse("is not a real date (YYYY-MM-DD)") }
        case .rate:
            _ = try RateQuote.checkedRate(text, field: field())
        case .choice(let allowed):
            guard allowed.contains(text) else { throw .badChoice(field: field(), value: text, allowed: allowed.sorted()) }
        case .purchase:
            guard PulledChangeCheck.isRowID(text) else { throw refuse("is not the id of a purchase") }
        case .member:
            guard WireField.isMember(Substring(text), trip: trip) else { throw refuse("is not a member of this trip") }
        case .members:
            _ = try TextField.check(text, field: field(), maxBytes: PulledChangeCheck.rowPayloadMaxBytes)
            for item in text.split(separator: ",") {
                guard let eq = item.lastIndex(of: "="), WireField.isMember(item[..<eq], trip: trip),
                    WireField.isWeight(item[item.index(after: eq)...])
                else { throw .badTextValue(field: field(), value: String(item), reason: "is not MEMBER=WEIGHT of a member of this trip") }
            }
        }
    }

    /// `text == text.uppercased()`, without building the uppercased copy for ASCII text.
    static func hasNoLowercase(_ text: String) -> Bool {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text == text.uppercased() }
        return !text.utf8.contains { (0x61...0x7A).contains($0) }
    }

    /// `@NAME` (a member of this trip by the name their id is made of) or `member:TRIP:…`.
    static func isMember(_ reference: Substring, trip: String) -> Bool {
        if reference.first == "@" {
            let name = reference.dropFirst()
            return !name.isEmpty && (try? TextField.check(String(name), field: "member", maxBytes: TextField.memberMaxBytes * 2)) != nil
        }
        return GlobalID.memberName(String(reference), trip: trip).map { !$0.isEmpty } ?? false
    }

    /// `N` or `N/D`: whole numbers that fit 64 bits, never negative, `D` above zero.
    static func isWeight(_ text: Substring) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            let numerator = Int64(parts[0]), numerator >= 0
        else { return false }
        return parts.count == 1 || (Int64(parts[1]) ?? 0) > 0
    }
}

/// What one field may hold.
package enum WireType {
    /// Free text under `TextField`'s rules; `layout`: tabs and line breaks (a note).
    case text(max: Int, layout: Bool = false, empty: Bool = true)
    /// A field this release does not declare (a later one's, kept as it came): any number, or
    /// text up to a note's limit.
    case unknown
    /// An ISO 4217 code of a currency that holds money (`CurrencyTable`).
    case currency
    /// A real day, `YYYY-MM-DD` (`CivilDate`).
    case date
    /// A rate as `RateQuote.checkedRate` reads it.
    case rate
    /// An amount in integer minor units within `PurchaseBound`, at least `min`.
    case minor(min: Int64)
    /// Any whole number (a clock).
    case integer
    /// 0 or 1.
    case flag
    case choice(Set<String>)
    /// A purchase's global id.
    case purchase
    /// A member of this trip: `@NAME` or the member's whole global id.
    case member
    /// `MEMBER=WEIGHT,…` (payers or a split), each a member of this trip, each weight an integer or a fraction.
    case members
}

// MARK: the declarations

extension WireFormat {
    static let timestamp = WireType.text(max: 64)
    static let label = WireType.text(max: TextField.labelMaxBytes)
    static let note = WireType.text(max: TextField.noteMaxBytes, layout: true)
    static let spec = WireType.text(max: TextField.noteMaxBytes)
    static let signed = WireType.minor(min: -PurchaseBound.maxMinorUnits)

    /// A trip, as `trip new` writes it.
    static let trip = WirePayload(
        kind: "trip", table: "trips",
        columns: [
            .local("id", why: "the local id"),
            .field(WireField("name", .text(max: TextField.tripNameMaxBytes, empty: false), required: true)),
            .field(WireField("local_currency", .currency, nullable: true)),
            .field(WireField("home_currency", .currency, required: true)),
            .field(WireField("start_date", .date, nullable: true)), .field(WireField("end_date", .date, nullable: true)),
            .field(WireField("preset", label, nullable: true)), .field(WireField("budget_minor", .minor(min: 0), nullable: true)),
            .field(WireField("created_at", timestamp)), .field(WireField("closed_at", timestamp, nullable: true)),
        ], after: [])

    /// A member, as `trip member add` writes them; their global id is made of the trip's and the
    /// name they were added under.
    static let member = WirePayload(
        kind: "member", table: "members",
        columns: [
            .local("id", why: "the local id"), .local("trip_id", why: "the local trip; a member travels inside their trip's changes"),
            .field(WireField("name", .text(max: TextField.memberMaxBytes, empty: false), required: true)),
            .field(WireField("joined_at", timestamp)),
        ], after: [])

    /// A purchase, as `trip add` writes it, with its refunded purchase, payers and split by
    /// global id after its columns. The columns, and which of them travel, are `PurchaseColumns`'
    /// declaration.
    package static let purchase = WirePayload(
        kind: "purchase", table: "purchases", columns: PurchaseColumns.all.map(\.wire),
        after: [
            WireField("refund_of", .purchase, nullable: true, storage: .elsewhere),
            WireField("payers", .members, nullable: true, storage: .elsewhere),
            WireField("shares", .members, nullable: true, storage: .elsewhere),
        ])

    /// A transfer, as `trip transfer` and `trip settle` write it, its members by reference.
    static let transfer = WirePayload(
        kind: "transfer", table: "transfers",
        columns: [
            .local("id", why: "the local id"), .local("trip_id", why: "the local trip; a transfer travels inside its trip's changes"),
            .field(WireField("from_member", .member, required: true, storage: .reference)),
            .field(WireField("to_member", .member, required: true, storage: .reference)),
            .field(WireField("date", .date, required: true)), .field(WireField("currency", .currency, required: true)),
            .field(WireField("amount_minor", .minor(min: 1), required: true)),
            .field(WireField("home_currency", .currency, required: true)), .field(WireField("home_minor", signed, nullable: true)),
            .field(WireField("rate", .rate, nullable: true)), .field(WireField("rate_date", .date, nullable: true)),
            .field(WireField("rate_source", .text(max: 32))), .field(WireField("rate_provider", label, nullable: true)),
            .field(WireField("provisional", .flag)), .field(WireField("note", note)), .field(WireField("created_at", timestamp)),
        ], after: [])

    /// A first share's purchases in one change (`PurchaseSnapshot`): each row a purchase's global
    /// id and clock, then the fields of `purchase`.
    static let snapshot = WirePayload(kind: PurchaseSnapshot.kind, table: "purchases", columns: [], after: purchase.fields)

    /// A provider's rate fetched on one device (`RateStore.forEachUnsentObservation`).
    static let rate = WirePayload(
        kind: "rate", table: nil, columns: [],
        after: [
            WireField("provider", label, storage: .elsewhere), WireField("base", .currency, storage: .elsewhere),
            WireField("quote", .currency, storage: .elsewhere), WireField("date", .date, storage: .elsewhere),
            WireField("rate", .rate, storage: .elsewhere), WireField("fetched_at", timestamp, storage: .elsewhere),
        ], checkedOnReceipt: true)

    /// A provider's newest published date (`RateStore.forEachPublishedState`).
    static let provider = WirePayload(
        kind: "provider", table: nil, columns: [],
        after: [
            WireField("provider", label, storage: .elsewhere), WireField("url", spec, storage: .elsewhere),
            WireField("base", .currency, storage: .elsewhere), WireField("latest_date", .date, storage: .elsewhere),
        ], checkedOnReceipt: true)

    /// A rate set by hand (`trip rates set`), with the version it has among the trip's.
    static let manualRate = WirePayload(
        kind: "manual_rate", table: nil, columns: [],
        after: [
            WireField("base", .currency, storage: .elsewhere), WireField("quote", .currency, storage: .elsewhere),
            WireField("date", .date, storage: .elsewhere), WireField("rate", .rate, storage: .elsewhere),
            WireField("created_at", timestamp, storage: .elsewhere), WireField("hlc", .integer, storage: .elsewhere),
            WireField("device", label, storage: .elsewhere),
        ], checkedOnReceipt: true)

    /// `trip resolve` (`ConflictResolution`).
    static let resolution = WirePayload(
        kind: ConflictResolution.kind, table: nil, columns: [],
        after: [
            WireField("conflict", spec, required: true, storage: .elsewhere),
            WireField("kept_hlc", .integer, required: true, storage: .elsewhere),
            WireField("kept_device", label, required: true, storage: .elsewhere),
        ])

    /// A device's note of how many of its changes wait for a reopen; the server reads it, no
    /// device applies it.
    static let held = WirePayload(
        kind: SyncChange.heldKind, table: nil, columns: [], after: [WireField("count", .minor(min: 0), storage: .elsewhere)])
}
