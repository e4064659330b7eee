public import Foundation
public import WebImageCore
import WebImageCoders

/// The ICO and CUR coder, in Swift over the core's PNG coder (SDWebImage reads icons through
/// ImageIO; this is the Linux counterpart).
///
/// Register it once at launch:
///
/// ```swift
/// CodersManager.shared.add(ICOCoder())
/// ```
///
/// **Decoding.** An icon file holds several images of one picture at different sizes; a decode
/// gives ONE of them, as a still:
/// - the largest entry (by pixels, then by bit depth) by default;
/// - with a thumbnail size (`thumbnailPixelSize`), the smallest entry at least as large as the
///   thumbnail on both sides (the largest when none is), resized to the thumbnail;
/// - a given entry with ``decodeEntry(at:in:options:)``; ``entries(in:)`` lists them (size,
///   depth, PNG or bitmap, a cursor's hotspot). Entries are not frames: they differ in size,
///   and a ``/WebImageCore/WebImage``'s frames share one.
///
/// Entries are PNG (decoded by the core's `PNGCoder`, limits and thumbnails included) or
/// headless BMP: a `BITMAPINFOHEADER` with the height doubled, 1, 4 or 8-bit palette, 24 or
/// 32-bit colour, and the 1-bit AND mask (transparency for every depth but 32-bit with alpha).
/// CUR files (type 2) decode the same way, as ``WebImageCore/ImageFormat/cur``.
///
/// The directory is checked before any entry is read: no entries, more than 512, an entry
/// whose data lies outside the file or inside the directory, entries that overlap, and
/// bitmap sizes over 1024x1024 are refused with ``/WebImageCore/WebImageError/Code/badImageData`` naming
/// the entry; an entry over `maxPixelCount` with ``/WebImageCore/WebImageError/Code/imageTooLarge``.
///
/// **Encoding** writes an ICO of PNG entries: one per size of ``encodedSizes`` (the image scaled,
/// up or down, aspect kept, Lanczos-3, so that its longer side is that size), or, when it is `nil`, one entry of the
/// image itself (fitted into 256x256 when larger). Sides over 256 are clamped to 256, the ICO
/// maximum. `maxPixelSize` applies first.
///
/// Thread-safety: a value with no shared state; call it from any thread, concurrently.
public struct ICOCoder: ImageHeaderReader {
    /// One entry of an icon's directory, as ``ICOCoder/entries(in:)`` lists it.
    public struct Entry: Sendable, Hashable {
        /// The entry's position in the directory.
        public var index: Int
        /// The image's size, from its PNG or bitmap header (the directory's byte can only say
        /// up to 256).
        public var pixelSize: PixelSize
        /// Bits per pixel (a PNG entry: 32).
        public var bitDepth: Int
        /// Whether the entry is a PNG (else a headless BMP).
        public var isPNG: Bool
        /// A cursor entry's hotspot (x, y), `nil` for icons.
        public var hotspot: (x: Int, y: Int)? {
            get { hotspotX.map { ($0, hotspotY ?? 0) } }
            set { hotspotX = newValue?.x; hotspotY = newValue?.y }
        }
        private var hotspotX: Int?
        private var hotspotY: Int?

        init(index: Int, pixelSize: PixelSize, bitDepth: Int, isPNG: Bool, hotspot: (x: Int, y: Int)?) {
            self.index = index
            self.pixelSize = pixelSize
            self.bitDepth = bitDepth
            self.isPNG = isPNG
            self.hotspotX = hotspot?.x
            self.hotspotY = hotspot?.y
        }
    }

    /// The sides of the square entries ``encode(_:as:options:)`` writes (each clamped to 1...256),
    /// or `nil` for one entry of the image's own size.
    public let encodedSizes: [Int]?

    private static let registration: Void = {
        ImageFormat.register(ImageFormatDescriptor(format: .cur, fileExtensions: ["cur"], mimeTypes: ["image/x-win-bitmap"]) { data in
            ICODirectory.sniff(data) == 2 ? ImageFormatDetection(format: .cur) : nil
        })
    }()

    /// Creates the coder (and registers ``WebImageCore/ImageFormat/cur`` for detection).
    /// - Parameter encodedSizes: The sides of the entries to write, e.g. `[16, 32, 48, 256]`;
    ///   `nil` (the default): one entry of the image's size.
    public init(encodedSizes: [Int]? = nil) {
        _ = Self.registration
        self.encodedSizes = encodedSizes.map { sizes in Array(Set(sizes.map { min(256, max(1, $0)) })).sorted() }
    }

    // MARK: Decoding

    /// `true` for data that starts with an icon directory: reserved 0, type 1 (ICO) or 2 (CUR),
    /// a non-zero count.
    public func canDecode(_ data: Data) -> Bool {
        ICODirectory.sniff(data) != nil
    }

    /// The entries of an icon or cursor file, in directory order.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for a malformed directory or entry header.
    public func entries(in data: Data) throws -> [Entry] {
        let directory = try ICODirectory.parse(data)
        return try directory.entries.map { try describe($0, in: data, type: directory.type) }
    }

    private func describe(_ entry: ICODirectory.Entry, in data: Data, type: Int) throws -> Entry {
        let bytes = entryBytes(entry, in: data)
        let hotspot = type == 2 ? (x: entry.planesOrHotspotX, y: entry.bitCountOrHotspotY) : nil
        if Self.isPNG(bytes) {
            guard bytes.count >= 24 else { throw WebImageError(.badImageData, "icon entry \(entry.index) is a PNG of \(bytes.count) bytes, too short for its header") }
            func u32(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
            return Entry(index: entry.index, pixelSize: PixelSize(width: u32(16), height: u32(20)), bitDepth: 32, isPNG: true, hotspot: hotspot)
        }
        let header = try ICOBitmapEntry(bytes, entry: entry.index)
        return Entry(index: entry.index, pixelSize: header.size, bitDepth: header.bitCount, isPNG: false, hotspot: hotspot)
    }

    private func entryBytes(_ entry: ICODirectory.Entry, in data: Data) -> [UInt8] {
        let start = data.startIndex + entry.offset
        return [UInt8](data[start..<(start + entry.byteCount)])
    }

    private static func isPNG(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 8 && bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// Decodes the largest entry, or, for a thumbnail, the smallest entry at least as large.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for a malformed file,
    ///   ``/WebImageCore/WebImageError/Code/imageTooLarge`` over the options' limits.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        let all = try entries(in: data)
        let largest = all.max { a, b in
            let pa = a.pixelSize.pixelCount ?? 0, pb = b.pixelSize.pixelCount ?? 0
            return pa != pb ? pa < pb : a.bitDepth < b.bitDepth
        }!
        var chosen = largest
        if let thumbnail = options.thumbnailPixelSize, !thumbnail.isEmpty {
            let fitting = all.filter { $0.pixelSize.width >= thumbnail.width && $0.pixelSize.height >= thumbnail.height }
            if let nearest = fitting.min(by: { a, b in
                let pa = a.pixelSize.pixelCount ?? 0, pb = b.pixelSize.pixelCount ?? 0
                return pa != pb ? pa < pb : a.bitDepth > b.bitDepth
            }) {
                chosen = nearest
            }
        }
        return try decodeEntry(at: chosen.index, in: data, options: options)
    }

    /// Decodes entry `index` of an icon or cursor file (see ``entries(in:)``), under the options'
    /// limits and thumbnail size.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for a malformed file or an index out of
    ///   range, ``/WebImageCore/WebImageError/Code/imageTooLarge`` over the options' limits.
    public func decodeEntry(at index: Int, in data: Data, options: ImageDecodeOptions = ImageDecodeOptions()) throws -> WebImage {
        let directory = try ICODirectory.parse(data)
        guard directory.entries.indices.contains(index) else {
            throw WebImageError(.badImageData, "icon entry \(index) does not exist (the directory has \(directory.entries.count))")
        }
        let format: ImageFormat = directory.type == 2 ? .cur : .ico
        let bytes = entryBytes(directory.entries[index], in: data)
        if Self.isPNG(bytes) {
            var image = try PNGCoder().decode(Data(bytes), options: options).firstFrameOnly
            image.format = format
            return image
        }
        let header = try ICOBitmapEntry(bytes, entry: index)
        guard let pixels = header.size.pixelCount, pixels <= options.maxPixelCount else {
            throw WebImageError(.imageTooLarge, "icon entry \(index) of \(header.size) is over the limit of \(options.maxPixelCount) pixels per frame")
        }
        var bitmap = try header.decode(bytes)
        let target = options.targetPixelSize(for: bitmap.size)
        var metadata: ImageMetadata = .decoded
        if target != bitmap.size {
            bitmap = try bitmap.resampled(to: target, filter: .lanczos3)
            metadata.insert(.thumbnail)
        }
        return WebImage(bitmap: bitmap, scale: options.scaleFactor, format: format, metadata: metadata)
    }

    // MARK: Properties

    /// The largest entry's size and the file's format (`ico` or `cur`); one frame.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for a malformed directory.
    public func readProperties(of data: Data) throws -> ImageProperties {
        let all = try entries(in: data)
        let largest = all.max { ($0.pixelSize.pixelCount ?? 0, $0.bitDepth) < ($1.pixelSize.pixelCount ?? 0, $1.bitDepth) }!
        let format: ImageFormat = ICODirectory.sniff(data) == 2 ? .cur : .ico
        return ImageProperties(format: format, pixelSize: largest.pixelSize, hasAlpha: true)
    }

    // MARK: Encoding

    /// `true` for ``/WebImageCore/ImageFormat/ico``.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .ico
    }

    /// Encodes `image` (its first frame) as an ICO of PNG entries (see ``encodedSizes``).
    /// - Throws: ``/WebImageCore/WebImageError/Code/unsupportedFormat`` for another format,
    ///   ``/WebImageCore/WebImageError/Code/encodingFailed`` when a PNG entry cannot be made.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard canEncode(to: format) else {
            throw WebImageError(.unsupportedFormat, "ICOCoder cannot encode \(format)")
        }
        let source = try options.fitted(image.bitmap)
        var bitmaps: [Bitmap] = []
        if let encodedSizes {
            for side in encodedSizes {
                bitmaps.append(try Self.scale(source, toFit: side))
            }
        } else {
            bitmaps.append(try Self.fit(source, in: PixelSize(width: 256, height: 256)))
        }
        let png = PNGCoder()
        let payloads = try bitmaps.map { try png.encode(WebImage(bitmap: $0), as: .png, options: ImageEncodeOptions()) }
        var out = Data([0, 0, 1, 0, UInt8(payloads.count & 0xFF), UInt8(payloads.count >> 8)])
        var offset = 6 + 16 * payloads.count
        for (bitmap, payload) in zip(bitmaps, payloads) {
            out.append(UInt8(bitmap.width == 256 ? 0 : bitmap.width))
            out.append(UInt8(bitmap.height == 256 ? 0 : bitmap.height))
            out.append(contentsOf: [0, 0, 1, 0, 32, 0])
            for value in [payload.count, offset] {
                out.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)])
            }
            offset += payload.count
        }
        for payload in payloads { out.append(payload) }
        return out
    }

    /// `bitmap` scaled (up or down, aspect kept) so that its longer side is `side`.
    private static func scale(_ bitmap: Bitmap, toFit side: Int) throws -> Bitmap {
        let longer = Double(max(bitmap.width, bitmap.height))
        let size = PixelSize(width: max(1, Int((Double(bitmap.width) * Double(side) / longer).rounded())),
                             height: max(1, Int((Double(bitmap.height) * Double(side) / longer).rounded())))
        return size == bitmap.size ? bitmap : try bitmap.resampled(to: size, filter: .lanczos3)
    }

    /// `bitmap` fitted into `box` (aspect kept, never enlarged).
    private static func fit(_ bitmap: Bitmap, in box: PixelSize) throws -> Bitmap {
        guard bitmap.width > box.width || bitmap.height > box.height else { return bitmap }
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = box
        return try bitmap.resampled(to: options.targetPixelSize(for: bitmap.size), filter: .lanczos3)
    }
}
