/// What a ``CurlExchange`` reports to, on the ``CurlEventLoop`` thread: a download's transfer.
protocol CurlExchangeOwner: AnyObject, Sendable {
    /// The final response head of the exchange (never a 1xx, nor a 401 libcurl answers itself),
    /// before its body. Returns what to do with the body.
    func exchange(_ exchange: CurlExchange, didReceiveHead head: CurlResponseHead) -> CurlExchange.BodyDisposition
    /// A piece of the body. Returns `false` to abort the exchange (a limit was passed, or the
    /// transfer failed or was abandoned).
    func exchange(_ exchange: CurlExchange, didReceive bytes: UnsafeRawBufferPointer) -> Bool
    /// The exchange ended (the handle is off the multi handle); `head` is its final response
    /// head, if one arrived.
    func exchange(_ exchange: CurlExchange, didEndWith ending: CurlExchange.Ending, head: CurlResponseHead?)
}
