import Storage
import SyncRules
import TripCore
import TripLedger
import TripModel

/// `trip remote`, `share`, `join` and `sync`: one ledger and one server. Every local write is one
/// SQLite transaction and every server write one PostgreSQL transaction; between them, the
/// outbox keeps each change until the server has it, so a sync killed at any moment is simply run
/// again.
public struct SyncSession {
    let ledger: Ledger
    let server: RemoteServer

    public init(ledger: Ledger, environment: [String: String]) throws(SharingError) {
        self.ledger = ledger
        self.server = try RemoteServer.configured(settings: ledger.settings, environment: environment)
    }

    private func open() throws(SharingError) -> PostgresConnection {
        let connection = try server.connect()
        try ServerSchema.check(connection)
        // A first share's snapshot is megabytes of text, which lz4 compresses faster than
        // PostgreSQL's default, pglz (`make bench`'s share row; the README's figures). Servers
        // built without lz4 keep their default.
        _ = try? connection.query("SET default_toast_compression = lz4")
        return connection
    }

    private func role(_ connection: PostgresConnection) throws(SharingError) -> String {
        try connection.query("SELECT current_user AS role").value(0, "role") ?? ""
    }

    /// The identity of the server `connection` reached (`ServerSchema.identity`), named as configured.
    private func identity(_ connection: PostgresConnection) throws(SharingError) -> ServerIdentity? {
        try ServerSchema.identity(connection).map { ServerIdentity(id: $0, name: server.display) }
    }

    /// Makes sure `shared` lives on this server before anything is sent, and creates its row there
    /// when a first share was cut short before its push. Refused (`otherServer`): a trip that
    /// remembers another server's identity, and a trip that synced before (its log should be
    /// here) whose row this server does not have, which is how a trip shared before identities
    /// tells another server. One transaction: a refused trip leaves no row behind.
    private func place(_ shared: SharedTrip, on here: ServerIdentity?, _ connection: PostgresConnection) throws(SharingError) {
        let refused = SharingError.otherServer(
            trip: shared.trip.name, sharedOn: shared.server?.name, server: server.display)
        if let remembered = shared.server, remembered.id != here?.id { throw refused }
        try connection.query("BEGIN")
        do throws(SharingError) {
            // `create_trip` (schema 8) refuses a trip the administrator deleted (`tripDeleted`).
            let created = try connection.query("SELECT trip_ledger.create_trip($1, $2) AS created", [shared.gid, shared.trip.name])
            if created.value(0, "created") == "t" && shared.pulledSeq > 0 { throw refused }
            try connection.query("COMMIT")
        } catch {
            _ = try? connection.query("ROLLBACK")
            throw error
        }
    }

    /// Whether the server has (or had) a row for `shared` at all, which it hides from a role
    /// that may not use it.
    private func rowExists(_ shared: SharedTrip, _ connection: PostgresConnection) throws(SharingError) -> Bool {
        try connection.query("SELECT trip_ledger.trip_known($1) AS known", [shared.gid]).value(0, "known") == "t"
    }

    // MARK: remote

    /// `trip remote init`: needs no ledger, only the configured server.
    public static func initialize(settings: Settings, environment: [String: String]) throws(SharingError) -> SchemaInstall {
        let server = try RemoteServer.configured(settings: settings, environment: environment)
        let connection = try server.connect()
        let (from, to) = try ServerSchema.install(connection)
        let role = try connection.query("SELECT current_user AS role").value(0, "role") ?? ""
        return SchemaInstall(server: server.display, role: role, from: from, to: to)
    }

    /// Fails as `join` would when no shared trip `name` (or `OWNER/NAME`) is visible to this role:
    /// `trip join` on a device with no ledger yet asks this first, so that a join refused by the
    /// server creates no ledger.
    public static func requireVisible(_ name: String, settings: Settings, environment: [String: String]) throws {
        let server = try RemoteServer.configured(settings: settings, environment: environment)
        let connection = try server.connect()
        try ServerSchema.check(connection)
        _ = try find(name, connection)
    }

    /// The shared trip `name` (or `OWNER/NAME`) visible to this role: its global id and owner.
    private static func find(_ name: String, _ connection: PostgresConnection) throws -> (gid: String, owner: String, name: String) {
        var owner: String?
        var tripName = name
        if let slash = name.firstIndex(of: "/") {
            owner = String(name[..<slash])
            tripName = String(name[name.index(after: slash)...])
        }
        let found = try connection.query(
            """
            SELECT gid, owner FROM trip_ledger.my_trips() WHERE lower(name) = lower($1) AND ($2::name IS NULL OR owner = $2::name)
            ORDER BY owner, created_at
            """, [tripName, owner])
        guard !found.rows.isEmpty else { throw SharingError.noSharedTrip(tripName) }
        guard found.rows.count == 1 else {
            throw SharingError.ambiguousSharedTrip(tripName, owners: found.rows.map { $0[1] ?? "" })
        }
        return (found.rows[0][0] ?? "", found.rows[0][1] ?? "", tripName)
    }

    /// `trip remote status`: what this ledger knows, and what the server says (or why it cannot).
    public func status() throws -> ServerStatus {
        var status = ServerStatus(server: server.display, known: ServerSchema.version)
        var logs: [String: Int64?] = [:]
        // Trips this role cannot see: whether the server has them at all.
        var present: [String: Bool] = [:]
        var here: ServerIdentity?
        do {
            let connection = try server.connect()
            status.reachable = true
            status.role = try role(connection)
            status.schema = try ServerSchema.installed(connection)
            if status.schema == ServerSchema.version {
                here = try identity(connection)
                for shared in try ledger.sharedTrips() {
                    let last = try ChangeLog(connection: connection, tripGID: shared.gid).lastSeq()
                    logs[shared.gid] = last
                    if last == nil { present[shared.gid] = try rowExists(shared, connection) }
                }
            }
        } catch {
            status.problem = error
        }
        let reached = status.reachable && status.problem == nil && status.schema == ServerSchema.version
        status.trips = try ledger.sharedTrips().map { s in
            var trip = ServerStatus.Trip(
                name: s.trip.name, owner: s.owner, unsent: try ledger.unsentCount(s), lastSync: s.lastSync,
                pulled: s.pulledSeq, onServer: logs[s.gid] ?? nil)
            guard reached else { return trip }
            // Another server's trip, or one this role can no longer see: nothing will be sent.
            if let remembered = s.server, remembered.id != here?.id {
                trip.sharedOn = remembered.name
            } else if let present = present[s.gid] {
                // On the server but hidden: revoked. Not there, though it synced: it lives elsewhere
                // (a trip shared before identities); a first share cut short is simply not sent yet.
                if present { trip.revoked = true } else if s.pulledSeq > 0 { trip.sharedOn = "another server" }
            }
            trip.joinedPartly = s.joinedPartly
            return trip
        }
        return status
    }

    /// `trip remote move [NAME]`: the trip lives on the configured server from now on. A server
    /// that has its log (a copy of the old one, or another device moved it first) is read from the
    /// start; one that has not gets the whole trip, as from a first share, with this role as its
    /// owner there (grants are the new server's: `trip share --with` again).
    public func move(trip name: String?) throws -> SyncResult {
        let trip = try ledger.resolveTrip(name)
        guard let shared = try ledger.sharedTrip(trip) else { throw SharingError.tripNotShared(trip.name) }
        let connection = try open()
        let here = try identity(connection)
        let visible = try ChangeLog(connection: connection, tripGID: shared.gid).lastSeq() != nil
        let moved = try ledger.moveSharedTrip(shared, to: here, republish: !visible, owner: try role(connection))
        var result = try sync(moved, connection)
        result.movedFrom = shared.server?.name ?? "the server it was shared on"
        return result
    }

    // MARK: share and join

    /// `trip share [NAME] [--with ROLE…]`: publishes the trip with its whole history (or, when it
    /// is shared already, only grants the roles).
    public func share(trip name: String?, with roles: [String]) throws -> SyncResult {
        let trip = try ledger.resolveTrip(name)
        let connection = try open()
        let me = try role(connection)
        let here = try identity(connection)
        let shared: SharedTrip
        if let existing = try ledger.sharedTrip(trip) {
            shared = existing
        } else {
            shared = try ledger.markShared(trip, gid: GlobalID.make(), owner: me, server: here)
        }
        try place(shared, on: here, connection)
        // Only the owner grants (server schema 6 enforces it too): said plainly, before anything.
        if !roles.isEmpty, shared.owner != me { throw SharingError.notOwner(trip: trip.name, owner: shared.owner, role: me) }
        for r in roles {
            let exists = try connection.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [r])
            if exists.rows.isEmpty {
                throw TripError.badTextValue(field: "--with", value: r, reason: "is not a role of \(server.display)")
            }
            try connection.query("SELECT trip_ledger.grant_trip($1, $2)", [shared.gid, r])
        }
        var result = try sync(shared, connection)
        result.grantedTo = roles
        return result
    }

    /// `trip unshare [NAME] --with ROLE…`: takes the trip back from those roles (the owner only).
    /// Their devices keep their copies; their next sync is refused (exit 77) and says so.
    public func unshare(trip name: String?, from roles: [String]) throws -> [String] {
        let trip = try ledger.resolveTrip(name)
        guard let shared = try ledger.sharedTrip(trip) else { throw SharingError.tripNotShared(trip.name) }
        let connection = try open()
        let me = try role(connection)
        if shared.owner != me { throw SharingError.notOwner(trip: trip.name, owner: shared.owner, role: me) }
        for r in roles {
            let removed = try connection.query("SELECT trip_ledger.revoke_trip($1, $2) AS removed", [shared.gid, r])
            if removed.value(0, "removed") != "t" { throw SharingError.notGranted(trip: trip.name, role: r) }
        }
        return roles
    }

    /// `trip join NAME` (or `OWNER/NAME`): copies a shared trip onto this ledger.
    public func join(_ name: String) throws -> SyncResult {
        let connection = try open()
        let (gid, tripOwner, tripName) = try SyncSession.find(name, connection)
        if let here = try ledger.sharedTrips().first(where: { $0.gid == gid }) {
            // Joined before, perhaps by a join that was killed halfway: bring it up to date.
            _ = try ledger.useTrip(here.trip.name)
            var result = try sync(here, connection)
            result.joinedBefore = true
            // A join killed before it said who this device pays as: said now.
            if try ledger.whoami(set: nil) == nil { result.joinedAs = try adoptMember(here.trip, connection) }
            return result
        }
        let log = ChangeLog(connection: connection, tripGID: gid)
        guard let tripChange = try log.firstTripVersion() else { throw SharingError.noSharedTrip(tripName) }
        let shared = try ledger.createJoinedTrip(tripChange, owner: tripOwner, server: try identity(connection))
        var result = try sync(shared, connection)
        result.joinedAs = try adoptMember(shared.trip, connection)
        return result
    }

    /// The payer is never a guess: after a join, this device pays as the member named like its
    /// role (`nil`: the trip has no members, or `whoami` is set already).
    private func adoptMember(_ trip: Trip, _ connection: PostgresConnection) throws -> SyncResult.JoinedMember? {
        guard try !ledger.members(of: trip).isEmpty else { return nil }
        let me = try role(connection)
        return try ledger.adoptMember(likeRole: me, in: trip.name).map { .named($0) } ?? .unknown(role: me)
    }

    // MARK: sync

    /// `trip sync [NAME | --all]`: pushes, then pulls, each shared trip (default: the current trip).
    public func sync(trip name: String?, all: Bool) throws -> SyncRun {
        let targets: [SharedTrip]
        if all {
            targets = try ledger.sharedTrips()
        } else {
            let trip = try ledger.resolveTrip(name)
            guard let shared = try ledger.sharedTrip(trip) else { throw SharingError.tripNotShared(trip.name) }
            targets = [shared]
        }
        guard !targets.isEmpty else { return SyncRun() }
        let connection = try open()
        var run = SyncRun()
        for target in targets {
            do {
                run.results.append(try sync(target, connection))
            } catch let error as SharingError where error.endsTheSession {
                throw error
            } catch let error as SQLiteError where error.isDiskFull || error.isBusy {
                // This ledger cannot take the next trip's changes either: said once, for the run.
                throw error
            } catch {
                // One trip's failure (a permission taken back, a change that cannot be applied)
                // does not stop the others: each trip's outcome is said.
                guard all else { throw error }
                let (message, code): (String, Int32) =
                    switch error {
                    case let e as SharingError: (e.description, e.exitCode)
                    case let e as TripError: (e.description, e.exitCode)
                    default: ("\(error)", 70)
                    }
                run.failures.append(SyncRun.Failure(trip: target.trip.name, message: message, exitCode: code))
            }
        }
        return run
    }

    /// One trip's sync: reach the trip on this server and register this device, then the round
    /// itself (`Ledger.syncRound`, SyncRules: push, pull, hold, release, the removals that
    /// waited) against the trip's `ChangeLog`.
    private func sync(_ shared: SharedTrip, _ connection: PostgresConnection) throws -> SyncResult {
        let state = shared
        let before = try ledger.netTotal(state)
        let device = try ledger.deviceID()
        let log = ChangeLog(connection: connection, tripGID: state.gid)
        let here = try identity(connection)
        try place(state, on: here, connection)
        // Visible only to its owner and grantees: a role whose grant was taken back is told so.
        guard let onServer = try log.lastSeq() else {
            throw SharingError.revoked(trip: state.trip.name, server: connection.displayName)
        }
        // The role this device pushes as labels its own versions of a conflict: asked once.
        if try !ledger.knowsOwnAuthor() { try ledger.noteOwnAuthor(try role(connection)) }
        // The device's id is this role's from its first sync (a join's included): no other role
        // can push under it (schema 8). Refused only at a push: a device that only pulls may.
        try connection.query("SELECT trip_ledger.register_device($1)", [device])

        do {
            return try ledger.syncRound(state, log: log, device: device, onServer: onServer, before: before, here: here)
        } catch let cut as SyncRoundCut {
            guard let error = cut.underlying as? SharingError else { throw cut.underlying }
            throw error.cut(trip: shared.trip.name, pushed: cut.pushed, pulled: cut.pulled, of: cut.of)
        }
    }
}
