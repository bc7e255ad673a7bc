import Foundation
import TestSupport
import Testing
import TripCore
import TripModel

@testable import Storage
@testable import SyncRules
@testable import TripLedger

/// The wire format's one declaration (`WireFormat`): every column of a travelling table is declared
/// (travelling or local-only, in the table's order), a payload is built and written from it, a
/// field this release does not declare is kept and never applied, and the version decides what a
/// device reads (issue 35 item 3, issue 36).
@Suite("Wire format: declared once, versioned")
struct WireFormatTests {
    static let trip = "0190a000-0000-7000-8000-00000000aaaa"

    /// What differs between each travelling table and its declaration: a column the table has and
    /// the declaration does not name (it would neither travel nor be named local-only), one the
    /// declaration names and the table lacks, or another order (a payload keeps the table's order,
    /// the order every release before the declaration wrote).
    static func undeclared(_ db: Database) throws -> [String] {
        var problems: [String] = []
        for table in RowCodec.Table.allCases {
            var names: [String] = []
            try db.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid").forEach([.text(table.rawValue)]) { names.append($0.text(0)) }
            let declared = RowCodec.declaration(table).columnNames
            if names != declared { problems.append("\(table.rawValue): the table has \(names), the wire format declares \(declared)") }
        }
        return problems
    }

    /// A purchase text field travels as a label, or as one of its choices when it has them: a pulled
    /// change holding another word (or another case of one: a device stores the declared spelling)
    /// is refused naming the field, as any other ill-formed field is.
    @Test func aTextFieldWithChoicesTakesOnlyThemFromAPull() throws {
        let status = PurchaseTextField("claim_status", choices: ["draft", "paid"])
        let choice = WireField(status.key, PurchaseColumn.wireType(of: status), nullable: true)
        try choice.check(.text("paid"), field: "purchase.claim_status", trip: Self.trip)
        try choice.check(.null, field: "purchase.claim_status", trip: Self.trip)
        for word in ["Paid", "sent", ""] {
            #expect(throws: TripError.badChoice(field: "purchase.claim_status", value: word, allowed: ["draft", "paid"])) {
                try choice.check(.text(word), field: "purchase.claim_status", trip: Self.trip)
            }
        }
        let receipt = WireField("receipt", PurchaseColumn.wireType(of: PurchaseTextField("receipt")), nullable: true)
        try receipt.check(.text("Paid"), field: "purchase.receipt", trip: Self.trip)
        #expect(throws: TripError.self) {
            try receipt.check(.text(String(repeating: "x", count: TextField.labelMaxBytes + 1)), field: "purchase.receipt", trip: Self.trip)
        }
    }

    /// Each declared text field travels under its own rule: the purchase payload's field of its name
    /// takes its choices as declared and refuses any other word. This release declares none; the
    /// suite runs again on the tree with `receipt.patch` applied (`AddAFieldTests`), whose
    /// `claim_status` has choices and whose `receipt` has none.
    @Test func declaredTextFieldsTravelUnderTheirRule() throws {
        for field in PurchaseTextFields.all {
            let wire = try #require(WireFormat.purchase.fields.first { $0.name == field.key }, "\(field.key) does not travel")
            let name = "purchase.\(field.key)"
            for choice in field.choices { try wire.check(.text(choice), field: name, trip: Self.trip) }
            if field.choices.isEmpty {
                try wire.check(.text("not a choice"), field: name, trip: Self.trip)
            } else {
                #expect(throws: TripError.self, "\(name) took a word not among its choices") {
                    try wire.check(.text("not a choice"), field: name, trip: Self.trip)
                }
            }
        }
    }

    @Test func everyColumnOfATravellingTableIsDeclaredInItsOrder() throws {
        let t = try TestLedger()
        #expect(try Self.undeclared(t.ledger.database.db) == [])
    }

    /// The checker sees a column a migration adds, and until it is declared the column neither
    /// travels nor is written from a payload.
    @Test func aColumnAddedLocallyIsFlaggedAndDoesNotTravel() throws {
        let t = try TestLedger()
        _ = try t.ledger.createTrip(NewTrip(name: "Japan", localCurrency: "EUR", homeCurrency: "EUR"))
        let p = try t.ledger.addPurchase(PurchaseDraft(amount: "30", note: "lunch"))
        // A name no declared field will take (`receipt` is the README's worked example).
        try t.ledger.database.db.execute("ALTER TABLE purchases ADD COLUMN scratch_scan TEXT; UPDATE purchases SET scratch_scan = 'scan-1'")
        #expect(try Self.undeclared(t.ledger.database.db).count == 1)
        let codec = t.ledger.syncStore.codec
        let payload = try #require(try codec.read(.purchases, id: p.id, without: Ledger.purchaseLocalColumns))
        #expect(!payload.contains("scratch_scan"), "\(payload)")
        // The trash keeps the whole row, the new column included.
        #expect(try codec.read(.purchases, id: p.id, stored: true)?.contains("scan-1") == true)
        let incoming = WireFormat.appending(unknown: #"{"scratch_scan":"forged"}"#, to: payload)
        try codec.write(.purchases, id: p.id, payload: incoming, fixed: [("trip_id", .integer(p.tripID))])
        #expect(try t.ledger.database.db.scalarText("SELECT scratch_scan FROM purchases WHERE id = ?", [.integer(p.id)]) == "scan-1")
    }

    /// A purchase's payload names exactly its declared travelling columns, in order, passes the
    /// declaration's check, and written to another row reads back byte for byte.
    @Test func aPayloadRoundTrips() throws {
        let t = try TestLedger()
        let trip = try t.ledger.createTrip(NewTrip(name: "Japan", localCurrency: "JPY", homeCurrency: "EUR"))
        _ = try t.ledger.setManualRate(currency: "JPY", rate: "0.0062", in: nil, date: "2026-03-01")
        let p = try t.ledger.addPurchase(
            PurchaseDraft(amount: "3*1200", note: "ramen\twith a tab", category: "food", discount: "10%", tip: "5%"))
        let codec = t.ledger.syncStore.codec
        let payload = try #require(try codec.read(.purchases, id: p.id, without: Ledger.purchaseLocalColumns))
        let fields = try #require(FlatJSON.fields(payload))
        #expect(fields.map(\.0) == RowCodec.writtenColumns(.purchases))
        try WireFormat.purchase.check(fields, trip: Self.trip)
        try codec.write(.purchases, id: p.id + 100, payload: payload, fixed: [("trip_id", .integer(trip.id))])
        #expect(try codec.read(.purchases, id: p.id + 100, without: Ledger.purchaseLocalColumns) == payload)
        #expect(try codec.keptUnknownFields(.purchases, id: p.id + 100) == nil)
    }

    /// A field this release does not declare is kept beside the row as it came, never written to a
    /// column; a version without it clears it (a version wins whole).
    @Test func anUnknownFieldIsKeptNotApplied() throws {
        let t = try TestLedger()
        let trip = try t.ledger.createTrip(NewTrip(name: "Japan", localCurrency: "EUR", homeCurrency: "EUR"))
        let row = try #require(try t.ledger.syncStore.codec.read(.trips, id: trip.id))
        let codec = t.ledger.syncStore.codec
        let newer = WireFormat.appending(unknown: #"{"claim_id":"C-9","claim_minor":1200,"name":"Nope"}"#, to: row)
        #expect(newer.contains(#""claim_id":"C-9""#))
        try codec.write(.trips, id: trip.id, payload: newer.replacingOccurrences(of: #","name":"Nope""#, with: ""), fixed: [])
        #expect(try codec.keptUnknownFields(.trips, id: trip.id) == #"{"claim_id":"C-9","claim_minor":1200}"#)
        #expect(try t.ledger.trip(id: trip.id)?.name == "Japan")
        try codec.write(.trips, id: trip.id, payload: row, fixed: [])
        #expect(try codec.keptUnknownFields(.trips, id: trip.id) == nil)
    }

    /// Inside one transaction the ledger learns once that no row keeps unknown fields (a pull of
    /// many rows then runs no DELETE per row). What the same transaction keeps afterwards, and what
    /// a rollback to a savepoint brings back, is still cleared by a version without it.
    @Test func aVersionWithoutUnknownFieldsClearsThemInsideOneTransaction() throws {
        struct RolledBack: Error {}
        let t = try TestLedger()
        let japan = try t.ledger.createTrip(NewTrip(name: "Japan", localCurrency: "EUR", homeCurrency: "EUR"))
        let korea = try t.ledger.createTrip(NewTrip(name: "Korea", localCurrency: "KRW", homeCurrency: "EUR"))
        let codec = t.ledger.syncStore.codec, db = t.ledger.database.db
        let japanRow = try #require(try codec.read(.trips, id: japan.id))
        let koreaRow = try #require(try codec.read(.trips, id: korea.id))
        let newer = WireFormat.appending(unknown: #"{"claim_id":"C-9"}"#, to: koreaRow)
        try db.transaction {
            try codec.write(.trips, id: japan.id, payload: japanRow, fixed: [])
            try codec.write(.trips, id: korea.id, payload: newer, fixed: [])
            #expect(try codec.keptUnknownFields(.trips, id: korea.id) == #"{"claim_id":"C-9"}"#)
            try codec.write(.trips, id: korea.id, payload: koreaRow, fixed: [])
        }
        #expect(try codec.keptUnknownFields(.trips, id: korea.id) == nil)

        try codec.write(.trips, id: korea.id, payload: newer, fixed: [])
        try db.transaction {
            #expect(throws: RolledBack.self) {
                try db.transaction {
                    try codec.write(.trips, id: korea.id, payload: koreaRow, fixed: [])
                    try codec.write(.trips, id: japan.id, payload: japanRow, fixed: [])
                    throw RolledBack()
                }
            }
            #expect(try codec.keptUnknownFields(.trips, id: korea.id) == #"{"claim_id":"C-9"}"#)
            try codec.write(.trips, id: korea.id, payload: koreaRow, fixed: [])
        }
        #expect(try codec.keptUnknownFields(.trips, id: korea.id) == nil)
    }

    /// Unknown fields are checked as any text or number, and all of a row's stay under a limit.
    @Test func unknownFieldsStayWithinALimit() throws {
        var fields = try #require(FlatJSON.fields(PulledChangeCheckTests.purchase))
        fields.append(("receipt_id", .text("R-1")))
        try WireFormat.purchase.check(fields, trip: PulledChangeCheckTests.trip)
        for i in 0..<20 { fields.append(("extra_\(i)", .text(String(repeating: "x", count: 4000)))) }
        #expect(throws: TripError.self) { try WireFormat.purchase.check(fields, trip: PulledChangeCheckTests.trip) }
    }

    @Test func everyKindOfChangeIsDeclared() {
        #expect(Set(WireFormat.payloads.keys) == PulledChangeCheck.kinds)
        for (kind, payload) in WireFormat.payloads {
            #expect(payload.kind == kind)
            #expect(Set(payload.fields.map(\.name)).count == payload.fields.count, "\(kind) declares a field twice")
            #expect(payload.field(WireFormat.versionKey) == nil, "\(kind) declares the version's key as a field")
        }
    }

    // MARK: versions

    @Test(arguments: [
        ("1.0", WireVersion(major: 1, minor: 0)), ("2.13", WireVersion(major: 2, minor: 13)), ("1", nil), ("1.x", nil), ("-1.0", nil),
        ("1.0.0", nil), ("", nil), ("1234567.0", nil),
    ])
    func versionsRead(_ text: String, _ expected: WireVersion?) {
        #expect(WireVersion(text) == expected)
    }

    @Test func aPayloadIsStampedAndUnstamped() {
        let row = #"{"name":"Ana","joined_at":"x"}"#
        let stamped = WireFormat.stamped(row, kind: "member")
        #expect(stamped == #"{"v":"1.0","name":"Ana","joined_at":"x"}"#)
        #expect(WireFormat.stamped(stamped, kind: "member") == stamped)
        #expect(WireFormat.unstamped(stamped) == (row, WireFormat.version))
        #expect(WireFormat.stamped("{}", kind: "trip") == #"{"v":"1.0"}"#)
        #expect(WireFormat.unstamped(#"{"v":"1.0"}"#) == ("{}", WireFormat.version))
        // What releases before the declaration wrote: no version, read as it is.
        #expect(WireFormat.unstamped(row) == (row, nil))
        // A snapshot's head keeps its fixed order for releases before the declaration.
        let snapshot = #"{"count":0,"columns":["gid","hlc"],"rows":[]}"#
        #expect(WireFormat.stamped(snapshot, kind: PurchaseSnapshot.kind) == snapshot)
        #expect(PurchaseSnapshot(WireFormat.unstamped(#"{"v":"1.4","count":0,"columns":["gid","hlc"],"rows":[]}"#).payload) != nil)
    }

    /// A change of a later major version is refused whole (set aside, "upgrade trip"), wherever
    /// its payload names the version; a later minor one passes with its added fields.
    @Test func aNewerMajorVersionIsRefusedANewerMinorPasses() throws {
        let check = PulledChangeCheckTests.check
        var major = PulledChangeCheckTests.change()
        major.wireVersion = WireVersion(major: 2, minor: 0)
        #expect(throws: TripError.badText(field: "change", reason: "written by a newer release (wire format 2.0): upgrade trip")) {
            try check.check(major)
        }
        // Not as the first member, and with fields that would not pass as 1.x: the version decides.
        let inside = PulledChangeCheckTests.change(payload: #"{"amount":5,"v":"3.1"}"#)
        #expect(throws: TripError.badText(field: "change", reason: "written by a newer release (wire format 3.1): upgrade trip")) {
            try check.check(inside)
        }
        var minor = PulledChangeCheckTests.change(
            payload: PulledChangeCheckTests.purchase.replacingOccurrences(of: #""shares""#, with: #""receipt_id":"R-1","shares""#))
        minor.wireVersion = WireVersion(major: 1, minor: 7)
        try check.check(minor)
        let bad = PulledChangeCheckTests.change(
            payload: PulledChangeCheckTests.purchase.replacingOccurrences(of: "{\"date\"", with: "{\"v\":7,\"date\""))
        #expect(throws: TripError.badTextValue(field: "v", value: "7", reason: "is not a wire format version (MAJOR.MINOR)")) {
            try check.check(bad)
        }
    }
}
