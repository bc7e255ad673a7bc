import Storage
import Synchronization
import TripCore
import TripLedger
import TripModel

/// Members as travelling rows name them: a purchase's payers and split (`MEMBER=WEIGHT,…`) and a
/// transfer's ends carry each member's reference (`GlobalID.memberReference`), and each device
/// turns it back into its own member id.
extension Ledger {
    /// A `MEMBER=WEIGHT,…` list (payers or shares) with each member's local id turned into the
    /// reference that travels (`toGlobal`), or back.
    func memberList(_ text: String, toGlobal: Bool, shared: SharedTrip) throws -> String {
        guard !text.isEmpty else { return text }
        var text = text
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 2)
        try text.withUTF8 { try appendMemberList($0, toGlobal: toGlobal, shared: shared, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `memberList` of UTF-8 bytes, appended to `out`: a first share and a join translate two
    /// lists for each of tens of thousands of purchases, each member looked up once.
    func appendMemberList(_ list: UnsafeBufferPointer<UInt8>, toGlobal: Bool, shared: SharedTrip, to out: inout [UInt8]) throws {
        try MemberIDMemo.shared.translate(list, toGlobal: toGlobal, to: &out) { who in
            if toGlobal {
                return GlobalID.memberReference(try globalID(kind: "member", localID: Int64(who) ?? 0, shared: shared), trip: shared.gid)
            }
            return String(try localMember(who, shared: shared))
        }
    }

}

/// Member ids already translated by the current `prepareOutgoing`, `applyIncoming` or
/// conflict step, which works on one trip (cleared at the start of each). A trip has a few
/// members and every purchase names them: each is looked up once, and found again by comparing
/// bytes, with no `String` or hashing per list.
final class MemberIDMemo: Sendable {
    static let shared = MemberIDMemo()
    private typealias Known = [(from: [UInt8], to: [UInt8])]
    /// Members' ids, towards their travelling references and back.
    private let known = Mutex<(toGlobal: Known, toLocal: Known)>(([], []))

    /// Appends `list` (`MEMBER=WEIGHT,…`) to `out` with each member translated; `lookup` gives a
    /// member not met yet.
    func translate(
        _ list: UnsafeBufferPointer<UInt8>, toGlobal: Bool, to out: inout [UInt8], lookup: (String) throws -> String
    ) throws {
        try known.withLock { memo in
            var start = 0
            var first = true
            while start < list.count {
                var end = start
                while end < list.count, list[end] != UInt8(ascii: ",") { end += 1 }
                defer { start = end + 1 }
                guard end > start else { continue }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                let item = UnsafeBufferPointer(rebasing: list[start..<end])
                guard let eq = item.lastIndex(of: UInt8(ascii: "=")) else {
                    out.append(contentsOf: item)
                    continue
                }
                let who = UnsafeBufferPointer(rebasing: item[..<eq])
                let table = toGlobal ? memo.toGlobal : memo.toLocal
                if let found = table.first(where: { $0.from.elementsEqual(who) }) {
                    out.append(contentsOf: found.to)
                } else {
                    let other = Array(try lookup(String(decoding: who, as: UTF8.self)).utf8)
                    if toGlobal { memo.toGlobal.append((Array(who), other)) } else { memo.toLocal.append((Array(who), other)) }
                    out.append(contentsOf: other)
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: item[eq...]))
            }
        }
    }

    func clear() {
        known.withLock { $0 = ([], []) }
    }
}
