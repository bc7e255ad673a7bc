import TripCore

/// The server of shared trips, as the user named it, and the rules for reaching it.
public struct RemoteServer: Sendable {
    /// The libpq connection string as configured (may hold a password: never printed).
    let conninfo: String
    /// `user@host:port/dbname`, for messages.
    public let display: String
    /// Options added to the user's own (later keywords win in libpq).
    let overrides: [(String, String)]

    /// `TRIP_REMOTE`, else `[sync] remote`. Checks the TLS rule before anything connects: unless
    /// every place libpq may go is on this machine (`destinations`), the server is reached with
    /// `sslmode=verify-full` unless the user chose `verify-ca`, and with `channel_binding=require`
    /// unless the user chose otherwise; anything weaker is refused.
    public static func configured(settings: Settings, environment env: [String: String]) throws(SharingError) -> RemoteServer {
        guard let conninfo = env["TRIP_REMOTE"].flatMap({ $0.isEmpty ? nil : $0 }) ?? settings.remote.value else {
            throw .noRemote
        }
        let options: [String: String]
        do { options = try PostgresBoundary.parseOptions(conninfo) } catch { throw error.redacting(conninfo) }
        let hostList = options["host"] ?? options["hostaddr"] ?? env["PGHOST"] ?? env["PGHOSTADDR"] ?? ""
        let hosts = hostList.split(separator: ",").map { String($0).trimmingSpaces }
        let port = options["port"] ?? env["PGPORT"] ?? "5432"
        let database = options["dbname"] ?? env["PGDATABASE"] ?? options["user"] ?? env["PGUSER"] ?? ""
        let user = options["user"] ?? env["PGUSER"]
        let display = ConnectionRedaction.scrub(
            "\(user.map { $0 + "@" } ?? "")\(hosts.isEmpty ? "local socket" : hostList):\(port)/\(database)", conninfo: conninfo)
        var overrides: [(String, String)] = []
        if options["connect_timeout"] == nil && env["PGCONNECT_TIMEOUT"] == nil { overrides.append(("connect_timeout", "10")) }
        if options["application_name"] == nil { overrides.append(("application_name", "trip")) }
        let local = destinations(options: options, environment: env).map { $0.allSatisfy(RemoteServer.isLoopback) } ?? false
        if !local {
            let mode = options["sslmode"] ?? env["PGSSLMODE"]
            switch mode {
            case nil: overrides.append(("sslmode", "verify-full"))
            case "verify-full", "verify-ca": break
            default: throw .weakTLS(server: display, sslMode: mode ?? "")
            }
            // With SCRAM, channel binding ties the password exchange to the verified TLS
            // session, so not even a server holding a stolen certificate learns the password.
            if options["channel_binding"] == nil && env["PGCHANNELBINDING"] == nil { overrides.append(("channel_binding", "require")) }
        }
        return RemoteServer(conninfo: conninfo, display: display, overrides: overrides)
    }

    /// Every place libpq may connect to: each `host` and each `hostaddr` of the connection string
    /// (where it sets none, `PGHOST` and `PGHOSTADDR`), an empty list meaning the default Unix
    /// socket. `nil` when a service file (`service`, `PGSERVICE`) may name hosts, which cannot be
    /// read before connecting: such a server is treated as off this machine.
    static func destinations(options: [String: String], environment env: [String: String]) -> [String]? {
        if options["service"] != nil || env["PGSERVICE"] != nil { return nil }
        let lists = [options["host"] ?? env["PGHOST"], options["hostaddr"] ?? env["PGHOSTADDR"]]
        return lists.compactMap { $0 }.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces } }
    }

    /// Unix sockets (a path, an abstract `@name`, or the default: empty) and loopback addresses
    /// (`Loopback`) never leave this machine.
    static func isLoopback(_ host: String) -> Bool {
        host.isEmpty || host.hasPrefix("/") || host.hasPrefix("@") || Loopback.isLoopback(host: host)
    }

    /// Connects. Loads libpq on first use: no other command pays for it.
    func connect() throws(SharingError) -> PostgresConnection {
        let connection: PostgresConnection
        do {
            connection = try PostgresBoundary.connect(conninfo, overrides: overrides, displayName: display)
        } catch {
            throw error.redacting(conninfo)
        }
        // libpq could still have been pointed elsewhere (a service file, PGHOST): check what it did.
        let details = connection.details
        let local = ([details.host] + details.hostaddrs).allSatisfy(RemoteServer.isLoopback)
        if !local, !["verify-full", "verify-ca"].contains(details.sslMode ?? "") {
            throw .weakTLS(server: display, sslMode: details.sslMode ?? "none")
        }
        return connection
    }
}
