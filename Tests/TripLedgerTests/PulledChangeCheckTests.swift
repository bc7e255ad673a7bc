import Foundation
import Testing

@testable import Storage
@testable import TripLedger

/// The rules a pulled change meets before it is applied (`PulledChangeCheck`), without a server:
/// a well-formed change of each kind passes, and each broken field is refused, naming it.
@Suite("PulledChangeCheck: a device trusts nothing it pulls")
struct PulledChangeCheckTests {
    static let trip = "0190a000-0000-7000-8000-00000000aaaa"
    static let now: Int64 = 1_790_000_000_000
    static let check = PulledChangeCheck(tripGID: trip, now: now)
    static let purchase =
        #"{"date":"2026-03-02","note":"lunch","category":null,"paid_with":null,"currency":"EUR","expression":"30","price_minor":3000,"#
        + #""discount_spec":null,"discount_minor":0,"service_spec":null,"service_minor":0,"tax_spec":null,"tax_included":0,"tax_minor":0,"#
        + #""tip_spec":null,"tip_minor":0,"total_minor":3000,"rounding":"half-up","preset":null,"purchase_rate":null,"charged_minor":null,"#
        + #""home_currency":"EUR","home_minor":3000,"home_discount_minor":0,"home_service_minor":0,"home_tax_minor":0,"home_tip_minor":0,"#
        + #""rate":"1","rate_date":"2026-03-02","rate_source":"identity","rate_provider":null,"rate_fetched_at":null,"provisional":0,"#
        + #""created_at":"2026-03-02T10:00:00Z","updated_at":"2026-03-02T10:00:00Z","explicit_fields":null,"kind":"purchase","#
        + #""refund_of":null,"payers":"@ana=3000","shares":"@ana=1,@ben=1"}"#

    static func change(
        kind: String = "purchase", gid: String = "0190a000-0000-7000-8000-000000000001", op: String = "put",
        hlc: Int64 = now << 16, payload: String? = purchase
    ) -> SyncChange {
        var c = SyncChange(changeID: "c", kind: kind, gid: gid, op: op, hlc: hlc, baseHLC: 0, device: "d", payload: payload, seq: 1, author: "ana")
        c.committedAt = now
        return c
    }

    static func patched(_ key: String, _ json: String) -> String {
        let start = purchase.range(of: "\"\(key)\":")!
        let rest = purchase[start.upperBound...]
        let end = rest.firstIndex(where: { $0 == "," || $0 == "}" })!
        return String(purchase[..<start.upperBound]) + json + String(purchase[end...])
    }

    @Test func wellFormedChangesPass() throws {
        try Self.check.check(Self.change())
        try Self.check.check(Self.change(kind: "member", gid: "member:\(Self.trip):ana", payload: #"{"name":"Ana","joined_at":"x"}"#))
        try Self.check.check(Self.change(kind: "purchase", op: "delete", payload: nil))
        try Self.check.check(Self.change(kind: "held", gid: "held:\(Self.trip):d", payload: #"{"count":0}"#))
        try Self.check.check(Self.change(hlc: (Self.now + 3_600_000) << 16))  // an hour ahead: a clock a little fast
    }

    @Test(arguments: [
        ("kind", PulledChangeCheckTests.change(kind: "gremlin", gid: "gremlin:1")),
        ("op", PulledChangeCheckTests.change(op: "upsert")),
        ("hlc", PulledChangeCheckTests.change(hlc: .max)),
        ("hlc", PulledChangeCheckTests.change(hlc: -1)),
        ("gid", PulledChangeCheckTests.change(kind: "trip", gid: "0190a000-0000-7000-8000-00000000bbbb")),
        ("gid", PulledChangeCheckTests.change(kind: "member", gid: "member:0190a000-0000-7000-8000-00000000bbbb:zoe")),
        ("gid", PulledChangeCheckTests.change(gid: "member:\(PulledChangeCheckTests.trip):ana")),
        ("payload", PulledChangeCheckTests.change(payload: "{not json")),
        ("payload", PulledChangeCheckTests.change(payload: nil)),
        ("purchase.currency", PulledChangeCheckTests.change(payload: "{}")),  // the first field missing
        ("purchase.price_minor", PulledChangeCheckTests.change(payload: PulledChangeCheckTests.patched("price_minor", "-500"))),
        ("purchase.price_minor", PulledChangeCheckTests.change(payload: PulledChangeCheckTests.patched("price_minor", #""abc""#))),
        ("purchase.currency", PulledChangeCheckTests.change(payload: PulledChangeCheckTests.patched("currency", #""XXX""#))),
        ("purchase.date", PulledChangeCheckTests.change(payload: PulledChangeCheckTests.patched("date", #""garbage""#))),
        (
            "purchase.note",
            PulledChangeCheckTests.change(payload: PulledChangeCheckTests.patched("note", "\"" + String(repeating: "x", count: 4097) + "\""))
        ),
        ("purchase.rate", PulledChangeCheckTests.change(payload: PulledChangeCheckTests.patched("rate", #""NaN""#))),
        ("purchase.payers", PulledChangeCheckTests.change(payload: PulledChangeCheckTests.patched("payers", #""@ben=abc""#))),
        (
            "purchase.payers",
            PulledChangeCheckTests.change(payload: PulledChangeCheckTests.patched("payers", #""member:0190a000-0000-7000-8000-00000000bbbb:bob=1""#))
        ),
        ("purchase.refund_of", PulledChangeCheckTests.change(payload: PulledChangeCheckTests.patched("refund_of", #""member:x:y""#))),
        (
            "payload",
            PulledChangeCheckTests.change(payload: PulledChangeCheckTests.patched("note", "\"" + String(repeating: "x", count: 300_000) + "\""))
        ),
    ])
    func eachBrokenFieldIsRefusedByName(field: String, change: SyncChange) {
        do {
            try Self.check.check(change)
            Issue.record("\(field): accepted")
        } catch {
            let said = "\(error)"
            #expect(said.hasPrefix(field + ":"), "\(said)")
            #expect(!said.contains("\n"))
        }
    }
}
