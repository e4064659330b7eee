public import Foundation

/// Rewrites a request's options and context before it starts (SDWebImage's
/// `SDWebImageOptionsProcessor`), for example to add `retryFailed` to every request of a host.
public protocol OptionsProcessor: Sendable {
    /// The options and context to use for `url`, or `nil` to keep them as they are.
    func processedOptions(for url: URL, options: WebImageOptions, context: WebImageContext) -> OptionsProcessorResult?
}

/// Options and context after an ``OptionsProcessor``.
public struct OptionsProcessorResult: Sendable {
    /// The options the request runs with.
    public var options: WebImageOptions
    /// The context the request runs with.
    public var context: WebImageContext
    /// A result with the given options and context.
    public init(options: WebImageOptions, context: WebImageContext) {
        self.options = options
        self.context = context
    }
}

/// An options processor made of a closure.
public struct ClosureOptionsProcessor: OptionsProcessor {
    private let body: @Sendable (URL, WebImageOptions, WebImageContext) -> OptionsProcessorResult?
    /// A processor that calls `body` with each request's URL, options and context.
    public init(_ body: @escaping @Sendable (URL, WebImageOptions, WebImageContext) -> OptionsProcessorResult?) { self.body = body }
    public func processedOptions(for url: URL, options: WebImageOptions, context: WebImageContext) -> OptionsProcessorResult? {
        body(url, options, context)
    }
}

extension OptionsProcessor where Self == ClosureOptionsProcessor {
    /// `.closure { url, options, context in ... }`
    public static func closure(_ body: @escaping @Sendable (URL, WebImageOptions, WebImageContext) -> OptionsProcessorResult?) -> ClosureOptionsProcessor {
        ClosureOptionsProcessor(body)
    }
}
