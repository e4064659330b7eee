import WebImageCore
import WebImageTransformers

/// thumbor 7.8's geometry (`thumbor/transformer.py`, the `no_upscale`, `upscale` and `fill`
/// filters), replayed on sizes: the state thumbor keeps in its request and engine while it
/// transforms, with its arithmetic (Python floats, `round` half to even, `int` truncation).
struct ThumborGeometry {
    /// The request.
    let request: ThumborRequest
    /// The source size.
    let sourceSize: PixelSize

    /// thumbor's `request.width`: the requested width, 0 when absent, changed by `no_upscale`
    /// and `fit-in`.
    private var requestedWidth: Int
    /// thumbor's `request.height`.
    private var requestedHeight: Int
    /// Whether `request.width` is still `orig`.
    private var widthIsSource: Bool
    /// Whether `request.height` is still `orig`.
    private var heightIsSource: Bool
    /// The region of the source kept so far.
    private var region: PixelRect
    /// The image's size now (in the frame of the `rotate` filters applied so far).
    private var current: PixelSize
    /// Whether an odd number of quarter turns has been applied.
    private var turned = false
    /// The fill canvas, once `fill` ran.
    private var canvas: PixelSize?
    /// The manual crop as applied (clamped, in the frame after any trim), for the focal regions.
    private var appliedCrop: ThumborRequest.Crop?
    /// The transformer's operations so far, as thumbor's `/meta/` lists them.
    private(set) var operations: [ThumborMetadata.Operation] = []
    /// The focal points the crop to the aspect ratio centres on, as thumbor's `/meta/` lists
    /// them (set once the manual crop is done).
    private(set) var focalPoints: [ThumborMetadata.FocalPoint] = []
    /// The image size before any turn, the plan's ``ThumborPlan/size``.
    private var unturnedSize: PixelSize { turned ? PixelSize(width: current.height, height: current.width) : current }

    init(request: ThumborRequest, sourceSize: PixelSize) {
        self.request = request
        let source = PixelSize(width: max(sourceSize.width, 1), height: max(sourceSize.height, 1))
        self.sourceSize = source
        requestedWidth = request.width ?? 0
        requestedHeight = request.height ?? 0
        widthIsSource = request.usesSourceWidth
        heightIsSource = request.usesSourceHeight
        region = PixelRect(x: 0, y: 0, size: source)
        current = source
    }

    /// The result.
    var plan: ThumborPlan {
        let whole = PixelRect(x: 0, y: 0, size: sourceSize)
        return ThumborPlan(crop: region == whole ? nil : region, size: unturnedSize, canvas: canvas, flipsHorizontally: request.flipsHorizontally, flipsVertically: request.flipsVertically)
    }

    /// Runs the whole transformation.
    mutating func run(trimmedRegion: PixelRect?) {
        if request.filters.contains(.noUpscale) {
            // `no_upscale` runs right after loading (`min` of the request and the source).
            if !widthIsSource { requestedWidth = min(requestedWidth, sourceSize.width) }
            if !heightIsSource { requestedHeight = min(requestedHeight, sourceSize.height) }
        }
        var manualCrop = request.crop
        if request.trim != nil, let trimmed = trimmedRegion?.intersection(PixelRect(x: 0, y: 0, size: sourceSize)) {
            cropTo(left: trimmed.x, top: trimmed.y, right: trimmed.x + trimmed.width, bottom: trimmed.y + trimmed.height)
            manualCrop = manualCrop.map { ThumborRequest.Crop(left: $0.left - trimmed.x, top: $0.top - trimmed.y, right: $0.right - trimmed.x, bottom: $0.bottom - trimmed.y) }
        }
        if let manualCrop {
            let left = Self.limit(manualCrop.left, current.width), right = Self.limit(manualCrop.right, current.width)
            let top = Self.limit(manualCrop.top, current.height), bottom = Self.limit(manualCrop.bottom, current.height)
            if left < right, top < bottom {
                cropTo(left: left, top: top, right: right, bottom: bottom)
                appliedCrop = ThumborRequest.Crop(left: left, top: top, right: right, bottom: bottom)
            }
        }
        focalPoints = metadataFocalPoints()
        var target = targetSize()
        if request.fitIn == .none {
            if !request.filters.contains(.stretch) { cropToAspectRatio(of: target) }
            resize(to: target)
        } else {
            fitIn(target: &target)
        }
        if request.flipsHorizontally { operations.append(.flipHorizontally) }
        if request.flipsVertically { operations.append(.flipVertically) }
        for filter in request.filters {
            switch filter {
            case .upscale: upscale()
            case .rotate(let degrees): if degrees % 180 == 90 { turn() }
            case .fill: fill()
            default: break
            }
        }
    }

    // MARK: - The steps

    /// thumbor's `limit`: `value` clamped to 0...maximum.
    private static func limit(_ value: Int, _ maximum: Int) -> Int { min(max(value, 0), maximum) }

    /// Keeps the part of the current image from `left`...`right`, `top`...`bottom` (current
    /// pixels, already clamped).
    private mutating func cropTo(left: Int, top: Int, right: Int, bottom: Int) {
        operations.append(.crop(left: left, top: top, right: right, bottom: bottom))
        region = PixelRect(x: region.x + left, y: region.y + top, width: max(right - left, 1), height: max(bottom - top, 1))
        current = region.size
    }

    /// thumbor's `_calculate_target_dimensions`, as floats.
    private func targetSize() -> (width: Double, height: Double) {
        let width = Double(current.width), height = Double(current.height)
        let hasWidth = widthIsSource || requestedWidth != 0, hasHeight = heightIsSource || requestedHeight != 0
        guard hasWidth || hasHeight else { return (width, height) }
        // `get_proportional_width(h)` is `round(float(h) * width / height, 0)`.
        let targetWidth = widthIsSource ? width : requestedWidth != 0 ? Double(requestedWidth)
            : (Double(heightIsSource ? current.height : requestedHeight) * width / height).rounded(.toNearestOrEven)
        let targetHeight = heightIsSource ? height : requestedHeight != 0 ? Double(requestedHeight)
            : (Double(widthIsSource ? current.width : requestedWidth) * height / width).rounded(.toNearestOrEven)
        return (targetWidth, targetHeight)
    }

    /// thumbor's `auto_crop`: crops the current image to the target's aspect ratio around the
    /// focal point of `halign`/`valign`.
    private mutating func cropToAspectRatio(of target: (width: Double, height: Double)) {
        let sourceWidth = Double(current.width), sourceHeight = Double(current.height)
        let safeHeight = target.height == 0 ? 1 : target.height, safeWidth = target.width == 0 ? 1 : target.width
        guard Self.hundredths(sourceWidth / sourceHeight) != Self.hundredths(safeWidth / safeHeight) else { return }
        let (focalX, focalY) = focalPoint()
        let cropWidth: Int, cropHeight: Int
        if target.width / sourceWidth > target.height / sourceHeight {
            cropWidth = current.width
            cropHeight = Self.int((sourceWidth * target.height / safeWidth).rounded(.toNearestOrEven))
        } else {
            cropWidth = Self.int((target.width * sourceHeight / safeHeight).rounded(.up))
            cropHeight = current.height
        }
        let left = max(Self.int(min(max(focalX - Double(cropWidth) / 2, 0), Double(current.width - cropWidth)).rounded(.toNearestOrEven)), 0)
        let top = max(Self.int(min(max(focalY - Double(cropHeight) / 2, 0), Double(current.height - cropHeight)).rounded(.toNearestOrEven)), 0)
        cropTo(left: left, top: top, right: min(left + cropWidth, current.width), bottom: min(top + cropHeight, current.height))
    }

    /// thumbor's `adjust_focal_points` and `get_center_of_mass`: the centres of the `focal`
    /// regions (those inside the manual crop, moved with it) weighted by their areas, or the
    /// point `halign`/`valign` name.
    private func focalPoint() -> (x: Double, y: Double) {
        var totalX = 0.0, totalY = 0.0, totalWeight = 0.0
        for region in request.focalRegions {
            let width = region.right - region.left, height = region.bottom - region.top
            var x = region.left + width / 2, y = region.top + height / 2
            if let crop = appliedCrop {
                if x < crop.left || x > crop.right || y < crop.top || y > crop.bottom { continue }
                x -= crop.left
                y -= crop.top
            }
            let weight = Double(width) * Double(height)
            totalX += Double(x) * weight
            totalY += Double(y) * weight
            totalWeight += weight
        }
        guard totalWeight > 0 else {
            return ((Double(current.width) * Self.fraction(request.horizontalAlignment)).rounded(.towardZero),
                    (Double(current.height) * Self.fraction(request.verticalAlignment)).rounded(.towardZero))
        }
        return (Self.floorDivide(totalX, totalWeight), Self.floorDivide(totalY, totalWeight))
    }

    /// thumbor's `adjust_focal_points` as `/meta/` reports them: each `focal` region's centre
    /// (`left + width // 2`), with its size and area, those outside the manual crop dropped and
    /// the others moved with it; none left: the `halign`/`valign` point of the current image.
    private func metadataFocalPoints() -> [ThumborMetadata.FocalPoint] {
        var points: [ThumborMetadata.FocalPoint] = []
        for region in request.focalRegions {
            let width = region.right - region.left, height = region.bottom - region.top
            var x = region.left + Self.floorHalf(width), y = region.top + Self.floorHalf(height)
            if let crop = appliedCrop {
                if x < crop.left || x > crop.right || y < crop.top || y > crop.bottom { continue }
                x -= crop.left
                y -= crop.top
            }
            points.append(ThumborMetadata.FocalPoint(x: x, y: y, weight: .int(width * height), width: width, height: height, origin: "Explicit"))
        }
        if points.isEmpty {
            let x = Self.int(Double(current.width) * Self.fraction(request.horizontalAlignment))
            let y = Self.int(Double(current.height) * Self.fraction(request.verticalAlignment))
            points.append(ThumborMetadata.FocalPoint(x: x, y: y, weight: .float(1), width: 1, height: 1, origin: "alignment"))
        }
        return points
    }

    /// Python's `value // 2`.
    private static func floorHalf(_ value: Int) -> Int { value >= 0 ? value / 2 : -((-value + 1) / 2) }

    /// Python's `//` on non-negative floats (through the exact remainder, as CPython does).
    private static func floorDivide(_ dividend: Double, _ divisor: Double) -> Double {
        let remainder = dividend.truncatingRemainder(dividingBy: divisor)
        let quotient = (dividend - remainder) / divisor
        var result = quotient.rounded(.down)
        if quotient - result > 0.5 { result += 1 }
        return result
    }

    /// thumbor's `resize`: to the target size unless the image has it already.
    private mutating func resize(to target: (width: Double, height: Double)) {
        guard target.width != Double(current.width) || target.height != Double(current.height) else { return }
        // thumbor resizes to `target or 1`: a float, or the integer 1 for a side of 0.
        operations.append(.resize(width: target.width == 0 ? .int(1) : .float(target.width), height: target.height == 0 ? .int(1) : .float(target.height)))
        current = PixelSize(width: max(Self.int(target.width), 1), height: max(Self.int(target.height), 1))
    }

    /// thumbor's `fit_in_resize`.
    private mutating func fitIn(target: inout (width: Double, height: Double)) {
        let sourceWidth = Double(current.width), sourceHeight = Double(current.height)
        let adaptive = request.fitIn == .adaptiveFitIn || request.fitIn == .adaptiveFullFitIn
        let full = request.fitIn == .fullFitIn || request.fitIn == .adaptiveFullFitIn
        if adaptive, (sourceWidth < sourceHeight && target.width > target.height) || (sourceWidth > sourceHeight && target.width < target.height) {
            swap(&requestedWidth, &requestedHeight)
            swap(&widthIsSource, &heightIsSource)
            target = (target.height, target.width)
        }
        if !full, target.width >= sourceWidth, target.height >= sourceHeight { return }
        let boxWidth = max(target.width, 1), boxHeight = max(target.height, 1)
        let resizedWidth: Double, resizedHeight: Double
        // thumbor adds 1e-5 so that halves round up despite Python 3's half-to-even `round`.
        let widthIsTheBox = full ? sourceWidth / boxWidth <= sourceHeight / boxHeight : sourceWidth / boxWidth >= sourceHeight / boxHeight
        if widthIsTheBox {
            resizedWidth = boxWidth
            resizedHeight = (sourceHeight * boxWidth / sourceWidth + 1e-5).rounded(.toNearestOrEven)
        } else {
            resizedWidth = (sourceWidth * boxHeight / sourceHeight + 1e-5).rounded(.toNearestOrEven)
            resizedHeight = boxHeight
        }
        let resized = PixelSize(width: max(Self.int(resizedWidth), 1), height: max(Self.int(resizedHeight), 1))
        // The side that is the box's stays thumbor's float; the other is `round`'s integer.
        operations.append(widthIsTheBox ? .resize(width: .float(boxWidth), height: .int(resized.height)) : .resize(width: .int(resized.width), height: .float(boxHeight)))
        requestedWidth = max(widthIsSource ? current.width : requestedWidth, resized.width)
        requestedHeight = max(heightIsSource ? current.height : requestedHeight, resized.height)
        widthIsSource = false
        heightIsSource = false
        current = resized
    }

    /// thumbor's `upscale` filter: when the image is smaller than the requested size on both
    /// sides, enlarge it to fit that box (truncating the other side).
    private mutating func upscale() {
        // After `fill`, the image is the canvas, which is never smaller than the request.
        guard canvas == nil, !widthIsSource, !heightIsSource else { return }
        let width = current.width, height = current.height
        guard width < requestedWidth, height < requestedHeight else { return }
        if Double(width) / Double(requestedWidth) >= Double(height) / Double(requestedHeight) {
            current = PixelSize(width: requestedWidth, height: max(Self.int(Double(height * requestedWidth) / Double(width)), 1))
        } else {
            current = PixelSize(width: max(Self.int(Double(width * requestedHeight) / Double(height)), 1), height: requestedHeight)
        }
    }

    /// A quarter turn of the current image (a canvas already filled keeps the orientation it
    /// had when `fill` ran: the plan gives it in that frame).
    private mutating func turn() {
        turned.toggle()
        current = PixelSize(width: current.height, height: current.width)
    }

    /// thumbor's `fill` filter: the canvas is the requested size, a 0 side taking the image's.
    private mutating func fill() {
        let width = widthIsSource || requestedWidth == 0 ? (canvas ?? current).width : requestedWidth
        let height = heightIsSource || requestedHeight == 0 ? (canvas ?? current).height : requestedHeight
        canvas = PixelSize(width: width, height: height)
    }

    // MARK: - Python's arithmetic

    /// The focal point's position for an alignment (thumbor's `ALIGNMENT_PERCENTAGES`).
    private static func fraction(_ alignment: ThumborRequest.HorizontalAlignment) -> Double {
        switch alignment {
        case .left: 0
        case .center: 0.5
        case .right: 1
        }
    }

    /// The focal point's position for an alignment (thumbor's `ALIGNMENT_PERCENTAGES`).
    private static func fraction(_ alignment: ThumborRequest.VerticalAlignment) -> Double {
        switch alignment {
        case .top: 0
        case .middle: 0.5
        case .bottom: 1
        }
    }

    /// Python's `int(value)` for the sizes here: truncation, saturating instead of trapping.
    private static func int(_ value: Double) -> Int {
        guard value.isFinite else { return value > 0 ? Int.max / 4 : 0 }
        return Int(max(min(value, Double(Int.max / 4)), -Double(Int.max / 4)).rounded(.towardZero))
    }

    /// `round(value, 2) * 100` as Python computes it for a positive `value`: the exact binary
    /// value times 100, rounded half to even. Two ratios compare equal at two decimals in
    /// thumbor exactly when these are equal.
    static func hundredths(_ value: Double) -> Int {
        guard value.isNormal, value > 0 else { return 0 }
        guard value < 1e12 else { return int(value * 100) }
        // value = significand * 2^exponent with an integer significand below 2^53.
        let significand = UInt64(value.significandBitPattern) | 1 << 52
        let exponent = Int(value.exponent) - 52
        let scaled = significand * 100  // below 2^60
        if exponent >= 0 { return Int(scaled << UInt64(exponent)) }
        let shift = -exponent
        guard shift < 64 else { return 0 }  // below 2^60 / 2^64: rounds to 0
        let quotient = scaled >> UInt64(shift)
        let remainder = scaled & ((1 << UInt64(shift)) - 1)
        let half: UInt64 = 1 << UInt64(shift - 1)
        let roundsUp = remainder > half || (remainder == half && quotient & 1 == 1)
        return Int(quotient + (roundsUp ? 1 : 0))
    }
}
