// The only file that imports CLibPQ. Every libpq call goes through here, and every failure
// becomes a typed `SharingError` before it leaves.

import CLibPQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open libpq connection. Not thread-safe; one command uses one connection.
final class PostgresConnection {
    private let handle: OpaquePointer
    /// The server named without its password, for messages.
    let displayName: String

    fileprivate init(handle: OpaquePointer, displayName: String) {
        self.handle = handle
        self.displayName = displayName
    }

    deinit { cpq_finish(handle) }

    /// Runs one statement with text parameters (`$1`, `$2`…; `nil` is SQL NULL) and returns its rows.
    ///
    /// The corresponding C function is `PQexecParams`.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) throws(SharingError) -> PostgresRows {
        let result: OpaquePointer? = withCStrings(parameters) { pointers in
            cpq_exec_params(handle, sql, Int32(parameters.count), pointers)
        }
        return try rows(of: result)
    }

    /// Runs a script of several statements (a schema step), which `PQexecParams` refuses.
    ///
    /// The corresponding C function is `PQexec`.
    func script(_ sql: String) throws(SharingError) {
        _ = try rows(of: cpq_exec(handle, sql))
    }

    /// Runs `COPY … FROM STDIN` (text format) with `data` as its rows: PostgreSQL's bulk path,
    /// one round trip for any number of rows.
    ///
    /// The corresponding C functions are `PQexec`, `PQputCopyData`, `PQputCopyEnd` and `PQgetResult`.
    func copyIn(_ sql: String, _ data: [UInt8]) throws(SharingError) {
        guard let started = cpq_exec(handle, sql) else {
            throw PostgresBoundary.connectionError(cpq_error_message(handle), server: displayName)
        }
        guard cpq_result_status(started) == PGRES_COPY_IN else {
            _ = try rows(of: started)
            return
        }
        cpq_clear(started)
        let chunk = 1 << 20
        var sent = true
        data.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { bytes in
                var offset = 0
                while sent && offset < bytes.count {
                    let n = min(chunk, bytes.count - offset)
                    sent = cpq_put_copy_data(handle, bytes.baseAddress! + offset, Int32(n)) == 1
                    offset += n
                }
            }
        }
        if !sent || cpq_put_copy_end(handle, nil) != 1 {
            throw PostgresBoundary.connectionError(cpq_error_message(handle), server: displayName)
        }
        // The COPY's own result, then NULL; the first failure is the one reported.
        var failure: SharingError?
        while let result = cpq_get_result(handle) {
            if failure == nil {
                do throws(SharingError) { _ = try rows(of: result) } catch { failure = error }
            } else {
                cpq_clear(result)
            }
        }
        if let failure { throw failure }
    }

    private func rows(of result: OpaquePointer?) throws(SharingError) -> PostgresRows {
        guard let result else {
            throw PostgresBoundary.connectionError(cpq_error_message(handle), server: displayName)
        }
        defer { cpq_clear(result) }
        let status = cpq_result_status(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = cpq_result_error_field(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message =
                cpq_result_error_field(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? cpq_result_error_message(result).map { String(cString: $0) } ?? "unknown error"
            if state.isEmpty, cpq_status(handle) != CONNECTION_OK {
                throw PostgresBoundary.connectionError(cpq_error_message(handle), server: displayName)
            }
            throw SharingError.reported(sqlState: state, message: PostgresBoundary.oneLine(message), server: displayName)
        }
        var names: [String] = []
        let columns = cpq_nfields(result)
        for c in 0..<columns { names.append(String(cString: cpq_fname(result, c))) }
        var rows: [[String?]] = []
        let count = cpq_ntuples(result)
        rows.reserveCapacity(Int(count))
        for r in 0..<count {
            var row: [String?] = []
            row.reserveCapacity(Int(columns))
            for c in 0..<columns {
                if cpq_getisnull(result, r, c) != 0 { row.append(nil); continue }
                let length = Int(cpq_getlength(result, r, c))
                let bytes = UnsafeRawBufferPointer(start: cpq_getvalue(result, r, c), count: length)
                row.append(String(decoding: bytes, as: UTF8.self))
            }
            rows.append(row)
        }
        return PostgresRows(columns: names, rows: rows)
    }

    /// The connection's own view of where it went and how: host, every `hostaddr` it was given,
    /// TLS, server version.
    ///
    /// The corresponding C functions are `PQhost`, `PQsslInUse`, `PQserverVersion` and `PQconninfo`.
    var details: (host: String, hostaddrs: [String], tls: Bool, serverVersion: Int, sslMode: String?) {
        let host = cpq_host(handle).map { String(cString: $0) } ?? ""
        var sslMode: String?
        var hostaddrs: [String] = []
        if let options = cpq_conninfo(handle) {
            defer { cpq_conninfo_free(options) }
            var i = 0
            while let keyword = options[i].keyword {
                switch (String(cString: keyword), options[i].val) {
                case ("sslmode", let value?): sslMode = String(cString: value)
                case ("hostaddr", let value?): hostaddrs = String(cString: value).split(separator: ",").map(String.init)
                default: break
                }
                i += 1
            }
        }
        return (host, hostaddrs, cpq_ssl_in_use(handle) != 0, Int(cpq_server_version(handle)), sslMode)
    }
}

/// The rows of one result, every value as PostgreSQL's text form.
struct PostgresRows {
    let columns: [String]
    let rows: [[String?]]

    /// The value of `column` (by name) in row `row`; `nil` when there is no such row or column.
    func value(_ row: Int, _ column: String) -> String? {
        guard rows.indices.contains(row), let c = columns.firstIndex(of: column) else { return nil }
        return rows[row][c]
    }
}

enum PostgresBoundary {
    private static let loading: Result<Void, SharingError> = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard cpq_load(&buffer, buffer.count) == 0 else {
            let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.libpqUnavailable(reason))
        }
        return .success(())
    }()

    /// Whether libpq is loaded in this process (the loader proof for `trip add` asks this too).
    static func ensureLoaded() throws(SharingError) { try loading.get() }

    /// The options a connection string sets, as libpq itself parses it (`postgresql://` URIs and
    /// `key=value` strings alike).
    ///
    /// The corresponding C function is `PQconninfoParse`.
    static func parseOptions(_ conninfo: String) throws(SharingError) -> [String: String] {
        try ensureLoaded()
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = cpq_conninfo_parse(conninfo, &errorMessage) else {
            let reason = errorMessage.map { String(cString: $0) } ?? "not a connection string"
            if let errorMessage { cpq_freemem(errorMessage) }
            throw .badRemote(reason: oneLine(reason))
        }
        defer { cpq_conninfo_free(options) }
        var found: [String: String] = [:]
        var i = 0
        while let keyword = options[i].keyword {
            if let value = options[i].val { found[String(cString: keyword)] = String(cString: value) }
            i += 1
        }
        return found
    }

    /// Connects with `conninfo` plus `overrides` (later keywords win over the string's own).
    ///
    /// The corresponding C function is `PQconnectdbParams` with `expand_dbname`, so the remote's
    /// own string is read by libpq and `.pgpass`, `PGSERVICE`, `PGSSLMODE`… apply as usual.
    static func connect(_ conninfo: String, overrides: [(String, String)], displayName: String) throws(SharingError) -> PostgresConnection {
        try ensureLoaded()
        let keywords: [String?] = ["dbname"] + overrides.map { $0.0 } + [nil]
        let values: [String?] = [conninfo] + overrides.map { $0.1 } + [nil]
        let handle: OpaquePointer? = withCStrings(keywords) { k in
            withCStrings(values) { v in cpq_connectdb_params(k, v, 1) }
        }
        guard let handle else { throw .unreachable(server: displayName, reason: "out of memory") }
        guard cpq_status(handle) == CONNECTION_OK else {
            let error = connectionError(cpq_error_message(handle), server: displayName)
            cpq_finish(handle)
            throw error
        }
        cpq_silence_notices(handle)
        return PostgresConnection(handle: handle, displayName: displayName)
    }

    /// A connection-level failure (libpq's message, possibly several lines) as one typed error.
    static func connectionError(_ message: UnsafeMutablePointer<CChar>?, server: String) -> SharingError {
        let text = oneLine(message.map { String(cString: $0) } ?? "connection lost")
        return SharingError.classifyConnectionFailure(text, server: server)
    }

    /// libpq's messages end with a newline and may span lines; ours are one line.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingCharacters(in: " \t") }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}

/// NUL-terminated copies of `strings` (a `nil` stays NULL) that live for the duration of `body`.
private func withCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    // One NULL more than asked for, so that an empty list still has an address to pass.
    var owned: [UnsafeMutablePointer<CChar>?] = strings.map { s in s.map { strdup($0) } ?? nil } + [nil]
    defer { owned.forEach { free($0) } }
    return owned.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { body($0) }
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
