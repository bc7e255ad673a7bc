// A real HTTP/1.1 server on 127.0.0.1 for tests and benchmarks of the rate service.

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on `127.0.0.1` (ephemeral port) that serves canned routes and
/// injects network faults.
///
/// ```swift
/// let server = try FXTestServer()
/// server.route("/v1/latest", .file(bytes))
/// server.route("/slow", .stall())
/// let url = server.baseURL + "/v1/latest"     // "http://127.0.0.1:PORT/v1/latest"
/// …
/// server.requests                              // what clients sent, in arrival order
/// server.stop()                                // later connections are refused
/// ```
///
/// Each connection is served on its own thread and closed after one response
/// (`Connection: close`). Routes are matched on the exact request target (`/path?query`)
/// first, then on the path alone, then `"*"`; unknown targets get `404 {"message":"not found"}`.
/// Every wait is bounded (stalls end when the client hangs up, at `stop()`, or after their
/// limit), and `stop()`/`deinit` end the accept loop within about 100 ms.
public final class FXTestServer: Sendable {
    /// One request as received.
    public struct Request: Sendable, Equatable {
        /// `GET`, `HEAD`, …
        public var method: String
        /// The request target as sent: path plus `?query`.
        public var target: String
        /// Header names lowercased; repeated headers joined with ", ".
        public var headers: [String: String]

        /// The path part of `target`.
        public var path: String { String(target.prefix { $0 != "?" }) }
        /// The query part of `target` without `?`, or nil.
        public var query: String? { target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) } }
    }

    /// What to do with a request.
    public indirect enum Route: Sendable {
        /// A complete response. `Content-Length` and `Connection: close` are added.
        case respond(status: Int, headers: [String: String], body: [UInt8])
        /// Answers 304 (with the validators, no body) when the request's `If-None-Match`
        /// contains `etag` or its `If-Modified-Since` equals `lastModified` exactly; otherwise
        /// serves `route` with `ETag`/`Last-Modified` added.
        case conditional(etag: String?, lastModified: String?, then: Route)
        /// Reads the request, then sends nothing until the client hangs up, the server stops
        /// or `seconds` pass (then closes without a response).
        case stall(seconds: Double)
        /// Declares `Content-Length: declaredLength` but sends `body` as is, then closes: a
        /// shorter body is a truncation, a longer one carries bytes past the declared end.
        case truncated(status: Int, headers: [String: String], declaredLength: Int, body: [UInt8])
        /// Slow loris: a 200 whose `body` (length declared) is sent one byte every `interval`
        /// seconds; with `trickleHead` the status line and headers are dripped the same way.
        /// Ends when the client hangs up or the server stops.
        case slowLoris(body: [UInt8], interval: Double, trickleHead: Bool)
        /// A 200 body of `bytes` bytes (`{"pad":"aaaa…`), streamed in 64 KiB chunks; with
        /// `declareLength` false the length is not announced (the body ends at close).
        case large(bytes: Int, declareLength: Bool)
        /// Accepts the connection, reads the request and closes without answering.
        case hangUp

        /// 200 with `bytes` as the body.
        public static func file(_ bytes: [UInt8], contentType: String = "application/json", headers: [String: String] = [:])
            -> Route
        {
            var all = headers
            all["Content-Type"] = contentType
            return .respond(status: 200, headers: all, body: bytes)
        }

        /// A JSON text body with any status (for 404/422 error bodies, malformed JSON, …).
        public static func json(status: Int = 200, _ text: String, headers: [String: String] = [:]) -> Route {
            var all = headers
            all["Content-Type"] = "application/json"
            return .respond(status: status, headers: all, body: Array(text.utf8))
        }

        /// A `text/html` page with status 200, like a Wi-Fi login page.
        public static func html(_ text: String = Route.captivePortalPage, status: Int = 200) -> Route {
            .respond(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(text.utf8))
        }

        /// A redirect to `location` (a path on this server, or any absolute URL).
        public static func redirect(to location: String, status: Int = 302) -> Route {
            .respond(status: status, headers: ["Location": location], body: [])
        }

        /// `status` (429 or 503) with `Retry-After: value` and a small JSON body.
        public static func retryAfter(_ value: String, status: Int = 429) -> Route {
            .json(status: status, #"{"message":"slow down"}"#, headers: ["Retry-After": value])
        }

        /// A stall that the client's own timeout will end.
        public static func stall() -> Route { .stall(seconds: 30) }

        /// A JSON body that never ends (no length, streamed as fast as the client reads).
        public static func endless() -> Route { .large(bytes: .max, declareLength: false) }

        /// One byte per second of `{"rates":{…`, forever as far as any client is concerned.
        public static func slowLoris(trickleHead: Bool = false) -> Route {
            .slowLoris(
                body: Array(#"{"rates":{"USD":1.1}}"#.utf8) + [UInt8](repeating: 0x20, count: 1 << 20),
                interval: 1, trickleHead: trickleHead)
        }

        /// `Content-Encoding: gzip` JSON whose few hundred KiB inflate to `inflatedBytes`
        /// (a gzip bomb); built on the fly, see `GzipBomb`.
        public static func gzipBomb(inflatedBytes: Int = 64 << 20) -> Route {
            .respond(
                status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                body: GzipBomb.make(prefix: Array(#"{"base":"EUR","rates":{"USD":1."#.utf8), inflatedBytes: inflatedBytes))
        }

        /// `depth` nested arrays around a number, unclosed beyond that: `[[[[…1`.
        public static func deepJSON(depth: Int, closed: Bool = true) -> Route {
            .respond(
                status: 200, headers: ["Content-Type": "application/json"],
                body: Array(#"{"rates":"#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: depth) + [UInt8(ascii: "1")]
                    + (closed ? [UInt8](repeating: UInt8(ascii: "]"), count: depth) + [UInt8(ascii: "}")] : []))
        }

        /// A small captive-portal page.
        public static let captivePortalPage = """
            <!DOCTYPE html>
            <html><head><title>Sign in to Hotel WiFi</title></head>
            <body><form action="/login"><input name="room"></form></body></html>
            """
    }

    /// The bound port on 127.0.0.1.
    public let port: Int
    /// `http://127.0.0.1:PORT`, no trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let state: State

    /// Binds `127.0.0.1:0` and starts accepting on a background thread.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError(operation: "socket", code: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw ServerError(operation: "bind/listen", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        state = State(listenFD: fd)
        let state = self.state
        Thread.detachNewThread { state.acceptLoop() }
    }

    deinit { stop() }

    /// Serves `route` for `target`: a path (`/v1/latest`, any query) or an exact `/path?query`;
    /// `"*"` serves every target no other route matches. Replaces an earlier route for the same target.
    public func route(_ target: String, _ route: Route) {
        state.withLock { $0.routes[target] = route }
    }

    /// Requests received so far, in arrival order.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// Stops accepting and closes the listening socket (new connections are then refused);
    /// open connections are shut down. Idempotent; returns once the accept loop has ended.
    public func stop() { state.stop() }

    /// Why the server could not start.
    public struct ServerError: Error, CustomStringConvertible {
        public var operation: String
        public var code: Int32
        public var description: String { "\(operation) failed: \(String(cString: strerror(code)))" }
    }
}

/// Shared between the server object and its threads (which never retain the server itself,
/// so `deinit` can stop them).
private final class State: @unchecked Sendable {
    struct Protected {
        var routes: [String: FXTestServer.Route] = [:]
        var requests: [FXTestServer.Request] = []
        var stopped = false
        var openConnections: Set<Int32> = []
    }

    private let lock = NSLock()
    private var protected = Protected()
    private let listenFD: Int32
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    init(listenFD: Int32) { self.listenFD = listenFD }

    func withLock<T>(_ body: (inout Protected) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&protected)
    }

    var isStopped: Bool { withLock { $0.stopped } }

    func stop() {
        // Open connections are shut down while the lock is held: their handler threads close
        // them only under the same lock (below), so every descriptor shut down here is still this
        // server's. Shutting one down after its handler closed it could hit whatever socket reused
        // the number: another test's client ("broken pipe") or another server's listener.
        let wasStopped = withLock { state -> Bool in
            defer { state.stopped = true }
            guard !state.stopped else { return true }
            // Stop listening now, not when the accept loop next wakes: on Linux, shutting down a
            // listening socket takes it out of the listen state at once (a connection attempt from
            // here on is refused) and wakes an accept() that is waiting. Without it, a test that
            // connected right after stop() could still be queued by the kernel on the old socket
            // and then reset when the loop closed it ("connection reset by peer", not "refused").
            shutdown(listenFD, Int32(SHUT_RDWR))
            for fd in state.openConnections { shutdown(fd, Int32(SHUT_RDWR)) }
            return false
        }
        guard !wasStopped else { return }
        _ = acceptLoopEnded.wait(timeout: .now() + 2)
    }

    func acceptLoop() {
        defer {
            close(listenFD)
            acceptLoopEnded.signal()
        }
        while !isStopped {
            var pollFD = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
            guard poll(&pollFD, 1, 100) > 0 else { continue }
            let connection = accept(listenFD, nil, nil)
            guard connection >= 0 else { continue }
            let accepted = withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.openConnections.insert(connection)
                return true
            }
            guard accepted else { close(connection); return }
            Thread.detachNewThread { [self] in
                serve(connection)
                withLock { state in
                    state.openConnections.remove(connection)
                    close(connection)
                }
            }
        }
    }

    // MARK: One connection

    private func serve(_ fd: Int32) {
        guard let request = readRequest(fd) else { return }
        let route = withLock { state -> FXTestServer.Route? in
            state.requests.append(request)
            return state.routes[request.target] ?? state.routes[request.path] ?? state.routes["*"]
        }
        respond(fd, request, route ?? .json(status: 404, #"{"message":"not found"}"#))
    }

    /// Reads up to the blank line ending the head (at most 64 KiB, at most 5 s).
    private func readRequest(_ fd: Int32) -> FXTestServer.Request? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(5)
        while buffer.count < 64 << 10 {
            if let end = buffer.firstRange(of: [13, 10, 13, 10]) {
                return parseHead(Array(buffer[..<end.lowerBound]))
            }
            guard waitReadable(fd, until: deadline) else { return nil }
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<count])
            // A TLS ClientHello (record type 0x16): this server speaks plain HTTP only, so hang
            // up at once; the client then reports a TLS failure instead of waiting for a timeout.
            if buffer.first == 0x16 { return nil }
        }
        return nil
    }

    private func parseHead(_ head: [UInt8]) -> FXTestServer.Request? {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return FXTestServer.Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
    }

    /// Polls in 100 ms steps so that `stop()` is noticed.
    private func waitReadable(_ fd: Int32, until deadline: Date) -> Bool {
        while Date() < deadline && !isStopped {
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, 100)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return false }
        }
        return false
    }

    private func respond(_ fd: Int32, _ request: FXTestServer.Request, _ route: FXTestServer.Route) {
        switch route {
        case let .respond(status, headers, body):
            _ = send(
                fd, head(status: status, headers: headers, contentLength: body.count) + (request.method == "HEAD" ? [] : body))
        case let .conditional(etag, lastModified, then):
            var validators: [String: String] = [:]
            if let etag { validators["ETag"] = etag }
            if let lastModified { validators["Last-Modified"] = lastModified }
            let tags =
                request.headers["if-none-match"]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            let matches =
                (etag.map { tags.contains($0) || tags.contains("*") } ?? false)
                || (lastModified != nil && request.headers["if-modified-since"] == lastModified)
            if matches {
                _ = send(fd, head(status: 304, headers: validators, contentLength: nil))
            } else {
                respond(fd, request, adding(validators, to: then))
            }
        case let .stall(seconds):
            // Ends when the client closes (recv returns 0), on stop(), or after `seconds`.
            let deadline = Date().addingTimeInterval(seconds)
            var scratch = [UInt8](repeating: 0, count: 512)
            while waitReadable(fd, until: deadline) {
                if recv(fd, &scratch, scratch.count, 0) <= 0 { break }
            }
        case let .truncated(status, headers, declaredLength, body):
            _ = send(fd, head(status: status, headers: headers, contentLength: declaredLength) + body)
        case let .large(bytes, declareLength):
            let prefix = Array(#"{"pad":""#.utf8)
            guard
                send(
                    fd,
                    head(
                        status: 200, headers: ["Content-Type": "application/json"],
                        contentLength: declareLength ? bytes : nil) + prefix)
            else { return }
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 64 << 10)
            var remaining = bytes - prefix.count
            while remaining > 0 && !isStopped {
                guard send(fd, Array(chunk.prefix(remaining))) else { return }
                remaining -= min(remaining, chunk.count)
            }
        case let .slowLoris(body, interval, trickleHead):
            let headBytes = head(status: 200, headers: ["Content-Type": "application/json"], contentLength: body.count)
            let dripped = trickleHead ? headBytes + body : body
            if !trickleHead { guard send(fd, headBytes) else { return } }
            for byte in dripped {
                guard send(fd, [byte]), !clientHungUp(fd, within: interval) else { return }
            }
        case .hangUp:
            return
        }
    }

    /// Waits up to `seconds` (in 100 ms steps, noticing `stop()`); true once the client has
    /// closed its end or the server stopped.
    private func clientHungUp(_ fd: Int32, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var scratch = [UInt8](repeating: 0, count: 512)
        while Date() < deadline {
            if isStopped { return true }
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, 100)
            if ready > 0 {
                if pollFD.revents & Int16(POLLHUP | POLLERR) != 0 { return true }
                if recv(fd, &scratch, scratch.count, Int32(MSG_DONTWAIT)) <= 0 { return true }
            }
        }
        return false
    }

    private func adding(_ headers: [String: String], to route: FXTestServer.Route) -> FXTestServer.Route {
        switch route {
        case let .respond(status, existing, body):
            return .respond(status: status, headers: existing.merging(headers) { old, _ in old }, body: body)
        default:
            return route
        }
    }

    private func head(status: Int, headers: [String: String], contentLength: Int?) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason(status))\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        if let contentLength { text += "Content-Length: \(contentLength)\r\n" }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8)
    }

    private func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 404: "Not Found"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    /// Sends everything (MSG_NOSIGNAL: a client that hung up must not kill the process).
    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}
