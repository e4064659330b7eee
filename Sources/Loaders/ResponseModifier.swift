#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// Rewrites or vetoes a download's response before it is validated (SDWebImage's
/// `SDWebImageDownloaderResponseModifier`), for example to fix a server's content type.
public protocol ResponseModifier: Sendable {
    /// The response to use instead of `response`, or `nil` to fail the download with a
    /// ``/WebImageCore/WebImageError/Code/invalidDownloadResponse`` error.
    func modifiedResponse(_ response: URLResponse) -> URLResponse?
}

/// A response modifier made of a closure.
public struct ClosureResponseModifier: ResponseModifier {
    private let body: @Sendable (URLResponse) -> URLResponse?
    /// A modifier that calls `body` with each response.
    public init(_ body: @escaping @Sendable (URLResponse) -> URLResponse?) { self.body = body }
    public func modifiedResponse(_ response: URLResponse) -> URLResponse? { body(response) }
}

extension ResponseModifier where Self == ClosureResponseModifier {
    /// `.closure { response in ... }`
    public static func closure(_ body: @escaping @Sendable (URLResponse) -> URLResponse?) -> ClosureResponseModifier {
        ClosureResponseModifier(body)
    }
}
