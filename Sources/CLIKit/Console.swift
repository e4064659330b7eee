import WebImageCore
import WebImageServe
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: lines to standard output, errors to standard error, and on a
/// terminal a progress line that stays at the bottom while lines scroll above it.
///
/// A line is always one line: its control characters, line breaks included, are printed
/// escaped (``StringProtocol/escapingControlCharacters``), so an argument or a URL echoed in it
/// cannot forge another line, move the cursor or clear the screen. Text of several lines (a
/// command's help) goes through ``printText(_:)``.
///
/// Output goes straight to the file descriptors with `write(2)` (no stdio buffering), so lines
/// from concurrent loads never interleave and nothing is lost when the process exits.
/// ``isTerminal`` is `isatty(1)`: when standard output is a pipe or a file, progress lines are
/// dropped and only plain lines are written.
///
/// Thread-safety: every method may be called from any thread; writes are serialized by a lock
/// (no user code runs under it).
final class Console: Sendable {
    /// The process's standard output and standard error.
    static let standard = Console(output: STDOUT_FILENO, errorOutput: STDERR_FILENO)

    /// Whether standard output is a terminal: only then is a progress line shown.
    let isTerminal: Bool
    private let output: Int32
    private let errorOutput: Int32

    private struct State {
        /// The progress line on screen, if any.
        var progressLine: String?
    }

    private let state = Locked(State())

    /// A console over two file descriptors.
    /// - Parameter isTerminal: Default: whether `output` is a terminal.
    init(output: Int32, errorOutput: Int32, isTerminal: Bool? = nil) {
        self.output = output
        self.errorOutput = errorOutput
        self.isTerminal = isTerminal ?? SystemCalls.isTerminal(output)
    }

    /// Writes `line`, its control characters escaped, and a newline to standard output (above
    /// the progress line, if one shows).
    func print(_ line: String) {
        let line = line.escapingControlCharacters
        state.withLock { state in
            if let progress = state.progressLine {
                Self.emit(output, "\r\u{1B}[K" + line + "\n" + progress)
            } else {
                Self.emit(output, line + "\n")
            }
        }
    }

    /// Writes text of several lines (a help text) to standard output: each line as ``print(_:)``
    /// writes it.
    func printText(_ text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            print(String(line))
        }
    }

    /// Writes `line`, its control characters escaped, and a newline to standard error (the
    /// progress line is redrawn after it).
    func printError(_ line: String) {
        let line = line.escapingControlCharacters
        state.withLock { state in
            if state.progressLine != nil { Self.emit(output, "\r\u{1B}[K") }
            Self.emit(errorOutput, line + "\n")
            if let progress = state.progressLine { Self.emit(output, progress) }
        }
    }

    /// Shows `line` as the progress line, replacing the previous one. Does nothing unless
    /// standard output is a terminal.
    func showProgress(_ line: String) {
        guard isTerminal else { return }
        let line = line.escapingControlCharacters
        state.withLock { state in
            guard state.progressLine != line else { return }
            state.progressLine = line
            Self.emit(output, "\r" + line + "\u{1B}[K")
        }
    }

    /// Removes the progress line from the screen.
    func clearProgress() {
        state.withLock { state in
            guard state.progressLine != nil else { return }
            state.progressLine = nil
            Self.emit(output, "\r\u{1B}[K")
        }
    }

    /// Writes `text`; a failure (a closed pipe: the reader is gone) is ignored.
    private static func emit(_ descriptor: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in _ = SystemCalls.writeAll(descriptor, buffer) }
    }
}
