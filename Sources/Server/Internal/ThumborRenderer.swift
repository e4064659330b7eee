import Foundation
import WebImageCoders
import WebImageCore
import WebImageTransformers

/// Applies a ``ThumborPlan`` and a request's filters to a decoded source, then encodes it:
/// crop, resize, flips, then the filters in the URL's order, with the framework's transformers
/// (``CroppingTransformer``, ``ResizingTransformer``, ``FlippingTransformer``,
/// ``RotationTransformer``, ``BlurTransformer`` for `fill(blur)`) and
/// ``BitmapCompositing`` for thumbor's elliptical corners and `fill(...)`.
///
/// Filters and thumbor:
/// - `blur(r[,s])`: thumbor's kernel of `2r + 1` taps of a Gaussian of deviation `s` (the
///   parser gives the radius as written when `s` is absent or 0), across then down, with its
///   arithmetic (``ThumborConvolution``).
/// - `sharpen`, `equalize`, `noise`, `rgb`, `colorize`, `convolution`, `curve`: thumbor's C
///   filters' arithmetic (`Internal/ThumborFilters/`); `noise` without a seed is seeded from
///   the request's URL (``ThumborNoise/seed(for:)``), so one URL gives one result.
/// - `grayscale()`: Pillow's Rec. 601 luma, as thumbor's PIL engine (``ThumborPixelFilters``).
/// - `rotate(d)`: counter-clockwise by `d` degrees when `d` is a multiple of 90; other angles
///   are ignored, as thumbor ignores them.
/// - `brightness(n)`, `contrast(n)`, `saturation(s)`: thumbor's own arithmetic
///   (``ThumborPixelFilters``).
/// - `round_corner(a|b,r,g,b[,transparent])`: elliptical corners with thumbor's anti-aliasing (``ThumborRoundCorner``).
/// - `fill(color[,transparent])`: the image centred on a canvas of the plan's size (or the
///   requested size, as thumbor); pixels are pasted, or with `transparent` composited onto the
///   fill. A plain colour is also the background JPEG output composites transparency onto.
/// - `background_color(color)`: transparent pixels composited onto the colour.
/// - `watermark(...)`: ``ThumborWatermarkDrawing`` with the loaded image (``filterImages``).
/// - `frame(url)`: ``ThumborNinePatch`` with the loaded nine-patch.
/// - `proportion(p)`: the current image resized (Lanczos) to `p` times its sides, truncated;
///   nothing when a side would be under 1 pixel.
/// - `extract_focal()` (applied by the parser) and `autojpg()` (the output format, chosen by
///   ``OutputFormatChoice/convertingOpaquePNG(_:sourceFormat:rendered:)``) draw nothing.
/// - `format`, `quality`, `max_bytes`, `max_age`, `no_upscale`, `upscale`, `stretch`: the
///   plan's, the encoder's or the response's; an `upscale()` after a filter that draws
///   enlarges where it stands, as thumbor's (the filters before it see the smaller image). `strip_exif()` changes nothing: the encoders
///   write no EXIF. `strip_icc()` drops the colour profile a server that keeps profiles
///   (``/WebImageCore/ColorProfileHandling/keep``) would embed; by default sources are
///   converted to sRGB and outputs carry none.
struct ThumborRenderer: Sendable {
    /// The thumbor request.
    var request: ThumborRequest
    /// Its plan for the source's size.
    var plan: ThumborPlan
    /// The output format.
    var format: ImageFormat
    /// The quality, 0...100.
    var quality: Int
    /// Whether the frames of an animated source are kept (GIF output).
    var keepsAnimation: Bool
    /// The size the plan was made for: the source's full size when the image rendered is a
    /// reduced decode of it (``ShrinkOnLoad``), whose crop is then mapped onto its pixels;
    /// `nil` when the plan was made for the image itself.
    var plannedSourceSize: PixelSize? = nil
    /// When JPEG output is progressive.
    var progressiveJPEG = ProgressiveJPEGMode.automatic
    /// Called on the job's thread after each filter with the number applied so far (a test hook).
    var afterFilter: (@Sendable (Int) -> Void)? = nil
    /// Called on the job's thread when the resize starts from a halved copy (``ReducedOriginals``).
    var onHalvedCopy: (@Sendable () -> Void)? = nil
    /// The images of the `watermark(...)` and `frame(...)` filters, by their URL as written
    /// (loaded by ``FilterSourceLoads``).
    var filterImages: [String: WebImage] = [:]
    /// The largest side a filter may give the image or a watermark (the server's output limit).
    var maximumSide: Int = .max
    /// The region `trim` kept, when the request trims (for `/meta/`'s operations).
    var trimmedRegion: PixelRect? = nil

    /// The transformed image.
    /// - Throws: ``WebImageError`` from a transformer, or ``ServingFailure`` for a filter
    ///   argument the server cannot use.
    func render(_ source: WebImage, reduced: ReducedOriginals? = nil, key: String = "") throws -> WebImage {
        var image = keepsAnimation ? source : source.firstFrameOnly
        var crop = plan.crop
        // thumbor enlarges where `upscale()` stands in the URL: the filters before it see the
        // image at its size before the enlargement.
        let upscaleDeferredFrom = sizeBeforeUpscale(sourceSize: plannedSourceSize ?? image.pixelSize)
        let size = upscaleDeferredFrom ?? plan.size
        if let planned = plannedSourceSize, planned != image.pixelSize, !planned.isEmpty {
            // A reduced decode: the plan's region (the whole source without a crop) in its pixels.
            crop = ShrinkOnLoad.region(crop ?? PixelRect(x: 0, y: 0, size: planned), of: planned, in: image.pixelSize)
        }
        if !image.isAnimated, let reduced,
           let copy = reduced.reduced(image.bitmap, key: key, region: crop ?? PixelRect(x: 0, y: 0, size: image.pixelSize), target: size) {
            // Resample from a halved copy at least as large as the target (see ReducedOriginals).
            onHalvedCopy?()
            let profile = image.colorProfile
            image = WebImage(bitmap: copy.bitmap, scale: image.scale, format: image.format, metadata: image.metadata)
            image.colorProfile = profile
            crop = copy.region
        }
        if let crop, crop.size != image.pixelSize || crop.x != 0 || crop.y != 0 {
            image = try CroppingTransformer(rect: crop, bounds: .clamp).transform(image, forKey: "")
        }
        guard !plan.size.isEmpty else {
            throw ServingFailure(400, "the requested size gives an empty image (\(plan.size))")
        }
        if size != image.pixelSize {
            image = try ResizingTransformer(size: size, mode: .fill).transform(image, forKey: "")
        }
        // A cancelled request's job stops between operations (and the resampler and the blurs
        // between rows): BlockingWorkExecutor.isCurrentJobCancelled.
        try BlockingWorkExecutor.checkCurrentJobCancellation()
        if plan.flipsHorizontally || plan.flipsVertically {
            image = try FlippingTransformer(horizontal: plan.flipsHorizontally, vertical: plan.flipsVertically).transform(image, forKey: "")
        }
        // `noise` draws from one generator per request, seeded from its URL (see ThumborNoise).
        var random = ThumborRandom(seed: ThumborNoise.seed(for: request.signedPart.isEmpty ? String(describing: request) : request.signedPart))
        for (index, filter) in request.filters.enumerated() {
            try BlockingWorkExecutor.checkCurrentJobCancellation()
            if filter == .upscale, upscaleDeferredFrom != nil, image.pixelSize != plan.size {
                image = try ResizingTransformer(size: plan.size, mode: .fill).transform(image, forKey: "")
            }
            image = try apply(filter, to: image, random: &random)
            afterFilter?(index + 1)
        }
        try BlockingWorkExecutor.checkCurrentJobCancellation()
        return image
    }

    /// The size the image has before `upscale()` enlarges it, when a filter that draws on the
    /// pixels comes before `upscale()` in the URL and only filters that keep the size do (the
    /// plan's ``ThumborPlan/size`` includes the enlargement); `nil` otherwise: no enlargement,
    /// or nothing that sees the image before it.
    private func sizeBeforeUpscale(sourceSize: PixelSize) -> PixelSize? {
        let filters = request.filters
        guard let position = filters.firstIndex(of: .upscale), filters.filter({ $0 == .upscale }).count == 1 else { return nil }
        var drawsBefore = false
        for filter in filters[..<position] {
            switch filter {
            case .rotate, .fill, .proportion, .frame:
                return nil
            case .format, .quality, .noUpscale, .stretch, .maxBytes, .maxAge, .stripExif, .stripICC, .extractFocal, .autoJPG:
                break
            default:
                drawsBefore = true
            }
        }
        guard drawsBefore else { return nil }
        var withoutUpscale = request
        withoutUpscale.filters.remove(at: position)
        let before = withoutUpscale.plan(sourceSize: sourceSize, trimmedRegion: trimmedRegion)
        guard before.crop == plan.crop, before.canvas == plan.canvas, before.size != plan.size else { return nil }
        return before.size
    }

    private func apply(_ filter: ThumborFilter, to image: WebImage, random: inout ThumborRandom) throws -> WebImage {
        switch filter {
        case .blur(let radius, let sigma):
            // The parser gives 1...150 (thumbor's PositiveNonZeroNumber and MAX_RADIUS).
            guard radius > 0 else { return image }
            let sigma = sigma.flatMap { $0 != 0 ? $0 : nil } ?? Double(radius)
            let capped = min(radius, ThumborFilterParser.maximumBlurRadius)
            return try FilterTransformer(name: "thumbor.blur") { try ThumborConvolution.blur($0, radius: capped, sigma: sigma) }.transform(image, forKey: "")
        case .sharpen(let amount, let radius, let luminanceOnly):
            return try FilterTransformer(name: "thumbor.sharpen") {
                try ThumborSharpen.apply($0, amount: amount, radius: radius, luminanceOnly: luminanceOnly)
            }.transform(image, forKey: "")
        case .equalize:
            return try FilterTransformer(name: "thumbor.equalize") { ThumborEqualize.apply($0) }.transform(image, forKey: "")
        case .noise(let amount, let seed):
            if let seed { random = ThumborRandom(seed: UInt32(clamping: seed)) }
            // Every frame of an animation gets the same numbers (a frame may be made again).
            let start = random
            random.discard(ThumborNoise.draws(amount: amount, size: image.pixelSize))
            return try FilterTransformer(name: "thumbor.noise") { ThumborNoise.apply($0, amount: amount, random: start) }.transform(image, forKey: "")
        case .rgb(let red, let green, let blue):
            return try FilterTransformer(name: "thumbor.rgb") { ThumborChannelTables.rgb($0, red: red, green: green, blue: blue) }.transform(image, forKey: "")
        case .colorize(let red, let green, let blue, let fill):
            return try FilterTransformer(name: "thumbor.colorize") {
                ThumborChannelTables.colorize($0, red: red, green: green, blue: blue, fill: fill)
            }.transform(image, forKey: "")
        case .convolution(let kernel, let columns, let normalize):
            guard columns > 0, kernel.count % columns == 0, columns % 2 == 1, (kernel.count / columns) % 2 == 1 else {
                throw ServingFailure(400, "convolution: \(kernel.count) items in rows of \(columns) is not an odd number of rows of an odd number of columns")
            }
            return try FilterTransformer(name: "thumbor.convolution") {
                try ThumborConvolution.apply($0, kernel: kernel, columns: columns, normalize: normalize)
            }.transform(image, forKey: "")
        case .curve(let all, let red, let green, let blue):
            return try FilterTransformer(name: "thumbor.curve") {
                ThumborChannelTables.curve($0, all: all, red: red, green: green, blue: blue)
            }.transform(image, forKey: "")
        case .grayscale:
            return try FilterTransformer(name: "thumbor.grayscale") { ThumborPixelFilters.grayscale($0) }.transform(image, forKey: "")
        case .rotate(let degrees):
            guard degrees % 90 == 0 else { return image }
            let normalized = ((degrees % 360) + 360) % 360
            guard normalized != 0 else { return image }
            return try RotationTransformer(angle: Double(normalized) * .pi / 180).transform(image, forKey: "")
        case .roundCorner(let horizontal, let vertical, let color, let transparent):
            return try FilterTransformer(name: "thumbor.round_corner") {
                ThumborRoundCorner.apply($0, horizontal: horizontal, vertical: vertical, color: color, transparent: transparent)
            }.transform(image, forKey: "")
        case .fill(let text, let transparent):
            guard let color = ThumborColor(text) else {
                throw ServingFailure(400, "fill(\(text)): not a colour (a name, hex digits, transparent, auto or blur)")
            }
            return try fill(image, color: color, merging: transparent)
        case .backgroundColor(let text):
            let color: RGBAColor
            switch ThumborColor(text) {
            case .rgba(let rgba)?: color = rgba
            case .transparent?: return image
            case .auto?: color = BitmapCompositing.meanColor(of: image.bitmap)
            case .blur?, nil: throw ServingFailure(400, "background_color(\(text)): not a colour")
            }
            return try FilterTransformer(name: "thumbor.background_color") { ThumborPixelFilters.background($0, color: color) }.transform(image, forKey: "")
        case .brightness(let amount):
            return try FilterTransformer(name: "thumbor.brightness") { ThumborPixelFilters.brightness($0, amount: amount) }.transform(image, forKey: "")
        case .contrast(let amount):
            return try FilterTransformer(name: "thumbor.contrast") { ThumborPixelFilters.contrast($0, amount: amount) }.transform(image, forKey: "")
        case .saturation(let factor):
            guard factor.isFinite else { throw ServingFailure(400, "saturation(\(factor)) is not a finite number") }
            return try FilterTransformer(name: "thumbor.saturation") { ThumborPixelFilters.saturation($0, factor: factor) }.transform(image, forKey: "")
        case .watermark(let watermark):
            let mark = try ThumborWatermarkDrawing.prepared(watermark, mark: filterImage(watermark.source).bitmap, imageSize: image.pixelSize, maximumSide: maximumSide)
            return try FilterTransformer(name: "thumbor.watermark") {
                try ThumborWatermarkDrawing.draw(mark, on: $0, x: watermark.x, y: watermark.y)
            }.transform(image, forKey: "")
        case .frame(let source):
            let ninePatch = try filterImage(source).bitmap
            let framed = ThumborNinePatch.framedSize(of: image.pixelSize, with: ninePatch)
            guard framed.width <= maximumSide, framed.height <= maximumSide else {
                throw ServingFailure(400, "frame(\(source)) would make the image \(framed), over the limit of \(maximumSide) pixels per side")
            }
            return try FilterTransformer(name: "thumbor.frame") { try ThumborNinePatch.frame($0, with: ninePatch) }.transform(image, forKey: "")
        case .proportion(let factor):
            let width = Double(image.pixelSize.width) * factor, height = Double(image.pixelSize.height) * factor
            guard factor > 0, factor <= 1, width >= 1, height >= 1 else { return image }
            let size = PixelSize(width: Int(width), height: Int(height))
            guard size != image.pixelSize else { return image }
            return try ResizingTransformer(size: size, mode: .fill).transform(image, forKey: "")
        case .format, .quality, .noUpscale, .upscale, .stretch, .maxBytes, .maxAge, .stripExif, .stripICC, .extractFocal, .autoJPG:
            return image
        }
    }

    /// The loaded image of a `watermark(...)` or `frame(...)` filter.
    private func filterImage(_ source: String) throws(ServingFailure) -> WebImage {
        guard let image = filterImages[source] else {
            throw ServingFailure(500, "the filter image \(source) was not loaded")
        }
        return image
    }

    /// The canvas size of `fill(...)`: the plan's, else thumbor's (the requested width and
    /// height, a side not given or 0 taking the image's).
    func canvasSize(for image: WebImage) -> PixelSize {
        if let canvas = plan.canvas { return canvas }
        let width = request.width.flatMap { $0 > 0 ? $0 : nil } ?? image.pixelSize.width
        let height = request.height.flatMap { $0 > 0 ? $0 : nil } ?? image.pixelSize.height
        return PixelSize(width: width, height: height)
    }

    private func fill(_ image: WebImage, color: ThumborColor, merging: Bool) throws -> WebImage {
        let canvas = canvasSize(for: image)
        guard !canvas.isEmpty else { return image }
        switch color {
        case .rgba, .transparent:
            let rgba: RGBAColor = if case .rgba(let value) = color { value } else { .clear }
            let background = try Bitmap(width: canvas.width, height: canvas.height, fill: rgba, hasAlpha: rgba.alpha < 255)
            return try FilterTransformer(name: "thumbor.fill") { BitmapCompositing.place($0, on: background, merging: merging) }.transform(image, forKey: "")
        case .auto:
            return try FilterTransformer(name: "thumbor.fill.auto") { bitmap in
                let background = try Bitmap(width: canvas.width, height: canvas.height, fill: BitmapCompositing.meanColor(of: bitmap), hasAlpha: false)
                return BitmapCompositing.place(bitmap, on: background, merging: merging)
            }.transform(image, forKey: "")
        case .blur:
            let blur = BlurTransformer(radius: 50)
            let stretch = ResizingTransformer(size: canvas, mode: .fill)
            return try FilterTransformer(name: "thumbor.fill.blur") { bitmap in
                let still = WebImage(bitmap: bitmap)
                let background = try stretch.transform(blur.transform(still, forKey: ""), forKey: "").bitmap
                return BitmapCompositing.place(bitmap, on: background, merging: merging)
            }.transform(image, forKey: "")
        }
    }

    /// The fill colour, when the filters have a plain-colour `fill(...)`: the background JPEG
    /// output composites transparent pixels onto (white otherwise).
    var backgroundColor: RGBAColor {
        for case .fill(let text, _) in request.filters.reversed() {
            if case .rgba(let color)? = ThumborColor(text), color.alpha == 255 { return color }
        }
        return .white
    }

    /// `image` encoded with `coder`: the quality for lossy formats, JPEG progressive or not as
    /// ``progressiveJPEG`` says for the image's size and the quality, and for JPEG and WebP
    /// output `max_bytes(N)` with thumbor's search (``ThumborMaxBytes``).
    func encode(_ image: WebImage, coder: any ImageCoder) throws -> Data {
        let lossy: Set<ImageFormat> = [.jpeg, .webp, .avif]
        var image = image
        for case .stripICC in request.filters { image.colorProfile = nil }
        let pixelCount = image.pixelSize.width * image.pixelSize.height
        let encode = { (quality: Int) throws -> Data in
            var options = ImageEncodeOptions(compressionQuality: lossy.contains(format) ? Double(min(100, max(0, quality))) / 100 : 1, firstFrameOnly: !keepsAnimation)
            options.backgroundColor = backgroundColor
            if format == .jpeg {
                options.context.jpegProgressive = progressiveJPEG.isProgressive(pixelCount: pixelCount, quality: quality)
            }
            return try coder.encode(image, as: format, options: options)
        }
        guard let limit = ThumborMaxBytes.limit(in: request.filters), ThumborMaxBytes.formats.contains(format) else {
            return try encode(quality)
        }
        return try ThumborMaxBytes.fit(limit, quality: quality, encode: encode)
    }
}
