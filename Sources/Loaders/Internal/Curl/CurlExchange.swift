import CCurl
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import WebImageCore

/// One HTTP request and its response on one libcurl easy handle: one hop of a download
/// (redirects are followed by the owner, one exchange per hop, so that every `Location` is
/// checked before it is requested).
///
/// The callbacks (header, write, open-socket) run on the ``CurlEventLoop`` thread, with an
/// unretained pointer to the exchange as their context: the loop holds the exchange while its
/// handle is on the multi handle. The response head is handed to the owner when its body
/// starts (or when the exchange ends without a body), so a 401 that libcurl answers itself
/// with credentials, or a `100 Continue`, never reaches the owner.
///
/// `@unchecked Sendable`: created on any thread, then touched only on the loop thread.
final class CurlExchange: @unchecked Sendable {
    /// What to send and how.
    struct Request: Sendable {
        var url: URL
        var method = "GET"
        var headers: [(name: String, value: String)] = []
        var body: Data?
        /// Answered to a Basic challenge only (libcurl asks without them first).
        var credential: (user: String, password: String)?
        /// `CURLOPT_ACCEPT_ENCODING` (libcurl then decodes); `nil`: `Accept-Encoding: identity`.
        var acceptEncoding: String?
        /// `CURLOPT_MAXFILESIZE_LARGE`: declared lengths above it are refused at the headers.
        var maximumBodySize: Int64
        var verifiesPeer = true
        var caFile: String?
        var caDirectory: String?
        var resolve: [String] = []
        /// Judges every address libcurl connects to (direct connections).
        var addressGuard: AddressGuard?
        /// `CURLOPT_PROXY`: a proxy URL, or "" to ignore the environment's; `nil` leaves
        /// libcurl's default (the environment's proxies).
        var proxy: String?
        /// Judges the target before a request through an explicit proxy (``TargetCheck``).
        var targetGuard: AddressGuard?
        /// What ``TargetCheck`` found for this hop, set before the exchange starts.
        var targetCheck: TargetCheck.Outcome?
        var idleTimeout: Duration
        var deadline: ContinuousClock.Instant?
        var prefersHTTP2 = true
    }

    /// How an exchange ended.
    enum Ending: Sendable {
        /// The response is complete.
        case finished
        /// libcurl failed with `code`; the text is libcurl's error buffer, if any.
        case failed(CURLcode, String?)
        /// Cancelled by the owner.
        case cancelled
        /// Nothing arrived for the idle timeout.
        case idleTimeout
        /// The total deadline passed.
        case totalTimeout
    }

    /// What the owner does with a response's body.
    enum BodyDisposition: Sendable {
        /// Pass it to ``CurlExchangeOwner/exchange(_:didReceive:)``.
        case deliver
        /// Read and drop it (a redirect's body), up to 1 MiB.
        case discard
        /// Stop the exchange (a refused response).
        case refuse
    }

    /// Set on creation; ``setTargetCheck(_:)`` completes it before the exchange starts.
    private(set) var request: Request
    private let owner: any CurlExchangeOwner

    // Loop-thread state.
    private(set) var handle: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var resolveList: UnsafeMutablePointer<curl_slist>?
    private var connectToList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var parsing: (status: Int, version: String, fields: [(name: String, value: String)])?
    private var head: CurlResponseHead?
    private var headDelivered = false
    private var disposition = BodyDisposition.deliver
    private var discarded = 0
    private var headerBytes = 0
    private var lastActivity = ContinuousClock.now
    private var ended = false
    /// Set by the address guard when it refused a connection.
    private(set) var guardRefusal: String?
    /// The HTTP version libcurl used (`CURLINFO_HTTP_VERSION`), read when the exchange ends.
    private(set) var httpVersion: String?
    /// The connections libcurl opened for the exchange (`CURLINFO_NUM_CONNECTS`): 0 when it
    /// reused one.
    private(set) var newConnections = 0

    init(request: Request, owner: any CurlExchangeOwner) {
        self.request = request
        self.owner = owner
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if let handle { curl_easy_cleanup(handle) }
        curl_slist_free_all(headerList)
        curl_slist_free_all(resolveList)
        curl_slist_free_all(connectToList)
        errorBuffer.deallocate()
    }

    // MARK: Loop thread

    /// Configures an easy handle: `reused` (one of an ended exchange, reset) or a new one.
    /// `nil` (after reporting the failure) if libcurl refuses; the handle, if any, is then
    /// still the exchange's, for ``releaseHandle()``.
    func prepare(reusing reused: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let handle = reused ?? curl_easy_init() else {
            complete(.failed(CURLE_FAILED_INIT, "curl_easy_init failed"))
            return nil
        }
        self.handle = handle
        lastActivity = .now
        switch request.targetCheck {
        case .refused(let refusal)?:
            guardRefusal = refusal
            complete(.failed(CURLE_COULDNT_CONNECT, "refused before the request: \(refusal)"))
            return nil
        case .unresolved(let reason)?:
            complete(.failed(CURLE_COULDNT_RESOLVE_HOST, reason))
            return nil
        case .pinned, nil:
            break
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        var failures: [String] = []
        func check(_ code: CURLcode, _ what: String) {
            if code != CURLE_OK { failures.append("\(what): \(String(cString: curl_easy_strerror(code)))") }
        }
        check(wi_curl_set_string(handle, CURLOPT_URL, request.url.absoluteString), "URL")
        check(wi_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"), "protocols")
        check(wi_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"), "redirect protocols")
        check(wi_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0), "follow location")
        check(wi_curl_set_long(handle, CURLOPT_NOSIGNAL, 1), "no signal")
        check(wi_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "error buffer")
        // libcurl allocates this receive buffer once per handle (handles are reused): below
        // glibc's 128 KiB mmap threshold it comes from the heap. 100 KiB is the curl tool's own
        // size; in the download benchmark 16, 32 and 64 KiB cost more CPU per MB (more receive
        // calls) and 256 and 512 KiB no less.
        check(wi_curl_set_long(handle, CURLOPT_BUFFERSIZE, 100 * 1024), "buffer size")
        check(wi_curl_set_write_function(handle, CURLOPT_WRITEFUNCTION, curlExchangeWrite), "write function")
        check(wi_curl_set_pointer(handle, CURLOPT_WRITEDATA, context), "write data")
        check(wi_curl_set_write_function(handle, CURLOPT_HEADERFUNCTION, curlExchangeHeader), "header function")
        check(wi_curl_set_pointer(handle, CURLOPT_HEADERDATA, context), "header data")
        check(wi_curl_set_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maximumBodySize)), "maximum file size")
        let connectMilliseconds = max(1, request.idleTimeout.components.seconds * 1000 + request.idleTimeout.components.attoseconds / 1_000_000_000_000_000)
        check(wi_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(connectMilliseconds)), "connect timeout")
        check(wi_curl_set_long(handle, CURLOPT_HTTP_VERSION, request.prefersHTTP2 ? Int(CURL_HTTP_VERSION_2TLS) : Int(CURL_HTTP_VERSION_1_1)), "HTTP version")
        // Wait for a connection that may multiplex (HTTP/2) rather than open another, on https
        // only: over http, waiting would hold every download behind the first one's response.
        let secure = request.url.scheme?.lowercased() == "https"
        check(wi_curl_set_long(handle, CURLOPT_PIPEWAIT, secure && request.prefersHTTP2 ? 1 : 0), "pipe wait")
        check(wi_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, request.verifiesPeer ? 1 : 0), "verify peer")
        check(wi_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, request.verifiesPeer ? 2 : 0), "verify host")
        if let caFile = request.caFile { check(wi_curl_set_string(handle, CURLOPT_CAINFO, caFile), "CA file") }
        if let caDirectory = request.caDirectory { check(wi_curl_set_string(handle, CURLOPT_CAPATH, caDirectory), "CA directory") }
        if let encoding = request.acceptEncoding {
            check(wi_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, encoding), "accept encoding")
        }
        var headers = request.headers
        if request.acceptEncoding == nil, !headers.contains(where: { CurlResponseHead.same($0.name, "Accept-Encoding") }) {
            headers.append(("Accept-Encoding", "identity"))
        }
        // An empty value removes a header libcurl would add; "Name;" sends it empty.
        for (name, value) in headers {
            headerList = curl_slist_append(headerList, value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        check(wi_curl_set_slist(handle, CURLOPT_HTTPHEADER, headerList), "headers")
        switch request.method.uppercased() {
        case "GET": break
        case "HEAD": check(wi_curl_set_long(handle, CURLOPT_NOBODY, 1), "HEAD")
        default: check(wi_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method), "method")
        }
        if let body = request.body {
            check(wi_curl_set_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)), "body size")
            body.withUnsafeBytes { bytes in
                check(wi_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(errorBuffer))), "body")
            }
        }
        if let credential = request.credential {
            check(wi_curl_set_string(handle, CURLOPT_USERNAME, credential.user), "user name")
            check(wi_curl_set_string(handle, CURLOPT_PASSWORD, credential.password), "password")
            check(wi_curl_set_auth(handle, wi_curl_auth_basic_only()), "authentication")
        }
        for entry in request.resolve { resolveList = curl_slist_append(resolveList, entry) }
        if resolveList != nil { check(wi_curl_set_slist(handle, CURLOPT_RESOLVE, resolveList), "resolve") }
        if let proxy = request.proxy {
            check(wi_curl_set_string(handle, CURLOPT_PROXY, proxy), "proxy")
            // An explicit proxy carries every request (the environment's no_proxy ignored).
            if !proxy.isEmpty { check(wi_curl_set_string(handle, CURLOPT_NOPROXY, ""), "no proxy") }
        }
        if case .pinned(let entry)? = request.targetCheck {
            // The CONNECT goes to the address the guard checked, not to the name.
            check(wi_curl_set_long(handle, CURLOPT_HTTPPROXYTUNNEL, 1), "proxy tunnel")
            connectToList = curl_slist_append(connectToList, entry)
            check(wi_curl_set_slist(handle, CURLOPT_CONNECT_TO, connectToList), "connect to")
        }
        // Always: the callback opens every socket close-on-exec, and runs the address guard if any.
        check(wi_curl_set_opensocket_function(handle, curlExchangeOpenSocket), "open-socket function")
        check(wi_curl_set_pointer(handle, CURLOPT_OPENSOCKETDATA, context), "open-socket data")
        guard failures.isEmpty else {
            complete(.failed(CURLE_FAILED_INIT, "libcurl refused the request's options (\(failures.joined(separator: "; ")))"))
            return nil
        }
        return handle
    }

    /// Completes the request with the target check of a hop through a proxy; called before
    /// the exchange is started on the loop (which orders it before the loop thread's reads).
    func setTargetCheck(_ outcome: TargetCheck.Outcome) {
        request.targetCheck = outcome
    }

    /// The deadline that has passed at `now`, if any; of two, the one that passed first (so
    /// that a late check of the loop reports the same timeout as a timely one).
    func deadlineEnding(at now: ContinuousClock.Instant) -> Ending? {
        let idle = lastActivity + request.idleTimeout
        if let deadline = request.deadline, now >= deadline, deadline <= idle { return .totalTimeout }
        if now >= idle { return .idleTimeout }
        return nil
    }

    /// The next moment a deadline could pass.
    var nextDeadline: ContinuousClock.Instant? {
        let idle = lastActivity + request.idleTimeout
        guard let deadline = request.deadline else { return idle }
        return min(idle, deadline)
    }

    /// The exchange is off the multi handle: tells the owner, once.
    func complete(_ ending: Ending) {
        guard !ended else { return }
        ended = true
        // libcurl refuses a declared length past CURLOPT_MAXFILESIZE_LARGE as soon as it reads
        // the field: the head so far is the one to judge.
        if head == nil, let parsing, parsing.status >= 200 {
            head = CurlResponseHead(url: request.url, statusCode: parsing.status, httpVersion: parsing.version, fields: parsing.fields)
        }
        if !headDelivered, let head {
            headDelivered = true
            disposition = owner.exchange(self, didReceiveHead: head)
        }
        if let handle {
            var version = 0
            if wi_curl_get_long(handle, CURLINFO_HTTP_VERSION, &version) == CURLE_OK {
                httpVersion = switch version {
                case Int(CURL_HTTP_VERSION_1_0): "HTTP/1.0"
                case Int(CURL_HTTP_VERSION_1_1): "HTTP/1.1"
                case Int(CURL_HTTP_VERSION_2_0): "HTTP/2"
                case Int(CURL_HTTP_VERSION_3): "HTTP/3"
                default: nil
                }
            }
            var connects = 0
            if wi_curl_get_long(handle, CURLINFO_NUM_CONNECTS, &connects) == CURLE_OK { newConnections = connects }
        }
        var ending = ending
        if case .failed(let code, nil) = ending {
            let text = String(cString: errorBuffer)
            ending = .failed(code, text.isEmpty ? nil : text)
        }
        owner.exchange(self, didEndWith: ending, head: head)
    }

    /// Gives up the easy handle (off the multi handle, the exchange complete), for the loop to
    /// reset and reuse or clean up.
    func releaseHandle() -> UnsafeMutableRawPointer? {
        defer { handle = nil }
        return handle
    }

    /// A header line (status line, field, or the blank line that ends a head).
    fileprivate func header(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = .now
        headerBytes += bytes.count
        // Heads in a row (1xx, auth retries) count together; far more than any image server sends.
        guard headerBytes <= 1 << 20 else { return false }
        // Byte by byte: Foundation's trimming was a visible cost per response.
        func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 }
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        if line.starts(with: "HTTP/".utf8) {
            let text = String(decoding: line, as: UTF8.self)
            let parts = text.split(separator: " ", maxSplits: 2)
            let status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            parsing = (status, String(parts.first ?? "HTTP/1.1"), [])
            head = nil
            headDelivered = false
        } else if line.isEmpty {
            if let parsing, parsing.status >= 200 {
                head = CurlResponseHead(url: request.url, statusCode: parsing.status, httpVersion: parsing.version, fields: parsing.fields)
            }
            parsing = nil
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")), parsing != nil {
            var start = colon + 1
            while start < line.count, isSpace(line[start]) { start += 1 }
            var stop = line.count
            while stop > start, isSpace(line[stop - 1]) { stop -= 1 }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<colon]), as: UTF8.self)
            let value = String(decoding: UnsafeRawBufferPointer(rebasing: line[start..<stop]), as: UTF8.self)
            parsing?.fields.append((name, value))
        }
        return true
    }

    /// A piece of the body (decoded, when decoding is on).
    fileprivate func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = .now
        if !headDelivered {
            headDelivered = true
            guard let head else { return false }
            disposition = owner.exchange(self, didReceiveHead: head)
        }
        switch disposition {
        case .deliver:
            return owner.exchange(self, didReceive: bytes)
        case .discard:
            discarded += bytes.count
            return discarded <= 1 << 20
        case .refuse:
            return false
        }
    }

    /// The address guard's check of the address libcurl is about to connect to, then the
    /// socket (close-on-exec: a process the application spawns does not inherit it).
    ///
    /// The address is read with its real length (`addrlen`) from the bytes libcurl gave, not
    /// through the 16-byte `sockaddr` field Swift sees: libcurl's `curl_sockaddr` ends in a
    /// `sockaddr_storage`-sized union, so an IPv6 address runs past that field.
    fileprivate func openSocket(purpose: curlsocktype, address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let family = address.pointee.family
        if let addressGuard = request.addressGuard {
            let offset = MemoryLayout<curl_sockaddr>.offset(of: \.addr) ?? 16
            let length = min(Int(address.pointee.addrlen), MemoryLayout<sockaddr_storage>.size)
            let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(address) + offset, count: length)
            if let refusal = addressGuard.refusal(for: bytes) {
                guardRefusal = refusal
                return CURL_SOCKET_BAD
            }
        }
        return Self.openSocket(family: family, type: address.pointee.socktype, protocol: address.pointee.protocol)
    }

    /// `socket(2)` with `SOCK_CLOEXEC`.
    static func openSocket(family: Int32, type: Int32, protocol: Int32) -> curl_socket_t {
        socket(family, type | Int32(SOCK_CLOEXEC.rawValue), `protocol`)
    }
}

/// libcurl's write callback: the context is the ``CurlExchange``. Returning less than the
/// bytes given aborts the transfer (`CURLE_WRITE_ERROR`).
private func curlExchangeWrite(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { return 0 }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    let total = size * count
    return exchange.write(UnsafeRawBufferPointer(start: data, count: total)) ? total : 0
}

/// libcurl's header callback, one line at a time.
private func curlExchangeHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { return 0 }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    let total = size * count
    return exchange.header(UnsafeRawBufferPointer(start: data, count: total)) ? total : 0
}

/// libcurl's open-socket callback: the address guard, if any, then a close-on-exec socket.
private func curlExchangeOpenSocket(_ context: UnsafeMutableRawPointer?, _ purpose: curlsocktype, _ address: UnsafeMutablePointer<curl_sockaddr>?) -> curl_socket_t {
    guard let context, let address else { return CURL_SOCKET_BAD }
    return Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue().openSocket(purpose: purpose, address: address)
}
