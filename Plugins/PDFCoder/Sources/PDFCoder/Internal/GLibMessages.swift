import CPoppler
import Foundation
import WebImageCore

/// GLib's log messages (poppler-glib's, GObject's) and poppler's own error messages kept out of
/// standard error and handed to the decode that caused them.
///
/// Installed once, before the first document is read: a default handler
/// (`g_log_set_default_handler`) that records each message with the thread it came from. A
/// render's error then carries the messages its thread logged (``take(for:)``). The handler that
/// was there before is called after ours unless it is GLib's own (which prints to standard
/// error), so an app's handler, or the other vector plug-in's, still sees every message.
/// Structured log calls (`g_log_structured`) do not go through handlers and are not caught;
/// poppler-glib makes none.
///
/// poppler's core reports syntax errors through its own callback, which prints to standard
/// error by default; poppler-glib has no call to change it, so the C++ function
/// `setErrorCallback` is found by its (Itanium ABI) symbol in libpoppler and given a recorder.
/// When the symbol is not there (another ABI), poppler's messages still reach standard error.
enum GLibMessages {
    /// The most messages kept (older ones are dropped).
    static let capacity = 64

    private static let messages = Locked<[(thread: UInt, text: String)]>([])
    /// The handler that was there before ours (`nil`: GLib's own, which prints).
    private static let previous = Locked<GLogFunc?>(nil)

    /// Installs the handler (once; later reads are free).
    static let installed: Bool = {
        let handler: GLogFunc = { domain, level, message, _ in
            let text = "\(domain.map { String(cString: $0) } ?? "GLib"): \(message.map { String(cString: $0) } ?? "")"
            GLibMessages.record(text)
            let next = GLibMessages.previous.withLock { $0 }
            next?(domain, level, message, nil)
        }
        let old = g_log_set_default_handler(handler, nil)
        installPopplerCallback()
        let glibOwn = unsafeBitCast(g_log_default_handler as GLogFunc, to: UnsafeRawPointer.self)
        if let old, unsafeBitCast(old, to: UnsafeRawPointer.self) != glibOwn {
            // `gpointer` user data of the old handler is not returned by GLib: handlers that
            // need theirs are installed with g_log_set_handler, which this does not replace.
            previous.withLock { $0 = old }
        }
        return true
    }()

    /// poppler's `void setErrorCallback(void (*)(ErrorCategory, Goffset, const char *))`.
    private typealias PopplerErrorCallback = @convention(c) (Int32, Int64, UnsafePointer<CChar>?) -> Void
    private typealias SetErrorCallback = @convention(c) (PopplerErrorCallback?) -> Void

    private static func installPopplerCallback() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "_Z16setErrorCallbackPFv13ErrorCategoryxPKcE") else { return }
        let set = unsafeBitCast(symbol, to: SetErrorCallback.self)
        set { _, position, message in
            let text = message.map { String(cString: $0) } ?? ""
            GLibMessages.record(position >= 0 ? "poppler: \(text) (at byte \(position))" : "poppler: \(text)")
        }
    }

    /// The calling thread's identity.
    static var currentThread: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    private static func record(_ text: String) {
        let thread = currentThread
        messages.withLock { list in
            list.append((thread, text))
            if list.count > capacity { list.removeFirst(list.count - capacity) }
        }
    }

    /// Removes and returns the messages `thread` logged, oldest first.
    static func take(for thread: UInt) -> [String] {
        messages.withLock { list in
            let mine = list.filter { $0.thread == thread }.map(\.text)
            list.removeAll { $0.thread == thread }
            return mine
        }
    }
}
