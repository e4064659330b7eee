import WebImageCore

/// The progress of several loads at once, drawn as a ``ProgressBar`` on the console's progress
/// line (on a terminal only): images finished, and bytes received over every load.
///
/// Thread-safety: loads report from any thread; the counts sit behind a lock, and the line is
/// drawn under it so that an older line never replaces a newer one. Redraws are limited to
/// one per 50 ms unless an image finished.
final class TransferProgress: Sendable {
    private struct State {
        var bar: ProgressBar
        var received: [Int: Int64] = [:]
        var expected: [Int: Int64?] = [:]
        var lastDraw: ContinuousClock.Instant?
    }

    private let console: Console
    private let state: Locked<State>

    /// Progress over `total` images, drawn on `console`.
    init(total: Int, console: Console) {
        self.console = console
        self.state = Locked(State(bar: ProgressBar(totalImages: total)))
    }

    /// Draws the bar at zero.
    func start() {
        state.withLock { state in draw(&state, force: true) }
    }

    /// Load `index` has received `received` of `expected` bytes.
    func update(index: Int, received: Int64, expected: Int64?) {
        state.withLock { state in
            state.received[index] = received
            state.expected[index] = expected
            recount(&state)
            draw(&state, force: false)
        }
    }

    /// Load `index` ended (with an image or an error).
    func finish(index: Int) {
        state.withLock { state in
            state.bar.finishedImages += 1
            draw(&state, force: true)
        }
    }

    /// Removes the bar.
    func end() {
        console.clearProgress()
    }

    private func recount(_ state: inout State) {
        state.bar.receivedBytes = state.received.values.reduce(0, +)
        let expected = state.expected.values
        state.bar.expectedBytes = expected.contains(where: { $0 == nil }) ? nil : expected.reduce(0) { $0 + ($1 ?? 0) }
    }

    private func draw(_ state: inout State, force: Bool) {
        guard console.isTerminal else { return }
        let now = ContinuousClock.now
        if !force, let last = state.lastDraw, now - last < .milliseconds(50) { return }
        state.lastDraw = now
        console.showProgress(state.bar.line)
    }
}
