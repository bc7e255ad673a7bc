/// HTTP cache validators of a stored response, sent back for a conditional GET.
///
/// Values are the header values exactly as the server sent them (an ETag keeps its quotes and
/// any `W/` prefix; Last-Modified is an HTTP-date). Both nil means "no validators".
public struct ResponseValidators: Sendable, Hashable, Codable {
    /// `ETag`, sent back as `If-None-Match`.
    public var etag: String?
    /// `Last-Modified`, sent back as `If-Modified-Since`.
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// True when there is nothing to send.
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}
