import CCurl
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import WebImageCore

/// The libcurl side of a transfer: the request of each hop, response validation, the body
/// within the size limit, redirects, and the end. The ``CurlExchangeOwner`` methods run on the
/// downloader's ``CurlEventLoop`` thread.
extension DownloadTransfer: CurlExchangeOwner {
    // MARK: Requests

    /// The request of the first hop: the settings' `URLRequest` and the configuration's
    /// transport options.
    func firstHop(deadline: ContinuousClock.Instant?) -> CurlExchange.Request {
        let configuration = environment.configuration
        let request = settings.request
        var hop = CurlExchange.Request(
            url: request.url ?? url,
            maximumBodySize: Int64(configuration.maximumResponseSize),
            idleTimeout: environment.idleTimeout
        )
        hop.method = request.httpMethod ?? "GET"
        hop.body = request.httpBody
        hop.headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        if let cookies = settings.cookies, let target = request.url {
            hop.headers.removeAll { $0.name.caseInsensitiveCompare("Cookie") == .orderedSame }
            if let header = cookies.header(for: target) { hop.headers.append(("Cookie", header)) }
        }
        hop.credential = environment.credential
        let encodings = configuration.acceptedContentEncodings
        hop.acceptEncoding = encodings.isEmpty ? nil : encodings.map(\.rawValue).joined(separator: ", ")
        hop.verifiesPeer = settings.verifiesCertificates
        hop.caFile = configuration.caCertificateFile
        hop.caDirectory = configuration.caCertificateDirectory
        hop.resolve = configuration.resolveOverrides
        let addressGuard = configuration.refusesNonPublicAddresses ? AddressGuard(allowing: configuration.allowedNonPublicAddresses) : nil
        if let proxy = configuration.proxy {
            // The connection is the proxy's: the target is checked before each hop instead.
            hop.proxy = proxy.absoluteString
            hop.targetGuard = addressGuard
        } else {
            // Without an explicit proxy, the guard keeps the environment's out ("" disables them).
            hop.proxy = addressGuard == nil ? nil : ""
            hop.addressGuard = addressGuard
        }
        hop.deadline = deadline
        hop.prefersHTTP2 = configuration.usesHTTP2
        return hop
    }

    /// The request of the hop after a redirect from `previous` to `target`: the method per
    /// the status, and no credentials, `Authorization`, `Proxy-Authorization` or `Cookie`
    /// field for another origin (the cookie store adds the target's own cookies).
    private func nextHop(after previous: CurlExchange.Request, to target: URL, status: Int) -> CurlExchange.Request {
        var hop = previous
        hop.url = target
        hop.targetCheck = nil
        if status == 303 || ((status == 301 || status == 302) && previous.method.uppercased() == "POST") {
            hop.method = previous.method.uppercased() == "HEAD" ? "HEAD" : "GET"
            hop.body = nil
        }
        let first = settings.request.url ?? url
        let sameOrigin = Self.origin(of: target) == Self.origin(of: first)
        var dropped: Set<String> = ["cookie"]
        if !sameOrigin {
            dropped.formUnion(["authorization", "proxy-authorization"])
            hop.credential = nil
        } else {
            hop.credential = environment.credential
        }
        hop.headers.removeAll { dropped.contains($0.name.lowercased()) }
        if let cookies = settings.cookies, let header = cookies.header(for: target) {
            hop.headers.append(("Cookie", header))
        }
        return hop
    }

    /// Starts an exchange on the event loop; a hop through an explicit proxy with the address
    /// guard on has its target checked first, on a thread of its own (`getaddrinfo` blocks).
    /// `cancelNow`: the transfer was abandoned while it started.
    func launch(_ exchange: CurlExchange, cancelNow: Bool = false) {
        let loop = environment.loop
        guard let targetGuard = exchange.request.targetGuard else {
            loop.start(exchange)
            if cancelNow { loop.cancel(exchange) }
            return
        }
        // A serial queue of its own runs on Dispatch's overcommitting pool: a slow lookup never
        // holds a thread of DispatchQueue.global(), which on Linux is Swift's concurrency pool.
        DispatchQueue(label: "SwiftWebImage.targetCheck").async { [self] in
            let request = exchange.request
            exchange.setTargetCheck(TargetCheck.run(url: request.url, addressGuard: targetGuard, resolveOverrides: request.resolve))
            loop.start(exchange)
            // Started first, then checked: an abandonment while resolving (whose cancel found
            // nothing on the loop) or after it cancels the exchange now.
            if cancelNow || state.withLock({ $0.lifecycle.isAbandoned }) { loop.cancel(exchange) }
        }
    }

    /// Scheme, host (lower case) and port of a URL.
    private static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    // MARK: CurlExchangeOwner

    func exchange(_ exchange: CurlExchange, didReceiveHead head: CurlResponseHead) -> CurlExchange.BodyDisposition {
        guard state.withLock({ $0.failure == nil && $0.exchange === exchange }) else { return .refuse }
        settings.cookies?.store(head.values("Set-Cookie"), from: head.url)
        if [301, 302, 303, 307, 308].contains(head.statusCode), let location = head.value("Location") {
            return redirect(from: head, to: location)
        }
        let checked: AcceptedResponse
        do {
            if settings.responseModifier == nil, let plain = AcceptedResponse(head: head) {
                checked = plain
            } else {
                var modified: URLResponse? = head.response
                if let modifier = settings.responseModifier, let response = modified {
                    modified = modifier.modifiedResponse(response)
                }
                checked = AcceptedResponse(try httpResponse(modified))
            }
            try validate(checked)
        } catch let error as WebImageError {
            fail(error)
            return .refuse
        } catch {
            fail(WebImageError(.invalidDownloadResponse, "Invalid response for \(url.absoluteString): \(error)", url: url))
            return .refuse
        }
        // A decoded body's length is not the declared one.
        let encoding = checked.contentEncoding ?? "identity"
        let expected = checked.expectedContentLength > 0 && encoding == "identity" ? checked.expectedContentLength : nil
        let limit = environment.configuration.maximumResponseSize
        // gzip or deflate the request did not ask for: libcurl decodes only what
        // CURLOPT_ACCEPT_ENCODING names, so the transfer inflates it (browsers and curl do).
        let decoder = exchange.request.acceptEncoding == nil ? ContentDecoder(contentEncoding: checked.contentEncoding) : nil
        let accepted = state.withLock { state -> Bool in
            guard state.failure == nil else { return false }
            state.response = checked
            state.decoder = decoder
            state.expectedBytes = expected
            state.lastReportedFraction = 0
            state.body = BodyBuffer(pool: environment.buffers, expected: expected.map { Int(min($0, Int64(limit))) })
            return true
        }
        guard accepted else { return .refuse }
        environment.events.emitIfObserved { [url] in checked.response.map { .receivedResponse(url: url, response: $0) } }
        let event = ImageLoaderEvent.progress(receivedBytes: 0, expectedBytes: expected)
        for handler in progressHandlers() { handler(event) }
        return .deliver
    }

    /// Accepts a redirect (its body is dropped, the next hop starts when it ends) or refuses
    /// it: past the limit, to a scheme other than http(s), or from https to http unless allowed.
    private func redirect(from head: CurlResponseHead, to location: String) -> CurlExchange.BodyDisposition {
        let configuration = environment.configuration
        let limit = configuration.maximumRedirects
        let count = state.withLock { state -> Int in
            state.redirects += 1
            return state.redirects
        }
        let target = URL(string: location, relativeTo: head.url)?.absoluteURL
        let refusal: String?
        if count > limit {
            refusal = "more than \(limit) redirects (the last one to \(target?.absoluteString ?? location))"
        } else if let target, let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host?.isEmpty == false {
            if scheme == "http", head.url.scheme?.lowercased() == "https", !configuration.allowsHTTPSDowngrade {
                refusal = "redirect from https to http (\(target.absoluteString)) refused; set allowsHTTPSDowngrade to follow it"
            } else {
                refusal = nil
            }
        } else {
            refusal = "redirect to a URL that is not http(s): \(location)"
        }
        if let refusal {
            fail(WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) failed: \(refusal)", url: url, statusCode: head.statusCode))
            return .refuse
        }
        state.withLock { $0.redirectTarget = (target ?? head.url, head.statusCode) }
        return .discard
    }

    func exchange(_ exchange: CurlExchange, didReceive bytes: UnsafeRawBufferPointer) -> Bool {
        guard let decoder = state.withLock({ $0.decoder }) else { return receive(bytes) }
        do {
            // Each decoded piece (64 KiB at most) is counted against the limit as it appears.
            return try decoder.decode(bytes) { receive($0) }
        } catch {
            fail(undecodable(decoder, error.reason, status: state.withLock { $0.response?.statusCode }))
            return false
        }
    }

    /// The failure of a body sent with a coding it was not asked for that does not decode.
    private func undecodable(_ decoder: ContentDecoder, _ reason: String, status: Int?) -> WebImageError {
        WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) failed: its body, sent with Content-Encoding: \(decoder.coding.rawValue) though identity was asked for, does not decode: \(reason)", underlyingError: URLError(.cannotDecodeContentData), url: url, statusCode: status)
    }

    /// A piece of the body as it is kept (decoded, if it was encoded): counted against the
    /// limit, appended, reported.
    private func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let limit = environment.configuration.maximumResponseSize
        let interval = environment.configuration.minimumProgressInterval
        enum Next { case stop, tooLarge(Int), outOfMemory, progress(received: Int64, expected: Int64?, handlers: [ImageLoaderProgressHandler], progressive: Bool) }
        let next = state.withLock { state -> Next in
            guard state.failure == nil, !state.lifecycle.isAbandoned else { return .stop }
            guard let body = state.body else { return .stop }
            guard body.count + bytes.count <= limit else { return .tooLarge(body.count + bytes.count) }
            // One memcpy, into a buffer sized from the declared length.
            guard body.append(bytes) else { return .outOfMemory }
            let received = Int64(body.count)
            var report = true
            if interval > 0, let expected = state.expectedBytes, expected > 0 {
                let fraction = Double(received) / Double(expected)
                if fraction < 1, let last = state.lastReportedFraction, fraction - last < interval {
                    report = false
                } else {
                    state.lastReportedFraction = fraction
                }
            }
            // The progress handlers and whether a partial decode may be due, read under this
            // one lock (no array and no second lock per chunk when nobody listens).
            let handlers = report ? state.lifecycle.progressHandlers() : []
            let progressive = state.progressive != nil || (!state.progressiveSettled && state.lifecycle.wantsPartialImages)
            return .progress(received: received, expected: state.expectedBytes, handlers: handlers, progressive: progressive)
        }
        switch next {
        case .stop:
            return false
        case .tooLarge(let size):
            fail(WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) refused: the body passed the limit of \(limit) bytes (\(size) received)", underlyingError: URLError(.dataLengthExceedsMaximum), url: url))
            return false
        case .outOfMemory:
            fail(WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) failed: no memory for its body", url: url))
            return false
        case .progress(let received, let expected, let handlers, let progressive):
            if !handlers.isEmpty {
                let event = ImageLoaderEvent.progress(receivedBytes: received, expectedBytes: expected)
                for handler in handlers { handler(event) }
            }
            if progressive { updateProgressive() }
            return true
        }
    }

    func exchange(_ exchange: CurlExchange, didEndWith ending: CurlExchange.Ending, head: CurlResponseHead?) {
        state.withLock { $0.newConnections += exchange.newConnections }
        // A followed redirect: the next hop, unless the transfer was abandoned meanwhile.
        if case .finished = ending {
            let next = state.withLock { state -> CurlExchange? in
                guard state.exchange === exchange, state.failure == nil, let target = state.redirectTarget, let hop = state.hop,
                      !state.lifecycle.isAbandoned else { return nil }
                state.redirectTarget = nil
                state.followedRedirects += 1
                let request = nextHop(after: hop, to: target.url, status: target.status)
                let next = CurlExchange(request: request, owner: self)
                state.hop = request
                state.exchange = next
                return next
            }
            if let next {
                launch(next)
                return
            }
        }
        didComplete(ending, exchange: exchange, head: head)
    }

    // MARK: Validation

    /// The response a response modifier returned, if it is an HTTP one.
    private func httpResponse(_ response: URLResponse?) throws -> HTTPURLResponse {
        guard let response else {
            throw WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) marked as failed: the response modifier returned nil", url: url)
        }
        guard let http = response as? HTTPURLResponse else {
            throw WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) got a response that is not HTTP", url: url)
        }
        return http
    }

    /// Status, content type and declared size checks.
    private func validate(_ http: AcceptedResponse) throws {
        let configuration = environment.configuration
        let status = http.statusCode
        let contentType = http.mimeType?.lowercased()
        if status == 304 {
            throw WebImageError(.cacheNotModified, "Download of \(url.absoluteString): status 304 (not modified)", url: url, statusCode: 304, contentType: contentType)
        }
        guard configuration.acceptableStatusCodes.contains(status) else {
            throw WebImageError(.invalidDownloadStatusCode, "Download of \(url.absoluteString) failed with HTTP status \(status) (acceptable: \(Self.describe(configuration.acceptableStatusCodes)))", url: url, statusCode: status, contentType: contentType)
        }
        if let acceptable = configuration.acceptableContentTypes {
            guard let contentType, Self.contentType(contentType, matchesAnyOf: acceptable) else {
                throw WebImageError(.invalidDownloadContentType, "Download of \(url.absoluteString) has content type \(contentType ?? "(none)"), acceptable: \(acceptable.sorted().joined(separator: ", "))", url: url, statusCode: status, contentType: contentType)
            }
        }
        if http.expectedContentLength > Int64(configuration.maximumResponseSize) {
            throw WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) refused: it declares \(http.expectedContentLength) bytes, the limit is \(configuration.maximumResponseSize)", underlyingError: URLError(.dataLengthExceedsMaximum), url: url, statusCode: status, contentType: contentType)
        }
    }

    static func contentType(_ type: String, matchesAnyOf acceptable: Set<String>) -> Bool {
        acceptable.contains { entry in
            let entry = entry.lowercased()
            if entry == "*/*" || entry == type { return true }
            if entry.hasSuffix("/*") { return type.hasPrefix(entry.dropLast()) }
            return false
        }
    }

    static func describe(_ codes: IndexSet) -> String {
        codes.rangeView.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ")
    }

    // MARK: Progressive

    /// Schedules a partial decode of the data so far, if a requester wants partial images;
    /// sets the progressive decoder up first if there is none yet. Called with each chunk, and
    /// when a requester that wants partial images joins a transfer that already has data.
    func updateProgressive() {
        let (candidate, existing) = state.withLock { state -> (DownloadRequester?, ProgressiveFeed?) in
            guard state.lifecycle.phase == .running, state.body?.isEmpty == false else { return (nil, nil) }
            if let feed = state.progressive { return (nil, feed) }
            guard !state.progressiveSettled else { return (nil, nil) }
            return (state.lifecycle.firstPartialImageRequester, nil)
        }
        var feed = existing
        if feed == nil, let candidate {
            feed = makeProgressiveFeed(for: candidate)
        }
        feed?.update(data: { [self] in state.withLock { $0.body?.snapshot() ?? Data() } }) { [self] image in
            let event = ImageLoaderEvent.partialImage(image)
            for handler in progressHandlers(partialImagesOnly: true) { handler(event) }
        }
    }

    /// The transfer's one progressive decoder, from the first requester that asked for partial
    /// images: its context's coder (or the downloader's), if that coder is progressive and
    /// claims the data received so far.
    private func makeProgressiveFeed(for requester: DownloadRequester) -> ProgressiveFeed? {
        let bytes = state.withLock { $0.body?.snapshot() ?? Data() }
        guard requester.decode.supportsIncrementalDecoding else {
            state.withLock { $0.progressiveSettled = true }
            return nil
        }
        guard let decoder = requester.decode.makeIncrementalDecoder(for: bytes) else {
            // Too few bytes to tell yet: ask again with the next chunk, up to 4 KiB.
            if bytes.count >= 4096 { state.withLock { $0.progressiveSettled = true } }
            return nil
        }
        let made = ProgressiveFeed(decoder: decoder, label: "SwiftWebImage.Downloader.progressive")
        return state.withLock { state in
            state.progressiveSettled = true
            if state.progressive == nil { state.progressive = made }
            return state.progressive
        }
    }

    // MARK: End

    /// The last exchange ended: fails or processes the transfer, then frees its scheduler slot.
    ///
    /// The slot is freed only once every requester has been resumed (SDWebImage's operation
    /// finishes after its completion blocks), so with one slot a later download never starts,
    /// and never completes, before an earlier one's completion has run. An abandoned transfer
    /// (no requester left) frees it at once.
    private func didComplete(_ ending: CurlExchange.Ending, exchange: CurlExchange, head: CurlResponseHead?) {
        enum Outcome { case abandoned(ProgressiveFeed?), failure(WebImageError), success(Data, AcceptedResponse?) }
        func settle(_ state: inout State) -> Outcome {
            state.exchange = nil
            if state.lifecycle.exchangesEnded() { return .abandoned(state.progressive) }
            if let failure = state.failure { return .failure(failure) }
            let received = Int64(state.body?.count ?? 0)
            switch ending {
            case .finished:
                if let head, head.statusCode >= 300, head.statusCode < 400, state.response == nil {
                    // A redirect without a usable Location, taken as the response.
                    return .failure(WebImageError(.invalidDownloadStatusCode, "Download of \(url.absoluteString) failed with HTTP status \(head.statusCode) (a redirect without a Location)", url: url, statusCode: head.statusCode))
                }
                if let expected = state.expectedBytes, received < expected {
                    return .failure(truncated(received: received, expected: expected, status: state.response?.statusCode))
                }
                if let decoder = state.decoder, decoder.receivedBytes > 0, !decoder.isComplete {
                    return .failure(undecodable(decoder, "the body ends before its compressed stream (\(decoder.receivedBytes) bytes received)", status: state.response?.statusCode))
                }
                return .success(state.body?.take() ?? Data(), state.response)
            case .cancelled:
                return .failure(WebImageError(.cancelled, "Download of \(url.absoluteString) was cancelled", underlyingError: URLError(.cancelled), url: url))
            case .idleTimeout:
                return .failure(WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) timed out: no data for \(Self.seconds(environment.timeoutSeconds)) s", underlyingError: URLError(.timedOut), url: url))
            case .totalTimeout:
                let total = environment.configuration.totalTimeout ?? 0
                return .failure(WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) timed out: not complete within the total deadline of \(total) s (\(received) bytes received)", underlyingError: URLError(.timedOut), url: url))
            case .failed(let code, let text):
                if code == CURLE_PARTIAL_FILE, let expected = state.expectedBytes, received < expected {
                    return .failure(truncated(received: received, expected: expected, status: state.response?.statusCode))
                }
                if let refusal = exchange.guardRefusal {
                    return .failure(WebImageError(.invalidDownloadResponse, "Download of \(exchange.request.url.absoluteString) refused: it would connect to \(refusal), and the downloader refuses non-public addresses (refusesNonPublicAddresses)", underlyingError: DownloadAddressRefusal(address: refusal), url: url))
                }
                return .failure(CurlErrors.error(code, text, url: url, hop: exchange.request.url, limit: environment.configuration.maximumResponseSize))
            }
        }
        let (outcome, metrics) = state.withLock { state -> (Outcome, DownloadMetrics) in
            let metrics = DownloadMetrics(httpVersion: head == nil ? nil : exchange.httpVersion, newConnectionCount: state.newConnections, redirectCount: state.followedRedirects)
            let outcome = settle(&state)
            // A body that will not be delivered goes back to the pool now.
            if case .success = outcome {} else { state.body = nil }
            return (outcome, metrics)
        }
        environment.events.emit(.collectedMetrics(url: url, metrics: metrics))
        let scheduler = environment.scheduler
        switch outcome {
        case .abandoned(let feed):
            scheduler.release()
            environment.events.emit(.stopped(url: url))
            environment.table.remove(self)
            if let feed { Task { await feed.close() } }
        case .failure(let error):
            environment.events.emit(.stopped(url: url))
            Task {
                await finishAll(with: error)
                scheduler.release()
            }
        case .success(let data, let response):
            environment.events.emit(.stopped(url: url))
            environment.events.emit(.finished(url: url))
            if finishWithoutDecoding(data, response: response) {
                scheduler.release()
                return
            }
            let priority: TaskPriority = switch settings.priority {
            case .high: .high
            case .normal: .medium
            case .low: .low
            }
            Task(priority: priority) {
                await process(data, response: response)
                scheduler.release()
            }
        }
    }

    /// Seconds as written in messages: `1`, `0.25`.
    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private func truncated(received: Int64, expected: Int64, status: Int?) -> WebImageError {
        WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) is truncated: received \(received) of \(expected) bytes", underlyingError: URLError(.networkConnectionLost), url: url, statusCode: status)
    }
}
