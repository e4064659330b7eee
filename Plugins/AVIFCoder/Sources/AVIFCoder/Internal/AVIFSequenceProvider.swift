import Foundation
import WebImageCore
import WebImageColor

/// Random access to the frames of an AVIF image sequence (or a still, seen as one frame): the
/// container is parsed once; frames are decoded by libavif on demand (random access restarts at
/// the nearest keyframe, as `avifDecoderNthImage` does; the next frame continues from the last),
/// then resampled (Lanczos-3, Core's resampler) when the options ask for a thumbnail or a
/// scale-down.
///
/// Thread-safety: the decoder sits in a `Locked` (Core's mutex); frames decode under it, so
/// concurrent callers take turns.
final class AVIFSequenceProvider: AnimatedImageProvider {
    let animatedImageData: Data
    let format = ImageFormat.avif
    let pixelSize: PixelSize
    let frameCount: Int
    /// libavif 0.11 does not read a repetition count (the `edts` box of later versions): a
    /// sequence of more than one frame plays forever (0), a still states none (`nil`).
    let loopCount: Int?
    let hasAlpha: Bool
    /// The size the frames are decoded at, before any resampling.
    let displayedSize: PixelSize
    private let statedDurations: [Double]
    private let handle: Locked<AVIFDecoderHandle>

    /// Parses `data` and checks the limits (see ``AVIFDecoderHandle/init(data:options:threads:)``).
    init(data: Data, options: ImageDecodeOptions, threads: Int) throws {
        let handle = try AVIFDecoderHandle(data: data, options: options, threads: threads)
        animatedImageData = data
        frameCount = handle.frameCount
        loopCount = handle.frameCount > 1 ? 0 : nil
        hasAlpha = handle.hasAlpha
        displayedSize = handle.displayedSize
        statedDurations = handle.statedDurations
        pixelSize = options.targetPixelSize(for: handle.displayedSize, frameCount: handle.frameCount)
        color = handle.color
        self.handle = Locked(handle)
    }

    /// Whether frames come out smaller than the image.
    var isThumbnail: Bool { pixelSize != displayedSize }

    /// The frames' colour: converted from the file's colour profile (ICC or `nclx`) to sRGB,
    /// or the profile kept.
    let color: ColorPlan

    func statedDuration(at index: Int) -> Double {
        guard index >= 0, index < frameCount else { return 0 }
        return statedDurations[index]
    }

    /// The stated duration; a frame that states none (0) shows for 100 ms.
    func duration(at index: Int) -> Double {
        guard index >= 0, index < frameCount else { return 0 }
        let stated = statedDurations[index]
        return stated > 0 ? stated : 0.1
    }

    func frame(at index: Int) throws -> Bitmap {
        guard index >= 0, index < frameCount else {
            throw WebImageError(.invalidArgument, "frame index \(index) is outside 0..<\(frameCount)")
        }
        let bitmap = try handle.withLock { handle in try handle.decodeFrame(index) }
        if bitmap.size == pixelSize { return bitmap }
        return try bitmap.resampled(to: pixelSize, filter: .lanczos3)
    }
}
