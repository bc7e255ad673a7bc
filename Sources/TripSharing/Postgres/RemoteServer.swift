import TripCore

/// The server of shared trips, as the user named it, and the rules for reaching it.
public struct RemoteServer: Sendable {
    /// The libpq connection string as configured (may hold a password: never printed).
    let conninfo: String
    /// `user@host:port/dbname`, for messages.
    public let display: String
    /// Options added to the user's own (later keywords win in libpq).
    let overrides: [(String, String)]

    /// `TRIP_REMOTE`, else `[sync] remote`. Checks the TLS rule before anything connects: a server
    /// off this machine is reached with `sslmode=verify-full` unless the user chose `verify-ca`;
    /// anything weaker is refused.
    public static func configured(settings: Settings, environment env: [String: String]) throws(SharingError) -> RemoteServer {
        guard let conninfo = env["TRIP_REMOTE"].flatMap({ $0.isEmpty ? nil : $0 }) ?? settings.remote.value else {
            throw .noRemote
        }
        let options = try PostgresBoundary.parseOptions(conninfo)
        let hostList = options["host"] ?? options["hostaddr"] ?? env["PGHOST"] ?? env["PGHOSTADDR"] ?? ""
        let hosts = hostList.split(separator: ",").map { String($0).trimmingSpaces }
        let port = options["port"] ?? env["PGPORT"] ?? "5432"
        let database = options["dbname"] ?? env["PGDATABASE"] ?? options["user"] ?? env["PGUSER"] ?? ""
        let user = options["user"] ?? env["PGUSER"]
        let display = "\(user.map { $0 + "@" } ?? "")\(hosts.isEmpty ? "local socket" : hostList):\(port)/\(database)"
        var overrides: [(String, String)] = []
        if options["connect_timeout"] == nil && env["PGCONNECT_TIMEOUT"] == nil { overrides.append(("connect_timeout", "10")) }
        if options["application_name"] == nil { overrides.append(("application_name", "trip")) }
        if !hosts.allSatisfy(RemoteServer.isLoopback) {
            let mode = options["sslmode"] ?? env["PGSSLMODE"]
            switch mode {
            case nil: overrides.append(("sslmode", "verify-full"))
            case "verify-full", "verify-ca": break
            default: throw .weakTLS(server: display, sslMode: mode ?? "")
            }
        }
        return RemoteServer(conninfo: conninfo, display: display, overrides: overrides)
    }

    /// The connection string as configured, with any password replaced by `***` (for `trip config`),
    /// read without loading libpq: the userinfo of a URI, and `password=` in either form.
    public static func redacted(_ conninfo: String) -> String {
        var text = conninfo
        if let scheme = text.firstRange(of: "://") {
            let rest = text[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
                text.replaceSubrange(rest.index(after: colon)..<at, with: "***")
            }
        }
        var out = ""
        var rest = Substring(text)
        while let r = rest.firstRange(of: "password=") {
            out += rest[..<r.upperBound] + "***"
            rest = rest[r.upperBound...]
            let end = rest.firstIndex { $0 == " " || $0 == "&" } ?? rest.endIndex
            rest = rest[end...]
        }
        return out + rest
    }

    /// Unix sockets and loopback addresses never leave this machine.
    static func isLoopback(_ host: String) -> Bool {
        host.isEmpty || host.hasPrefix("/") || host.hasPrefix("@") || host == "localhost" || host == "::1"
            || host.hasPrefix("127.")
    }

    /// Connects. Loads libpq on first use: no other command pays for it.
    func connect() throws(SharingError) -> PostgresConnection {
        let connection = try PostgresBoundary.connect(conninfo, overrides: overrides, displayName: display)
        // libpq could still have been pointed elsewhere (a service file, PGHOST): check what it did.
        let details = connection.details
        if !RemoteServer.isLoopback(details.host), !["verify-full", "verify-ca"].contains(details.sslMode ?? "") {
            throw .weakTLS(server: display, sslMode: details.sslMode ?? "none")
        }
        return connection
    }
}
