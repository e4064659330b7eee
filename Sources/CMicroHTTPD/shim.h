#ifndef WEBIMAGE_CMICROHTTPD_SHIM_H
#define WEBIMAGE_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

// Swift cannot call C variadic functions (MHD_start_daemon, MHD_get_connection_info), so the
// calls WebImageHTTPServer needs are spelled out here as static inline functions.

/// The callback MHD calls with each request's target before it parses or unescapes it
/// (MHD_OPTION_URI_LOG_CALLBACK); what it returns becomes the request's context.
typedef void *(*webimage_mhd_uri_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// MHD_OPTION_UNESCAPE_CALLBACK that keeps every escape: the path reaches the handler exactly
/// as the client sent it (a thumbor signature is computed over the raw path).
static inline size_t webimage_mhd_keep_escapes(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls;
    (void)connection;
    return strlen(text);
}

/// Starts a daemon on an already listening socket `listen_fd`, with the request-completed,
/// URI and connection callbacks (all get `cls`), no unescaping, and the given limits. A
/// `thread_count` over 1 asks for a thread pool; a `timeout_seconds` of 0 means no idle timeout;
/// a `per_client_limit` of 0 means no limit on the connections of one client address.
static inline struct MHD_Daemon *webimage_mhd_start_daemon(
    unsigned int flags,
    int listen_fd,
    MHD_AccessHandlerCallback handler,
    MHD_RequestCompletedCallback completed,
    webimage_mhd_uri_callback uri_callback,
    MHD_NotifyConnectionCallback connection_callback,
    void *cls,
    unsigned int thread_count,
    unsigned int connection_limit,
    unsigned int per_client_limit,
    unsigned int timeout_seconds,
    size_t connection_memory_limit
) {
    struct MHD_OptionItem options[12];
    unsigned int count = 0;
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_SOCKET, (intptr_t)listen_fd, NULL };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, cls };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_callback, cls };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)connection_callback, cls };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)&webimage_mhd_keep_escapes, NULL };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, (intptr_t)connection_limit, NULL };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)per_client_limit, NULL };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)timeout_seconds, NULL };
    if (connection_memory_limit > 0)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)connection_memory_limit, NULL };
    if (thread_count > 1)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)thread_count, NULL };
    options[count] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The peer's address of `connection`, or NULL.
static inline const struct sockaddr *webimage_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// The socket of `connection`, or -1.
static inline int webimage_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

#endif
