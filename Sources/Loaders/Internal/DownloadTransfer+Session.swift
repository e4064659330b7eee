#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import WebImageCore

/// The URLSession side of a transfer: response validation, data, redirects, challenges, end.
extension DownloadTransfer {
    /// Validates the response (after the response modifier). Returns `false` and cancels the
    /// task when it is refused.
    ///
    /// A 401 or 407 with a credential configured is held back instead: URLSession delivers it
    /// before the authentication challenge, and the retry brings the real response. If no retry
    /// replaces it, ``didComplete(error:task:)`` refuses it.
    func didReceive(_ response: URLResponse, task: URLSessionTask) -> Bool {
        if state.withLock({ $0.failure != nil }) {
            // A refused redirect: the task ends by itself.
            return false
        }
        state.withLock { $0.lastActivity = .now }
        storeCookies(from: response)
        var modified: URLResponse? = response
        if let modifier = settings.responseModifier {
            modified = modifier.modifiedResponse(response)
        }
        if let http = modified as? HTTPURLResponse, http.statusCode == 401 || http.statusCode == 407, hasCredential {
            state.withLock { state in
                state.response = http
                state.awaitsAuthentication = true
                state.data = Data()
            }
            return true
        }
        let checked: HTTPURLResponse
        do {
            checked = try validate(modified)
        } catch let error as WebImageError {
            fail(error, task: task)
            return false
        } catch {
            fail(WebImageError(.invalidDownloadResponse, "Invalid response for \(url.absoluteString): \(error)", url: url), task: task)
            return false
        }
        let expected = checked.expectedContentLength > 0 ? checked.expectedContentLength : nil
        let accepted = state.withLock { state -> Bool in
            guard state.failure == nil else { return false }
            state.response = checked
            state.awaitsAuthentication = false
            state.expectedBytes = expected
            state.lastReportedFraction = 0
            state.data = Data()
            if let expected { state.data.reserveCapacity(Int(expected)) }
            return true
        }
        guard accepted else { return false }
        environment.events.emit(.receivedResponse(url: url, response: checked))
        let event = ImageLoaderEvent.progress(receivedBytes: 0, expectedBytes: expected)
        for handler in progressHandlers() { handler(event) }
        return true
    }

    /// Whether a credential is configured for authentication challenges.
    private var hasCredential: Bool {
        let configuration = environment.configuration
        return configuration.urlCredential != nil || (configuration.username != nil && configuration.password != nil)
    }

    /// Stores the cookies a response sets, for `handleCookies` transfers.
    /// (swift-corelibs-foundation 6.3 ignores `URLRequest.httpShouldHandleCookies`, so the
    /// session handles no cookies and the downloader does it per request.)
    func storeCookies(from response: URLResponse) {
        guard let storage = settings.cookieStorage, let http = response as? HTTPURLResponse, let responseURL = http.url else { return }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        let cookies = HTTPCookie.cookies(withResponseHeaderFields: fields, for: responseURL)
        if !cookies.isEmpty { storage.setCookies(cookies, for: responseURL, mainDocumentURL: nil) }
    }

    /// Status, content type and declared size checks.
    private func validate(_ response: URLResponse?) throws -> HTTPURLResponse {
        let configuration = environment.configuration
        guard let response else {
            throw WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) marked as failed: the response modifier returned nil", url: url)
        }
        guard let http = response as? HTTPURLResponse else {
            throw WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) got a response that is not HTTP", url: url)
        }
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
            throw WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) refused: it declares \(http.expectedContentLength) bytes, the limit is \(configuration.maximumResponseSize)", url: url, statusCode: status, contentType: contentType)
        }
        return http
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

    /// Appends a chunk (within the size limit), reports progress, feeds the progressive decoder.
    func didReceive(_ data: Data, task: URLSessionTask) {
        let limit = environment.configuration.maximumResponseSize
        let interval = environment.configuration.minimumProgressInterval
        enum Next { case ignore, tooLarge(Int), progress(received: Int64, expected: Int64?, report: Bool) }
        let next = state.withLock { state -> Next in
            guard state.failure == nil, !state.awaitsAuthentication, !state.isClosed || !state.requesters.isEmpty else { return .ignore }
            state.lastActivity = .now
            guard state.data.count + data.count <= limit else { return .tooLarge(state.data.count + data.count) }
            state.data.append(data)
            let received = Int64(state.data.count)
            var report = true
            if interval > 0, let expected = state.expectedBytes, expected > 0 {
                let fraction = Double(received) / Double(expected)
                if fraction < 1, let last = state.lastReportedFraction, fraction - last < interval {
                    report = false
                } else {
                    state.lastReportedFraction = fraction
                }
            }
            return .progress(received: received, expected: state.expectedBytes, report: report)
        }
        switch next {
        case .ignore:
            return
        case .tooLarge(let size):
            fail(WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) refused: the body passed the limit of \(limit) bytes (\(size) received)", url: url), task: task)
        case .progress(let received, let expected, let report):
            if report {
                let event = ImageLoaderEvent.progress(receivedBytes: received, expectedBytes: expected)
                for handler in progressHandlers() { handler(event) }
            }
            updateProgressive()
        }
    }

    /// Schedules a partial decode of the data so far, if a requester wants partial images;
    /// sets the progressive decoder up first if there is none yet. Called with each chunk, and
    /// when a requester that wants partial images joins a transfer that already has data.
    func updateProgressive() {
        let (candidate, existing) = state.withLock { state -> (DownloadRequester?, ProgressiveFeed?) in
            guard state.phase == .running, !state.data.isEmpty, !state.awaitsAuthentication else { return (nil, nil) }
            if let feed = state.progressive { return (nil, feed) }
            guard !state.progressiveSettled else { return (nil, nil) }
            return (state.requesters.values.filter(\.wantsPartialImages).min { $0.id < $1.id }, nil)
        }
        var feed = existing
        if feed == nil, let candidate {
            feed = makeProgressiveFeed(for: candidate)
        }
        feed?.update(data: { [self] in state.withLock { $0.data } }) { [self] image in
            let event = ImageLoaderEvent.partialImage(image)
            for handler in progressHandlers(partialImagesOnly: true) { handler(event) }
        }
    }

    /// The transfer's one progressive decoder, from the first requester that asked for partial
    /// images: its context's coder (or the downloader's), if that coder is progressive and
    /// claims the data received so far.
    private func makeProgressiveFeed(for requester: DownloadRequester) -> ProgressiveFeed? {
        let bytes = state.withLock { $0.data }
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

    /// Follows a redirect within the limit, to http(s) only.
    func willRedirect(_ response: HTTPURLResponse, to request: URLRequest, task: URLSessionTask) -> URLRequest? {
        let limit = environment.configuration.maximumRedirects
        let count = state.withLock { state -> Int in
            state.redirects += 1
            return state.redirects
        }
        // Refusing a redirect ends the task by itself (the 3xx becomes the response): cancelling
        // it here would crash swift-corelibs-foundation (see cancelTask).
        guard count <= limit else {
            fail(WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) failed: more than \(limit) redirects (the last one to \(request.url?.absoluteString ?? "nowhere"))", url: url, statusCode: response.statusCode), task: task, cancel: false)
            return nil
        }
        guard let scheme = request.url?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            fail(WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) failed: redirect to a URL that is not http(s): \(request.url?.absoluteString ?? "none")", url: url, statusCode: response.statusCode), task: task, cancel: false)
            return nil
        }
        storeCookies(from: response)
        guard let storage = settings.cookieStorage, let target = request.url else { return request }
        var redirected = request
        redirected.setValue(nil, forHTTPHeaderField: "Cookie")
        for (field, value) in HTTPCookie.requestHeaderFields(with: storage.cookies(for: target) ?? []) {
            redirected.setValue(value, forHTTPHeaderField: field)
        }
        return redirected
    }

    /// Answers an authentication challenge: HTTP Basic with the configured credential, once.
    ///
    /// Everything else is refused with `.cancelAuthenticationChallenge` (the held 401/407 then
    /// becomes the error). On swift-corelibs-foundation 6.3, `.performDefaultHandling` without a
    /// proposed credential never completes the task (a hang), and a credential for Digest hits a
    /// `fatalError`; server-trust challenges do not exist there (no Security framework, so
    /// `allowInvalidSSLCertificates` has no effect on Linux).
    func answer(_ challenge: URLAuthenticationChallenge) -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        let configuration = environment.configuration
        let method = challenge.protectionSpace.authenticationMethod
        #if !canImport(FoundationNetworking)
        guard method != NSURLAuthenticationMethodServerTrust else {
            return (.performDefaultHandling, nil)
        }
        #endif
        var credential = configuration.urlCredential
        if credential == nil, let user = configuration.username, let password = configuration.password {
            credential = URLCredential(user: user, password: password, persistence: .forSession)
        }
        let isBasic = method == NSURLAuthenticationMethodHTTPBasic || method.caseInsensitiveCompare("Basic") == .orderedSame
        guard isBasic, challenge.previousFailureCount == 0, let credential else {
            return (.cancelAuthenticationChallenge, nil)
        }
        return (.useCredential, credential)
    }

    /// The task ended: fails or processes the transfer, then frees its scheduler slot.
    ///
    /// The slot is freed only once every requester has been resumed (SDWebImage's operation
    /// finishes after its completion blocks), so with one slot a later download never starts,
    /// and never completes, before an earlier one's completion has run. An abandoned transfer
    /// (no requester left) frees it at once.
    func didComplete(error: (any Error)?, task: URLSessionTask) {
        enum Outcome { case abandoned(ProgressiveFeed?), failure(WebImageError), success(Data, HTTPURLResponse?) }
        let outcome = state.withLock { state -> Outcome in
            state.task = nil
            if state.isClosed && state.requesters.isEmpty {
                state.phase = .finished
                return .abandoned(state.progressive)
            }
            state.phase = .processing
            if let failure = state.failure { return .failure(failure) }
            if state.awaitsAuthentication, let response = state.response {
                let message = "Download of \(url.absoluteString) failed with HTTP status \(response.statusCode): authentication required, and the configured credential was refused or not asked for"
                return .failure(WebImageError(.invalidDownloadStatusCode, message, url: url, statusCode: response.statusCode, contentType: response.mimeType?.lowercased()))
            }
            if let error = error as? URLError, error.code == .timedOut { return .failure(mapped(error)) }
            let received = Int64(state.data.count)
            let identity = (state.response?.value(forHTTPHeaderField: "Content-Encoding")).map { $0.lowercased() == "identity" } ?? true
            if let expected = state.expectedBytes, identity, received < expected {
                return .failure(WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) is truncated: received \(received) of \(expected) bytes", underlyingError: URLError(.networkConnectionLost), url: url, statusCode: state.response?.statusCode))
            }
            if let error { return .failure(mapped(error)) }
            return .success(state.data, state.response)
        }
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

    /// A URLSession error as a ``WebImageError`` naming the URL, with the `URLError` underneath.
    func mapped(_ error: any Error) -> WebImageError {
        guard let urlError = error as? URLError else {
            return WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) failed: \(error)", underlyingError: error, url: url)
        }
        switch urlError.code {
        case .cancelled:
            return WebImageError(.cancelled, "Download of \(url.absoluteString) was cancelled", underlyingError: urlError, url: url)
        case .timedOut:
            return WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) timed out: no data for \(Int(environment.timeoutSeconds)) s", underlyingError: urlError, url: url)
        case .httpTooManyRedirects:
            return WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) failed: too many redirects", underlyingError: urlError, url: url)
        default:
            let reason = urlError.userInfo[NSLocalizedDescriptionKey] as? String ?? urlError.localizedDescription
            return WebImageError(.invalidDownloadResponse, "Download of \(url.absoluteString) failed: \(reason) (URLError \(urlError.code.rawValue))", underlyingError: urlError, url: url)
        }
    }
}
