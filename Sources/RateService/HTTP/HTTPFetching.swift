/// Something that performs a GET: `HTTPClient` in production, a stub in tests of callers.
public protocol HTTPFetching: Sendable {
    /// Fetches `url` and returns a 2xx or 304 response; every other outcome throws.
    ///
    /// - Parameters:
    ///   - headers: extra request headers (name → value).
    ///   - validators: when given, sent as `If-None-Match` / `If-Modified-Since`.
    ///   - maxBodyBytes: overrides the configured body cap for this request (decoded bytes).
    func get(
        url: String, headers: [String: String], validators: ResponseValidators?, maxBodyBytes: Int?
    ) throws(FetchError) -> HTTPResponse
}

extension HTTPFetching {
    /// `get` with no extra headers, no validators and the configured body cap.
    public func get(url: String) throws(FetchError) -> HTTPResponse {
        try get(url: url, headers: [:], validators: nil, maxBodyBytes: nil)
    }
}
