#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// Rewrites or vetoes a download's HTTP request (SDWebImage's `SDWebImageDownloaderRequestModifier`).
public protocol RequestModifier: Sendable {
    /// The request to send instead of `request`, or `nil` to cancel the download with a
    /// ``/WebImageCore/WebImageError/Code/invalidDownloadOperation`` error.
    func modifiedRequest(_ request: URLRequest) -> URLRequest?
}

/// A request modifier made of a closure.
public struct ClosureRequestModifier: RequestModifier {
    private let body: @Sendable (URLRequest) -> URLRequest?
    /// A modifier that calls `body` with each request.
    public init(_ body: @escaping @Sendable (URLRequest) -> URLRequest?) { self.body = body }
    public func modifiedRequest(_ request: URLRequest) -> URLRequest? { body(request) }
}

extension RequestModifier where Self == ClosureRequestModifier {
    /// `.closure { request in ... }`
    public static func closure(_ body: @escaping @Sendable (URLRequest) -> URLRequest?) -> ClosureRequestModifier {
        ClosureRequestModifier(body)
    }

    /// A modifier that adds or replaces HTTP header fields.
    public static func headers(_ fields: [String: String]) -> ClosureRequestModifier {
        ClosureRequestModifier { request in
            var request = request
            for (name, value) in fields { request.setValue(value, forHTTPHeaderField: name) }
            return request
        }
    }
}
