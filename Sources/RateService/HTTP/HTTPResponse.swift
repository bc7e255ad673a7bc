/// A complete HTTP response as `HTTPClient` returns it: 2xx or 304, body fully read.
public struct HTTPResponse: Sendable, Equatable {
    /// Status code of the final response (after redirects).
    public var status: Int
    /// Header names lowercased; repeated headers joined with ", ".
    public var headers: [String: String]
    /// Body bytes after content decoding (gzip is undone by libcurl). Empty for 304.
    public var body: [UInt8]
    /// The URL that produced this response, after redirects. Unmasked: do not print it.
    public var url: String

    public init(status: Int, headers: [String: String] = [:], body: [UInt8], url: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// 304: the caller's cached copy (matching the validators it sent) is still current.
    public var isNotModified: Bool { status == 304 }

    /// `ETag` and `Last-Modified` of this response, to store with the data it carries.
    public var validators: ResponseValidators {
        ResponseValidators(etag: headers["etag"], lastModified: headers["last-modified"])
    }
}
