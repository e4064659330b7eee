public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Transforms downloaded data before it is decoded (SDWebImage's
/// `SDWebImageDownloaderDecryptor`): decrypt, unwrap, decode Base64.
public protocol Decryptor: Sendable {
    /// The data to decode instead of `data`, or `nil` to fail the download with a
    /// ``/WebImageCore/WebImageError/Code/badImageData`` error.
    func decryptedData(_ data: Data, response: URLResponse?) -> Data?
}

/// A decryptor made of a closure.
public struct ClosureDecryptor: Decryptor {
    private let body: @Sendable (Data, URLResponse?) -> Data?
    /// A decryptor that calls `body` with the downloaded data and the response.
    public init(_ body: @escaping @Sendable (Data, URLResponse?) -> Data?) { self.body = body }
    public func decryptedData(_ data: Data, response: URLResponse?) -> Data? { body(data, response) }
}

extension Decryptor where Self == ClosureDecryptor {
    /// `.closure { data, response in ... }`
    public static func closure(_ body: @escaping @Sendable (Data, URLResponse?) -> Data?) -> ClosureDecryptor {
        ClosureDecryptor(body)
    }

    /// Decodes Base64 data (SDWebImage's `base64Decryptor`); invalid Base64 fails the download.
    public static var base64: ClosureDecryptor {
        ClosureDecryptor { data, _ in Data(base64Encoded: data, options: .ignoreUnknownCharacters) }
    }
}
