import CMicroHTTPD

/// libmicrohttpd's callbacks. Each gets the ``HTTPServerCore`` as its closure pointer (retained
/// by the running ``HTTPServer`` until the daemon has stopped) and each request's
/// ``HTTPRequestContext`` as the request's pointer (retained from the URI callback to the
/// request-completed callback). Connections are known to the core's ``OpenConnections`` by the
/// address of libmicrohttpd's connection structure, from the started notice to the closed one.
enum MHDCallbacks {
    /// The request line arrived: make the request's context from the raw target.
    static let requestLine: webimage_mhd_uri_callback = { cls, uri, _ in
        guard let cls else { return nil }
        let core = Unmanaged<HTTPServerCore>.fromOpaque(cls).takeUnretainedValue()
        let context = core.requestStarted(target: uri.map { String(cString: $0) } ?? "")
        return Unmanaged.passRetained(context).toOpaque()
    }

    /// Every step of a request: headers, body pieces, the end of the request, the answer.
    static let access: MHD_AccessHandlerCallback = { cls, connection, _, method, _, _, uploadSize, slot in
        guard let cls, let connection, let uploadSize, let slot else { return .NO }
        let core = Unmanaged<HTTPServerCore>.fromOpaque(cls).takeUnretainedValue()
        return core.access(connection: connection, method: method, uploadSize: uploadSize, slot: slot)
    }

    /// The request ended: release its context.
    static let completed: MHD_RequestCompletedCallback = { cls, connection, slot, _ in
        guard let cls else { return }
        let core = Unmanaged<HTTPServerCore>.fromOpaque(cls).takeUnretainedValue()
        if let connection { core.connections.requestEnded(UInt(bitPattern: connection)) }
        guard let slot, let raw = slot.pointee else { return }
        slot.pointee = nil
        let context = Unmanaged<HTTPRequestContext>.fromOpaque(raw).takeRetainedValue()
        core.requestCompleted(context)
    }

    /// A connection was accepted or closed: the core's ``OpenConnections`` follow it.
    static let connection: MHD_NotifyConnectionCallback = { cls, connection, _, notice in
        guard let cls, let connection else { return }
        let core = Unmanaged<HTTPServerCore>.fromOpaque(cls).takeUnretainedValue()
        switch notice {
        case .CONNECTION_NOTIFY_STARTED:
            core.connections.opened(UInt(bitPattern: connection), descriptor: webimage_mhd_connection_fd(connection))
        case .CONNECTION_NOTIFY_CLOSED:
            core.connections.closed(UInt(bitPattern: connection))
        }
    }
}
