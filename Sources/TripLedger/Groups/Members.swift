import Storage
import TripCore
import TripModel

/// A trip's members: who they are, and the rules for adding, renaming and removing one.
extension Ledger {
    /// A trip's members in join order.
    public func members(of trip: Trip) throws -> [Member] { try members(ofTripID: trip.id) }

    package func members(ofTripID id: Int64) throws -> [Member] {
        try memberStore.members(trip: id)
    }

    /// `trip members [--trip T]`.
    public func members(trip name: String?) throws -> (trip: Trip, members: [Member]) {
        let trip = try resolveTrip(name)
        return (trip, try members(of: trip))
    }

    /// `trip member add NAME… [--trip T]`: in the order given. A name already in the trip (in any
    /// case) is refused, and then nobody is added.
    public func addMembers(_ names: [String], trip name: String?) throws -> (trip: Trip, added: [Member]) {
        let trip = try resolveTrip(name)
        try requireOpen(trip)
        let existing = try members(of: trip)
        var clean: [String] = []
        for n in names {
            let c = try Ledger.memberName(n)
            if let same = existing.first(where: { $0.name.lowercased() == c.lowercased() }) {
                throw TripError.badTextValue(field: "member", value: n, reason: "is already a member of \(quoted(trip.name)) as \(quoted(same.name))")
            }
            if clean.contains(where: { $0.lowercased() == c.lowercased() }) {
                throw TripError.badTextValue(field: "member", value: n, reason: "is named twice")
            }
            clean.append(c)
        }
        return try transaction {
            let shared = try syncStore.sharedGID(trip: trip.id)
            for c in clean {
                // On a shared trip, a member removed before under this name comes back as that
                // member (their global id is made of the name): it travels as a restore.
                if let shared, let removed = try syncStore.localID(kind: "member", gid: GlobalID.member(trip: shared, name: c)),
                    try !syncStore.exists(.members, id: removed)
                {
                    try memberStore.insert(id: removed, trip: trip.id, name: c, joinedAt: clock.now)
                } else {
                    try memberStore.insert(trip: trip.id, name: c, joinedAt: clock.now)
                }
            }
            let all = try members(of: trip)
            return (trip, Array(all.suffix(clean.count)))
        }
    }

    /// `trip member rename OLD NEW`: splits refer to members by id, so nothing else changes.
    public func renameMember(_ old: String, to new: String, trip name: String?) throws -> Member {
        let trip = try resolveTrip(name)
        let newName = try Ledger.memberName(new)
        return try transaction {
            let all = try members(of: trip)
            let m = try Ledger.member(old, in: all, trip: trip)
            if let other = all.first(where: { $0.name.lowercased() == newName.lowercased() }), other.id != m.id {
                throw TripError.badTextValue(field: "member", value: new, reason: "is already a member of \(quoted(trip.name))")
            }
            try memberStore.rename(m.id, to: newName)
            return try members(of: trip).first { $0.id == m.id }!
        }
    }

    /// `trip member rm NAME`: refused, naming the purchases and transfers, while anything refers to
    /// the member.
    public func removeMember(_ name: String, trip tripName: String?) throws -> Member {
        let trip = try resolveTrip(tripName)
        try requireOpen(trip)
        return try transaction {
            let m = try Ledger.member(name, in: try members(of: trip), trip: trip)
            let use = try memberUse(m.id, trip: trip.id)
            if !use.purchases.isEmpty || !use.transfers.isEmpty {
                var what: [String] = []
                if !use.purchases.isEmpty {
                    let shown = use.purchases.prefix(10).joined(separator: ", ") + (use.purchases.count > 10 ? ", …" : "")
                    what.append("purchases \(shown)")
                }
                if !use.transfers.isEmpty {
                    let shown = use.transfers.prefix(10).map { Transfer.ref($0) }.joined(separator: ", ")
                    what.append("transfer\(use.transfers.count == 1 ? "" : "s") \(shown)\(use.transfers.count > 10 ? ", …" : "")")
                }
                let fix =
                    use.purchases.isEmpty
                    ? "remove or change those transfers first (`trip transfer rm T…`)"
                    : "change their splits\(use.transfers.isEmpty ? "" : " and transfers") first"
                throw TripError.badTextValue(field: "member", value: m.name, reason: "still has \(what.joined(separator: " and ")); \(fix)")
            }
            // On a shared trip, kept as it travels: a row another device wrote naming this member
            // before it saw the removal brings them back as they were (`Pull.swift`).
            try syncStore.keepRemoved(.members, id: m.id)
            try memberStore.delete(m.id)
            return m
        }
    }

    /// What still names member `id` of trip `tripID`: purchases (`#ID`, removed ones marked) whose
    /// payers or split name them, and how many transfers. A member so named is never removed,
    /// here (`member rm`) or by a removal from another device (`Pull.swift`).
    package func memberUse(_ id: Int64, trip tripID: Int64) throws -> (purchases: [String], transfers: [Int64]) {
        var purchases: [String] = []
        try splitStore.forEachSplit(trip: tripID) { use in
            if (SplitWeights.memberIDs(use.payers) + SplitWeights.memberIDs(use.shares)).contains(id) {
                purchases.append("#\(use.purchaseID)" + (use.removed ? " (removed)" : ""))
            }
        }
        return (purchases, try transferStore.ids(involving: id))
    }

    /// `trip whoami [NAME]`: the member this ledger's user is, in every trip (a setting of this
    /// ledger, never shared). `nil` reads it; `""` clears it. When the current trip has members,
    /// NAME must be one of them (in any case; stored as the member is named): the payer of every
    /// later `trip add` is never a name that pays nothing.
    public func whoami(set name: String?) throws -> String? {
        guard let name else { return try ledgerSetting("whoami") }
        var clean = name.isEmpty ? nil : try Ledger.memberName(name)
        if let typed = clean, let trip = try currentTrip() {
            let names = try members(of: trip).map(\.name)
            if !names.isEmpty {
                guard let i = SplitSpec.memberIndex(typed, in: names) else {
                    let near = Nearest.names(to: typed, among: names)
                    let hint = near.isEmpty ? "" : "did you mean \(near.joined(separator: " or "))? "
                    throw TripError.badTextValue(
                        field: "member", value: name,
                        reason: "is not a member of \(quoted(trip.name)); \(hint)members: \(names.joined(separator: ", "))")
                }
                clean = names[i]
            }
        }
        try transaction { try setLedgerSetting("whoami", clean) }
        return clean
    }

    /// `trip join`: this device's member becomes the member of `trip` named like `role` (in any
    /// case), so a joined device never pays as somebody else. Returns that member's name, or nil
    /// when no member is named so (the user then says who they are with `trip whoami`).
    public func adoptMember(likeRole role: String, in tripName: String) throws -> String? {
        let trip = try resolveTrip(tripName)
        let names = try members(of: trip).map(\.name)
        guard let i = SplitSpec.memberIndex(role, in: names) else { return nil }
        try transaction { try setLedgerSetting("whoami", names[i]) }
        return names[i]
    }

    package static func memberName(_ text: String) throws(TripError) -> String {
        let name = try checkText(text.trimmingSpaces, field: "member", maxBytes: TextField.memberMaxBytes, allowEmpty: false)
        if name.contains(",") || name.contains("=") || name.contains(" ") && name.split(separator: " ").isEmpty {
            throw .badTextValue(field: "member", value: text, reason: "cannot contain , or = (they separate --split entries)")
        }
        if ["all", "rest"].contains(name.lowercased()) {
            throw .badTextValue(field: "member", value: text, reason: "is a reserved word of --split and --paid-by")
        }
        return name
    }

    package static func member(_ name: String, in members: [Member], trip: Trip) throws(TripError) -> Member {
        guard let i = SplitSpec.memberIndex(name, in: members.map(\.name)) else {
            let known = members.isEmpty ? "it has no members yet" : "members: " + members.map(\.name).joined(separator: ", ")
            throw .badTextValue(field: "member", value: name, reason: "is not a member of \(quoted(trip.name)); \(known)")
        }
        return members[i]
    }
}
