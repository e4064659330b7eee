import CCairoGLib
import Foundation
import WebImageCore

/// GLib's log messages (librsvg's, poppler-glib's, GIO's, GObject's) and poppler's own error
/// messages kept out of standard error and handed to the decode that caused them.
///
/// Installed once per process, before the first document is read (by whichever plug-in comes
/// first): a default handler (`g_log_set_default_handler`) that records each message with the
/// thread it came from. A render's error then carries the messages its thread logged
/// (``take(for:)``). The handler that was there before is called after ours unless it is GLib's
/// own (which prints to standard error), so an app's handler still sees every message.
/// Structured log calls (`g_log_structured`) do not go through handlers and are not caught;
/// librsvg 2.54 and poppler-glib make none. poppler-glib hands poppler's own syntax errors to
/// GLib's log (domain `Poppler`), so they are recorded too (a read's error carries them:
/// "Poppler: Syntax error at position ...").
public enum GLibMessages {
    /// The most messages kept (older ones are dropped).
    public static let capacity = 64

    /// The recorded messages with the thread each came from, oldest first.
    private static let messages = Locked<[(thread: UInt, text: String)]>([])
    /// The handler that was there before ours (`nil`: GLib's own, which prints).
    private static let previous = Locked<GLogFunc?>(nil)

    /// Installs the handler (once; later reads are free).
    public static let installed: Bool = {
        let handler: GLogFunc = { domain, level, message, _ in
            let text = "\(domain.map { String(cString: $0) } ?? "GLib"): \(message.map { String(cString: $0) } ?? "")"
            GLibMessages.record(text)
            let next = GLibMessages.previous.withLock { $0 }
            next?(domain, level, message, nil)
        }
        let old = g_log_set_default_handler(handler, nil)
        let glibOwn = unsafeBitCast(g_log_default_handler as GLogFunc, to: UnsafeRawPointer.self)
        if let old, unsafeBitCast(old, to: UnsafeRawPointer.self) != glibOwn {
            // `gpointer` user data of the old handler is not returned by GLib: handlers that
            // need theirs are installed with g_log_set_handler, which this does not replace.
            previous.withLock { $0 = old }
        }
        return true
    }()

    /// The calling thread's identity.
    public static var currentThread: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    /// Records `text` for the calling thread, dropping the oldest past ``capacity``.
    private static func record(_ text: String) {
        let thread = currentThread
        messages.withLock { list in
            list.append((thread, text))
            if list.count > capacity { list.removeFirst(list.count - capacity) }
        }
    }

    /// Removes and returns the messages `thread` logged, oldest first.
    public static func take(for thread: UInt) -> [String] {
        messages.withLock { list in
            let mine = list.filter { $0.thread == thread }.map(\.text)
            list.removeAll { $0.thread == thread }
            return mine
        }
    }
}
