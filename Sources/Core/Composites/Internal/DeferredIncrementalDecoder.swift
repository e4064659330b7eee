import Foundation

/// The incremental decoder of a ``CodersManager``: it cannot know the format before the first
/// bytes arrive, so it picks its member coder then and forwards to that coder's decoder.
final class DeferredIncrementalDecoder: IncrementalImageDecoder {
    private let options: ImageDecodeOptions
    private let pick: @Sendable (Data) -> (any ProgressiveImageCoder)?
    private let inner = Locked<(any IncrementalImageDecoder)?>(nil)

    init(options: ImageDecodeOptions, pick: @escaping @Sendable (Data) -> (any ProgressiveImageCoder)?) {
        self.options = options
        self.pick = pick
    }

    func update(data: Data, finished: Bool) {
        var decoder = inner.withLock { $0 }
        if decoder == nil, let coder = pick(data) {
            let made = coder.makeIncrementalDecoder(options: options)
            decoder = inner.withLock { stored in
                if stored == nil { stored = made }
                return stored
            }
        }
        decoder?.update(data: data, finished: finished)
    }

    func currentImage() -> WebImage? {
        inner.withLock { $0 }?.currentImage()
    }
}
