import Foundation
import Testing
import WebImageCore

/// ``AnimatedImage``: lazy decoding, the bounded LRU buffer, preloading, errors, concurrency;
/// and ``WebImage`` over an animated image.
@Suite struct AnimatedImageTests {
    /// A provider of solid frames (frame `i` has the color ``color(of:)``) that counts how many
    /// times each frame was decoded, and can be told to fail on some frames.
    final class SolidFrameProvider: AnimatedImageProvider {
        let animatedImageData: Data
        let format: ImageFormat
        let pixelSize: PixelSize
        let frameCount: Int
        let loopCount: Int?
        /// Frames whose decoding throws ``WebImageError/Code/badImageData``.
        let failingFrames: Set<Int>
        private let decodeCounts = Locked<[Int: Int]>([:])

        init(
            frameCount: Int,
            width: Int = 4,
            height: Int = 4,
            loopCount: Int? = 0,
            format: ImageFormat = .gif,
            failingFrames: Set<Int> = [],
            data: Data = Data([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x00, 0x00])
        ) {
            self.animatedImageData = data
            self.format = format
            self.pixelSize = PixelSize(width: width, height: height)
            self.frameCount = frameCount
            self.loopCount = loopCount
            self.failingFrames = failingFrames
        }

        /// A color unique to each frame index below 65536.
        static func color(of index: Int) -> RGBAColor {
            RGBAColor(red: UInt8(truncatingIfNeeded: index), green: UInt8(truncatingIfNeeded: index >> 8), blue: 0x5A, alpha: 255)
        }

        func duration(at index: Int) -> Double { Double(index + 1) / 100 }

        func frame(at index: Int) throws -> Bitmap {
            decodeCounts.withLock { $0[index, default: 0] += 1 }
            guard index >= 0, index < frameCount else {
                throw WebImageError(.invalidArgument, "test provider has no frame \(index)")
            }
            if failingFrames.contains(index) {
                throw WebImageError(.badImageData, "test provider frame \(index) is corrupt")
            }
            return try Bitmap(width: pixelSize.width, height: pixelSize.height, fill: Self.color(of: index))
        }

        /// How many times frame `index` was decoded.
        func decodeCount(of index: Int) -> Int {
            decodeCounts.withLock { $0[index, default: 0] }
        }

        /// How many decodes in all.
        var totalDecodeCount: Int {
            decodeCounts.withLock { $0.values.reduce(0, +) }
        }
    }

    /// Bytes of one 4x4 RGBA8 frame.
    static let frameBytes = 4 * 4 * 4

    static func expectBitmap(_ bitmap: Bitmap, isFrame index: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(bitmap.size == PixelSize(width: 4, height: 4), sourceLocation: sourceLocation)
        #expect(bitmap[0, 0] == SolidFrameProvider.color(of: index), "frame \(index)", sourceLocation: sourceLocation)
        #expect(bitmap[3, 3] == SolidFrameProvider.color(of: index), "frame \(index)", sourceLocation: sourceLocation)
    }

    static func expectError(_ code: WebImageError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("expected WebImageError.\(code)", sourceLocation: sourceLocation)
        } catch let error as WebImageError {
            #expect(error.code == code, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected WebImageError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Creation

    @Test func initDecodesOnlyThePoster() throws {
        let provider = SolidFrameProvider(frameCount: 10, loopCount: 3)
        let image = try AnimatedImage(provider: provider)
        #expect(provider.decodeCount(of: 0) == 1)
        #expect(provider.totalDecodeCount == 1)
        #expect(image.frameCount == 10)
        #expect(image.loopCount == 3)
        #expect(image.pixelSize == PixelSize(width: 4, height: 4))
        #expect(image.durations == (0..<10).map { Double($0 + 1) / 100 })
        #expect(image.maxBufferBytes == AnimatedImage.defaultMaxBufferBytes)
        #expect(AnimatedImage.defaultMaxBufferBytes == 32 << 20)
        Self.expectBitmap(image.posterFrame, isFrame: 0)
        #expect(image.bufferedFrameCount == 1)
        #expect(image.bufferedBytes == Self.frameBytes)
        #expect(image.isAllFramesLoaded == false)
    }

    @Test func posterIsServedWithoutDecoding() throws {
        let provider = SolidFrameProvider(frameCount: 3)
        let image = try AnimatedImage(provider: provider)
        for _ in 0..<5 {
            Self.expectBitmap(try image.frame(at: 0), isFrame: 0)
        }
        #expect(provider.decodeCount(of: 0) == 1)
    }

    @Test func nilLoopCountIsKept() throws {
        let image = try AnimatedImage(provider: SolidFrameProvider(frameCount: 2, loopCount: nil))
        #expect(image.loopCount == nil)
    }

    @Test func zeroFramesThrowsBadImageData() {
        let provider = SolidFrameProvider(frameCount: 0)
        Self.expectError(.badImageData) { _ = try AnimatedImage(provider: provider) }
        #expect(provider.totalDecodeCount == 0)
    }

    @Test func negativeFrameCountThrowsBadImageData() {
        Self.expectError(.badImageData) { _ = try AnimatedImage(provider: SolidFrameProvider(frameCount: -1)) }
    }

    @Test func posterFailureIsThrownFromInit() {
        let provider = SolidFrameProvider(frameCount: 3, failingFrames: [0])
        Self.expectError(.badImageData) { _ = try AnimatedImage(provider: provider) }
    }

    @Test func negativeBufferBoundIsClampedToZero() throws {
        let image = try AnimatedImage(provider: SolidFrameProvider(frameCount: 3), maxBufferBytes: -100)
        #expect(image.maxBufferBytes == 0)
    }

    @Test func singleFrameImageIsFullyLoaded() throws {
        let provider = SolidFrameProvider(frameCount: 1)
        let image = try AnimatedImage(provider: provider)
        #expect(image.isAllFramesLoaded)
        try image.preloadAllFrames()
        #expect(provider.totalDecodeCount == 1)
        #expect(image.bufferedFrameCount == 1)
    }

    // MARK: - Lazy decoding and the buffer

    @Test func framesAreDecodedLazilyAndOnce() throws {
        let provider = SolidFrameProvider(frameCount: 8)
        let image = try AnimatedImage(provider: provider)
        let third = try image.frame(at: 3)
        Self.expectBitmap(third, isFrame: 3)
        #expect(provider.decodeCount(of: 3) == 1)
        #expect(provider.totalDecodeCount == 2)
        for _ in 0..<10 {
            Self.expectBitmap(try image.frame(at: 3), isFrame: 3)
        }
        #expect(provider.decodeCount(of: 3) == 1)
        #expect(image.bufferedFrameCount == 2)
        #expect(image.bufferedBytes == 2 * Self.frameBytes)
        // Other frames are still untouched.
        for index in [1, 2, 4, 5, 6, 7] {
            #expect(provider.decodeCount(of: index) == 0)
        }
    }

    @Test func everyFrameIsRight() throws {
        let provider = SolidFrameProvider(frameCount: 300)
        let image = try AnimatedImage(provider: provider)
        for index in 0..<300 {
            Self.expectBitmap(try image.frame(at: index), isFrame: index)
        }
        #expect(image.bufferedFrameCount == 300)
    }

    @Test func leastRecentlyUsedFrameIsEvicted() throws {
        let provider = SolidFrameProvider(frameCount: 6)
        // Room for three frames besides the poster.
        let image = try AnimatedImage(provider: provider, maxBufferBytes: 3 * Self.frameBytes)
        _ = try image.frame(at: 1)
        _ = try image.frame(at: 2)
        _ = try image.frame(at: 3)
        #expect(image.bufferedFrameCount == 4)
        // Touch 1: now 2 is the least recently used.
        _ = try image.frame(at: 1)
        #expect(provider.decodeCount(of: 1) == 1)
        _ = try image.frame(at: 4)
        #expect(image.bufferedFrameCount == 4)
        #expect(image.bufferedBytes == 4 * Self.frameBytes)
        // 1, 3, 4 are buffered.
        Self.expectBitmap(try image.frame(at: 1), isFrame: 1)
        Self.expectBitmap(try image.frame(at: 3), isFrame: 3)
        Self.expectBitmap(try image.frame(at: 4), isFrame: 4)
        #expect(provider.decodeCount(of: 1) == 1)
        #expect(provider.decodeCount(of: 3) == 1)
        #expect(provider.decodeCount(of: 4) == 1)
        // 2 was evicted: decoded again, which evicts the least recently used (1).
        Self.expectBitmap(try image.frame(at: 2), isFrame: 2)
        #expect(provider.decodeCount(of: 2) == 2)
        _ = try image.frame(at: 1)
        #expect(provider.decodeCount(of: 1) == 2)
    }

    @Test func aBufferSmallerThanOneFrameStillKeepsTheNewestFrame() throws {
        let provider = SolidFrameProvider(frameCount: 4)
        let image = try AnimatedImage(provider: provider, maxBufferBytes: 0)
        _ = try image.frame(at: 1)
        #expect(image.bufferedFrameCount == 2)
        _ = try image.frame(at: 1)
        #expect(provider.decodeCount(of: 1) == 1)
        _ = try image.frame(at: 2)
        #expect(image.bufferedFrameCount == 2)
        #expect(image.bufferedBytes == 2 * Self.frameBytes)
        _ = try image.frame(at: 1)
        #expect(provider.decodeCount(of: 1) == 2)
    }

    @Test("buffered bytes never exceed max(bound, one frame) + poster",
          arguments: [0, 1, 63, 64, 65, 100, 192, 200, 1000, 1 << 20])
    func bufferBound(_ maxBufferBytes: Int) throws {
        let frameCount = 40
        let provider = SolidFrameProvider(frameCount: frameCount)
        let image = try AnimatedImage(provider: provider, maxBufferBytes: maxBufferBytes)
        let limit = max(maxBufferBytes, Self.frameBytes) + Self.frameBytes
        // A deterministic pseudo-random walk over the frames (a linear congruential generator).
        var state: UInt64 = 0x5EED
        for _ in 0..<500 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let index = Int(state >> 33) % frameCount
            Self.expectBitmap(try image.frame(at: index), isFrame: index)
            #expect(image.bufferedBytes <= limit, "after frame \(index)")
            #expect(image.bufferedBytes == image.bufferedFrameCount * Self.frameBytes)
        }
        if maxBufferBytes >= (frameCount - 1) * Self.frameBytes {
            // Everything fits: no frame was decoded twice.
            for index in 0..<frameCount {
                #expect(provider.decodeCount(of: index) <= 1, "frame \(index)")
            }
        }
    }

    @Test func sequentialPlaybackWithABoundedBuffer() throws {
        let provider = SolidFrameProvider(frameCount: 10)
        let image = try AnimatedImage(provider: provider, maxBufferBytes: 4 * Self.frameBytes)
        for _ in 0..<3 {
            for index in 0..<10 {
                Self.expectBitmap(try image.frame(at: index), isFrame: index)
                #expect(image.bufferedBytes <= 5 * Self.frameBytes)
            }
        }
        // A loop longer than the buffer: each non-poster frame is decoded once per pass.
        for index in 1..<10 {
            #expect(provider.decodeCount(of: index) == 3, "frame \(index)")
        }
        #expect(provider.decodeCount(of: 0) == 1)
    }

    // MARK: - Preloading

    @Test func preloadAllFramesDecodesEverythingOnce() throws {
        let provider = SolidFrameProvider(frameCount: 12)
        // The bound would hold only one frame; preloading ignores it.
        let image = try AnimatedImage(provider: provider, maxBufferBytes: Self.frameBytes)
        _ = try image.frame(at: 5)
        try image.preloadAllFrames()
        #expect(image.isAllFramesLoaded)
        #expect(image.bufferedFrameCount == 12)
        #expect(image.bufferedBytes == 12 * Self.frameBytes)
        for index in 0..<12 {
            #expect(provider.decodeCount(of: index) == 1, "frame \(index)")
        }
        for index in 0..<12 {
            Self.expectBitmap(try image.frame(at: index), isFrame: index)
        }
        #expect(provider.totalDecodeCount == 12)
        // Preloading again decodes nothing.
        try image.preloadAllFrames()
        #expect(provider.totalDecodeCount == 12)
    }

    @Test func unloadAllFramesDropsTheBufferAndRestoresTheBound() throws {
        let provider = SolidFrameProvider(frameCount: 6)
        let image = try AnimatedImage(provider: provider, maxBufferBytes: 2 * Self.frameBytes)
        try image.preloadAllFrames()
        #expect(image.isAllFramesLoaded)
        image.unloadAllFrames()
        #expect(image.isAllFramesLoaded == false)
        #expect(image.bufferedFrameCount == 1)
        #expect(image.bufferedBytes == Self.frameBytes)
        Self.expectBitmap(try image.frame(at: 0), isFrame: 0)
        #expect(provider.decodeCount(of: 0) == 1)
        Self.expectBitmap(try image.frame(at: 3), isFrame: 3)
        #expect(provider.decodeCount(of: 3) == 2)
        // The bound applies again.
        for index in 1..<6 {
            _ = try image.frame(at: index)
            #expect(image.bufferedBytes <= 3 * Self.frameBytes)
        }
        #expect(image.bufferedFrameCount == 3)
    }

    @Test func unloadOnAFreshImageIsHarmless() throws {
        let image = try AnimatedImage(provider: SolidFrameProvider(frameCount: 3))
        image.unloadAllFrames()
        #expect(image.bufferedFrameCount == 1)
        Self.expectBitmap(image.posterFrame, isFrame: 0)
    }

    // MARK: - Errors

    @Test("an index out of range throws invalidArgument without decoding", arguments: [-1, 5, 6, 1000, Int.max, Int.min])
    func outOfRange(_ index: Int) throws {
        let provider = SolidFrameProvider(frameCount: 5)
        let image = try AnimatedImage(provider: provider)
        Self.expectError(.invalidArgument) { _ = try image.frame(at: index) }
        #expect(provider.totalDecodeCount == 1)
    }

    @Test func aFrameErrorPropagatesAndIsNotBuffered() throws {
        let provider = SolidFrameProvider(frameCount: 5, failingFrames: [2])
        let image = try AnimatedImage(provider: provider)
        do {
            _ = try image.frame(at: 2)
            Issue.record("expected the provider's error")
        } catch let error as WebImageError {
            #expect(error.code == .badImageData)
            #expect(error.message == "test provider frame 2 is corrupt")
        }
        #expect(image.bufferedFrameCount == 1)
        // Asking again asks the provider again.
        Self.expectError(.badImageData) { _ = try image.frame(at: 2) }
        #expect(provider.decodeCount(of: 2) == 2)
        // The other frames are fine.
        Self.expectBitmap(try image.frame(at: 1), isFrame: 1)
        Self.expectBitmap(try image.frame(at: 3), isFrame: 3)
    }

    @Test func preloadStopsAtTheFirstErrorAndKeepsEarlierFrames() throws {
        let provider = SolidFrameProvider(frameCount: 6, failingFrames: [4])
        let image = try AnimatedImage(provider: provider)
        Self.expectError(.badImageData) { try image.preloadAllFrames() }
        #expect(image.isAllFramesLoaded == false)
        #expect(image.bufferedFrameCount == 4)  // poster + 1, 2, 3
        #expect(provider.decodeCount(of: 5) == 0)
        for index in 1...3 {
            _ = try image.frame(at: index)
            #expect(provider.decodeCount(of: index) == 1, "frame \(index)")
        }
    }

    // MARK: - Concurrency

    @Test("100 concurrent tasks get the right frames", arguments: [0, 3 * 64, 1 << 20])
    func concurrentAccess(_ maxBufferBytes: Int) async throws {
        let frameCount = 17
        let provider = SolidFrameProvider(frameCount: frameCount)
        let image = try AnimatedImage(provider: provider, maxBufferBytes: maxBufferBytes)
        let results = await withTaskGroup(of: (Int, Result<Bitmap, WebImageError>).self) { group in
            for task in 0..<100 {
                group.addTask {
                    let index = (task * 7) % frameCount
                    do {
                        return (index, .success(try image.frame(at: index)))
                    } catch let error as WebImageError {
                        return (index, .failure(error))
                    } catch {
                        return (index, .failure(WebImageError(.badImageData, "unexpected \(error)")))
                    }
                }
            }
            var results: [(Int, Result<Bitmap, WebImageError>)] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results.count == 100)
        for (index, result) in results {
            switch result {
            case .success(let bitmap): Self.expectBitmap(bitmap, isFrame: index)
            case .failure(let error): Issue.record("frame \(index): \(error)")
            }
        }
        // The buffer is consistent: its byte count matches its frames, and stays bounded.
        #expect(image.bufferedBytes == image.bufferedFrameCount * Self.frameBytes)
        #expect(image.bufferedBytes <= max(maxBufferBytes, Self.frameBytes) + Self.frameBytes)
        if maxBufferBytes >= frameCount * Self.frameBytes {
            #expect(image.isAllFramesLoaded)
        }
        #expect(provider.decodeCount(of: 0) == 1)
    }

    @Test func concurrentPreloadAndAccess() async throws {
        let provider = SolidFrameProvider(frameCount: 20)
        let image = try AnimatedImage(provider: provider)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<100 {
                group.addTask {
                    if task % 10 == 0 { try image.preloadAllFrames() }
                    let index = task % 20
                    Self.expectBitmap(try image.frame(at: index), isFrame: index)
                }
            }
            try await group.waitForAll()
        }
        #expect(image.isAllFramesLoaded)
        #expect(image.bufferedBytes == 20 * Self.frameBytes)
    }

    // MARK: - WebImage over an AnimatedImage

    @Test func webImageOverAnAnimatedImage() throws {
        let data = Data((0..<100).map { UInt8($0) })
        let provider = SolidFrameProvider(frameCount: 5, loopCount: 4, format: .webp, data: data)
        let animated = try AnimatedImage(provider: provider, maxBufferBytes: 1 << 20)
        let image = WebImage(animatedImage: animated, scale: 2, metadata: [.decoded, .thumbnail])
        #expect(image.isLazilyAnimated)
        #expect(image.isAnimated)
        #expect(image.frameCount == 5)
        #expect(image.loopCount == 4)
        #expect(image.format == .webp)
        #expect(image.scale == 2)
        #expect(image.metadata == [.decoded, .thumbnail])
        #expect(image.pixelSize == PixelSize(width: 4, height: 4))
        #expect(image.pointSize.width == 2)
        #expect(image.frameDurations == [0.01, 0.02, 0.03, 0.04, 0.05])
        Self.expectBitmap(image.bitmap, isFrame: 0)
        // Nothing but the poster is decoded yet.
        #expect(provider.totalDecodeCount == 1)
        #expect(image.memoryCost == Self.frameBytes + data.count)

        let frame = try image.frame(at: 3)
        Self.expectBitmap(frame.bitmap, isFrame: 3)
        #expect(frame.duration == 0.04)
        #expect(provider.totalDecodeCount == 2)
        #expect(image.memoryCost == 2 * Self.frameBytes + data.count)

        let all = try image.allFrames()
        #expect(all.count == 5)
        for (index, frame) in all.enumerated() {
            Self.expectBitmap(frame.bitmap, isFrame: index)
            #expect(frame.duration == Double(index + 1) / 100)
        }
        #expect(provider.decodeCount(of: 3) == 1)
        #expect(provider.totalDecodeCount == 5)
    }

    @Test func webImageOverAnAnimatedImageOutOfRange() throws {
        let image = WebImage(animatedImage: try AnimatedImage(provider: SolidFrameProvider(frameCount: 3)))
        Self.expectError(.invalidArgument) { _ = try image.frame(at: 3) }
        Self.expectError(.invalidArgument) { _ = try image.frame(at: -1) }
    }

    @Test func webImageOverAnAnimatedImagePropagatesFrameErrors() throws {
        let image = WebImage(animatedImage: try AnimatedImage(provider: SolidFrameProvider(frameCount: 3, failingFrames: [2])))
        Self.expectError(.badImageData) { _ = try image.frame(at: 2) }
        Self.expectError(.badImageData) { _ = try image.allFrames() }
    }

    @Test func webImageOverAnAnimatedImageScaleIsClamped() throws {
        let image = WebImage(animatedImage: try AnimatedImage(provider: SolidFrameProvider(frameCount: 2)), scale: 0)
        #expect(image.scale == 1)
    }

    @Test func firstFrameOnlyOfALazyAnimation() throws {
        let provider = SolidFrameProvider(frameCount: 4, loopCount: 0, format: .gif)
        let image = WebImage(animatedImage: try AnimatedImage(provider: provider), scale: 3)
        let still = image.firstFrameOnly
        #expect(still.isLazilyAnimated == false)
        #expect(still.frameCount == 1)
        #expect(still.loopCount == nil)
        #expect(still.scale == 3)
        #expect(still.format == .gif)
        Self.expectBitmap(still.bitmap, isFrame: 0)
        #expect(still.memoryCost == Self.frameBytes)
        #expect(provider.totalDecodeCount == 1)
    }

    @Test func copiesOfAWebImageShareTheAnimatedBuffer() throws {
        let provider = SolidFrameProvider(frameCount: 3)
        let image = WebImage(animatedImage: try AnimatedImage(provider: provider))
        let copy = image
        _ = try image.frame(at: 1)
        _ = try copy.frame(at: 1)
        #expect(provider.decodeCount(of: 1) == 1)
    }
}
