public import Foundation
public import WebImageCore

extension ImageFormat {
    /// The test format of ``RawBitmapCoder``: a plug-in-defined format.
    public static let rawBitmap = ImageFormat(rawValue: "wiraw")
}

/// A real, tiny coder for a plug-in-defined format ("WIRAW": a header and raw RGBA8 frames),
/// used to exercise the coder contract, animated and progressive paths, and the plug-in
/// registration of formats without any C library.
///
/// Layout (little endian): `"WIRAW1\0\0"`, width u32, height u32, frame count u32, loop count
/// i32 (-1: none stated), has-alpha u8, 3 zero bytes; then per frame a duration in ms (u32) and
/// `width * height * 4` pixel bytes.
///
/// It decodes thumbnails by nearest-neighbour sampling, honours the pixel limit from the
/// header before allocating, returns lazily-backed animated images (unless `preloadAllFrames`
/// or `firstFrameOnly`), and decodes partial data row by row.
public struct RawBitmapCoder: ProgressiveImageCoder, AnimatedImageCoder {
    static let magic = Array("WIRAW1\0\0".utf8)
    static let headerSize = 28

    /// A raw bitmap coder.
    public init() {}

    /// Registers ``WebImageCore/ImageFormat/rawBitmap`` (extension "wiraw", MIME "image/x-wiraw") with its
    /// detector. Safe to call more than once.
    public static func registerFormat() {
        ImageFormat.register(ImageFormatDescriptor(format: .rawBitmap, fileExtensions: ["wiraw"], mimeTypes: ["image/x-wiraw"]) { data in
            data.starts(with: magic) ? ImageFormatDetection(format: .rawBitmap, isAnimated: Header(data).map { $0.frameCount > 1 } ?? false) : nil
        })
    }

    struct Header {
        let width: Int
        let height: Int
        let frameCount: Int
        let loopCount: Int?
        let hasAlpha: Bool

        init?(_ data: Data) {
            guard data.count >= RawBitmapCoder.headerSize, data.starts(with: RawBitmapCoder.magic) else { return nil }
            let bytes = [UInt8](data.prefix(RawBitmapCoder.headerSize))
            func u32(_ offset: Int) -> Int {
                Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
            }
            width = u32(8)
            height = u32(12)
            frameCount = u32(16)
            let loop = Int32(bitPattern: UInt32(u32(20)))
            loopCount = loop < 0 ? nil : Int(loop)
            hasAlpha = bytes[24] != 0
        }

        var frameBytes: Int { width * height * 4 }
        func frameOffset(_ index: Int) -> Int { RawBitmapCoder.headerSize + index * (4 + frameBytes) }
    }

    /// Whether `data` starts with the raw bitmap magic.
    public func canDecode(_ data: Data) -> Bool {
        data.starts(with: Self.magic)
    }

    /// Decodes a raw bitmap (thumbnail by nearest neighbour; lazily animated unless asked otherwise).
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        let provider = try RawBitmapProvider(data: data, options: options)
        let metadata: ImageMetadata = provider.pixelSize != provider.sourceSize ? [.decoded, .thumbnail] : .decoded
        if provider.frameCount == 1 || options.firstFrameOnly {
            return WebImage(bitmap: try provider.frame(at: 0), scale: options.scaleFactor, format: .rawBitmap, metadata: metadata)
        }
        return try WebImage(provider: provider, preloadAllFrames: options.preloadAllFrames, scale: options.scaleFactor, metadata: metadata)
    }

    /// Whether `format` is ``WebImageCore/ImageFormat/rawBitmap``.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .rawBitmap
    }

    /// Writes the header and every frame's pixels.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard format == .rawBitmap else {
            throw WebImageError(.unsupportedFormat, "RawBitmapCoder cannot encode \(format)")
        }
        let frameCount = options.firstFrameOnly ? 1 : image.frameCount
        let size = image.pixelSize
        var data = Data(Self.magic)
        func put32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        put32(size.width)
        put32(size.height)
        put32(frameCount)
        put32(frameCount > 1 ? (image.loopCount ?? -1) : -1)
        data.append(contentsOf: [image.hasAlpha ? 1 : 0, 0, 0, 0])
        for index in 0..<frameCount {
            // One frame at a time, as the real encoders read them.
            let frame = options.firstFrameOnly ? ImageFrame(bitmap: image.bitmap) : try image.frame(at: index, buffering: false)
            put32(Int((frame.duration * 1000).rounded()))
            let bitmap = frame.bitmap
            for y in 0..<bitmap.height {
                let start = y * bitmap.bytesPerRow
                data.append(contentsOf: bitmap.bytes[start..<start + bitmap.width * 4])
            }
        }
        return data
    }

    /// A provider that decodes frames from `data` on demand.
    public func makeAnimatedImageProvider(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageProvider {
        try RawBitmapProvider(data: data, options: options)
    }

    /// Whether `data` starts with the raw bitmap magic (a prefix is enough).
    public func canIncrementallyDecode(_ data: Data) -> Bool {
        data.count < Self.magic.count ? Self.magic.starts(with: data) : canDecode(data)
    }

    /// An incremental decoder that shows the complete rows received so far.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoder {
        RawBitmapIncrementalDecoder(options: options)
    }
}

/// Random access to the frames of WIRAW data.
final class RawBitmapProvider: AnimatedImageProvider {
    let animatedImageData: Data
    let format = ImageFormat.rawBitmap
    let pixelSize: PixelSize
    let sourceSize: PixelSize
    let frameCount: Int
    let loopCount: Int?
    private let header: RawBitmapCoder.Header

    init(data: Data, options: ImageDecodeOptions) throws {
        guard !data.isEmpty else { throw WebImageError(.badImageData, "Image data is empty") }
        guard let header = RawBitmapCoder.Header(data) else {
            throw WebImageError(.badImageData, "WIRAW data of \(data.count) bytes has no valid header")
        }
        let source = PixelSize(width: header.width, height: header.height)
        guard !source.isEmpty, header.frameCount >= 1 else {
            throw WebImageError(.badImageData, "WIRAW header says \(source) with \(header.frameCount) frames")
        }
        guard let pixels = source.pixelCount, pixels <= options.maxPixelCount else {
            throw WebImageError(.imageTooLarge, "WIRAW image of \(source) is over the limit of \(options.maxPixelCount) pixels")
        }
        let frames = options.firstFrameOnly ? 1 : header.frameCount
        let needed = header.frameOffset(frames)
        guard data.count >= needed else {
            throw WebImageError(.badImageData, "WIRAW data is truncated: \(frames) frame(s) of \(source) need \(needed) bytes, got \(data.count)")
        }
        self.animatedImageData = data
        self.header = header
        self.sourceSize = source
        self.pixelSize = options.targetPixelSize(for: source, frameCount: frames)
        self.frameCount = frames
        self.loopCount = header.loopCount
    }

    func duration(at index: Int) -> Double {
        guard index >= 0, index < frameCount else { return 0 }
        let offset = header.frameOffset(index)
        let bytes = animatedImageData.dropFirst(offset).prefix(4)
        let value = bytes.enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        return Double(value) / 1000
    }

    func frame(at index: Int) throws -> Bitmap {
        guard index >= 0, index < frameCount else {
            throw WebImageError(.invalidArgument, "frame index \(index) is outside 0..<\(frameCount)")
        }
        let start = animatedImageData.startIndex + header.frameOffset(index) + 4
        let source = [UInt8](animatedImageData[start..<start + header.frameBytes])
        return try RawBitmapProvider.sample(source, from: sourceSize, to: pixelSize, hasAlpha: header.hasAlpha)
    }

    /// Nearest-neighbour resampling (identity when the sizes match).
    static func sample(_ pixels: [UInt8], from source: PixelSize, to target: PixelSize, hasAlpha: Bool) throws -> Bitmap {
        if source == target { return try Bitmap(width: source.width, height: source.height, bytes: pixels, hasAlpha: hasAlpha) }
        var output = [UInt8](repeating: 0, count: target.width * target.height * 4)
        for y in 0..<target.height {
            let sy = y * source.height / target.height
            for x in 0..<target.width {
                let sx = x * source.width / target.width
                let from = (sy * source.width + sx) * 4
                let to = (y * target.width + x) * 4
                output[to..<to + 4] = pixels[from..<from + 4]
            }
        }
        return try Bitmap(width: target.width, height: target.height, bytes: output, hasAlpha: hasAlpha)
    }
}

/// Decodes the rows of frame 0 that have arrived; missing rows are transparent.
final class RawBitmapIncrementalDecoder: IncrementalImageDecoder {
    private let options: ImageDecodeOptions
    private let state = Locked<(data: Data, finished: Bool)>((Data(), false))

    init(options: ImageDecodeOptions) {
        self.options = options
    }

    func update(data: Data, finished: Bool) {
        state.withLock { $0 = (data, finished) }
    }

    func currentImage() -> WebImage? {
        let (data, finished) = state.withLock { $0 }
        if finished, let image = try? RawBitmapCoder().decode(data, options: options) { return image }
        guard let header = RawBitmapCoder.Header(data), header.width > 0, header.height > 0,
              let pixels = PixelSize(width: header.width, height: header.height).pixelCount,
              pixels <= options.maxPixelCount else { return nil }
        let start = RawBitmapCoder.headerSize + 4
        let rowBytes = header.width * 4
        let rows = min(header.height, max(0, data.count - start) / rowBytes)
        guard rows > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: header.frameBytes)
        bytes.replaceSubrange(0..<rows * rowBytes, with: data.dropFirst(start).prefix(rows * rowBytes))
        guard let bitmap = try? Bitmap(width: header.width, height: header.height, bytes: bytes, hasAlpha: true) else { return nil }
        return WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .rawBitmap, metadata: [.decoded, .incremental])
    }
}
