#ifndef WEBIMAGE_CMICROHTTPD_SHIM_H
#define WEBIMAGE_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <errno.h>
#include <microhttpd.h>

// Swift cannot call C variadic functions (MHD_start_daemon, MHD_get_connection_info), so the
// calls WebImageHTTPServer needs are spelled out here as static inline functions; so are the
// epoll calls of its hang-up watch (`struct epoll_event` is packed on x86-64, and Glibc's Swift
// module has no <sys/epoll.h>).

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

/// A new epoll set (close-on-exec), or -1 with errno.
static inline int webimage_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

/// A new event counter (non-blocking, close-on-exec) that wakes an epoll waiter when written,
/// or -1 with errno.
static inline int webimage_wake_descriptor(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

/// Makes `fd` (an event counter) readable: its epoll waiter wakes.
static inline void webimage_wake(int fd) {
    uint64_t one = 1;
    ssize_t written = write(fd, &one, sizeof one);
    (void)written;
}

/// Adds `fd` to the epoll set `epoll_fd`, reported once (EPOLLONESHOT) with `token` when its peer
/// hangs up: the end of its stream (EPOLLRDHUP), a hang-up or an error (EPOLLHUP and EPOLLERR,
/// always reported). Data to read is not asked for: a pipelined request is no hang-up.
/// Returns 0, or -1 with errno.
static inline int webimage_epoll_watch_hang_up(int epoll_fd, int fd, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = EPOLLRDHUP | EPOLLONESHOT;
    event.data.u64 = token;
    return epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event);
}

/// Adds `fd` to the epoll set `epoll_fd`, reported with `token` while it is readable
/// (level-triggered): the wake pipe of the set's waiter. Returns 0, or -1 with errno.
static inline int webimage_epoll_watch_readable(int epoll_fd, int fd, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = EPOLLIN;
    event.data.u64 = token;
    return epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event);
}

/// Removes `fd` from the epoll set `epoll_fd`. Returns 0, or -1 with errno.
static inline int webimage_epoll_unwatch(int epoll_fd, int fd) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    return epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, &event);
}

/// Waits up to `timeout_ms` (-1: forever) on the epoll set `epoll_fd` and writes the tokens of
/// at most `capacity` ready descriptors to `tokens`. Returns their number, 0 on a timeout or an
/// interruption (EINTR), or -1 with errno. (`struct epoll_event` is packed on x86-64: read here,
/// not in Swift.)
static inline int webimage_epoll_wait_tokens(int epoll_fd, uint64_t *tokens, int capacity, int timeout_ms) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(epoll_fd, events, capacity, timeout_ms);
    if (count < 0) return errno == EINTR ? 0 : -1;
    for (int index = 0; index < count; index++) tokens[index] = events[index].data.u64;
    return count;
}

#endif
