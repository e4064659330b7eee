public import WebImageCore

/// Tints an image with a color (SDWebImage's `SDImageTintTransformer`).
///
/// Channels are 0...255 straight values; `Cb` is the image's channel, `Ct` the tint's, `ta` the
/// tint's alpha as 0...1 and `B` the blend function of ``mode``:
/// - ``BlendMode/sourceIn`` (the default, SDWebImage's): the tint fills the image's shape: color
///   `Ct`, alpha `tint alpha x image alpha / 255`;
/// - every other mode keeps the image's alpha and mixes the blend in by the tint's alpha:
///   `C = (1 - ta) Cb + ta B(Cb, Ct)`, with
///   - ``BlendMode/sourceAtop``: `B = Ct` (paint the tint over the image, inside its shape),
///   - ``BlendMode/multiply``: `B = Cb Ct / 255`,
///   - ``BlendMode/screen``: `B = Cb + Ct - Cb Ct / 255`,
///   - ``BlendMode/overlay``: `B = 2 Cb Ct / 255` if `Cb < 128`, else `255 - 2 (255 - Cb)(255 - Ct) / 255`,
///   - ``BlendMode/darken``: `B = min(Cb, Ct)`, ``BlendMode/lighten``: `B = max(Cb, Ct)`
///   (the W3C Compositing and Blending formulas), each rounded to the nearest integer.
///
/// The scale factor, format and metadata are kept, ``/WebImageCore/ImageMetadata/transformed`` is added, and
/// every frame of an animated image is tinted.
///
/// Animated images: every frame is transformed, keeping the frame count, durations and loop
/// count. A lazily decoded animation (``/WebImageCore/WebImage/isLazilyAnimated``) gives a lazily
/// transformed one: frame 0 now, frame `n` when it is read, a bounded number held at once (see
/// ``/WebImageCore/WebImage/mappingFrames(transformerKey:_:)``); an animation whose frames are all
/// held gives one whose transformed frames are all held. Whether to transform animated images
/// at all is the caller's choice (SDWebImage's `transformAnimatedImage` option).
///
/// Key: `TintTransformer(color,mode)`: `TintTransformer(#FF0000FF,multiply)`.
///
/// Thread-safety: an immutable value; use it from any thread.
public struct TintTransformer: ImageTransformer, Hashable {
    /// How the tint combines with the image.
    public enum BlendMode: String, Sendable, CaseIterable {
        /// The tint fills the image's shape (Porter-Duff source-in).
        case sourceIn
        /// The tint is painted over the image, inside its shape (Porter-Duff source-atop).
        case sourceAtop
        /// Multiply: darkens; white leaves the image unchanged.
        case multiply
        /// Screen: lightens; black leaves the image unchanged.
        case screen
        /// Overlay: multiply in the image's darks, screen in its lights.
        case overlay
        /// The darker of image and tint, per channel.
        case darken
        /// The lighter of image and tint, per channel.
        case lighten
    }

    /// The tint color.
    public let color: RGBAColor
    /// How the tint combines with the image.
    public let mode: BlendMode

    /// A tint with `color`, blended by `mode`.
    /// - Parameters:
    ///   - color: The tint color.
    ///   - mode: How the tint combines with the image. Default ``BlendMode/sourceIn``.
    public init(color: RGBAColor, mode: BlendMode = .sourceIn) {
        self.color = color
        self.mode = mode
    }

    /// `TintTransformer(#RRGGBBAA,mode)`.
    public var transformerKey: String {
        TransformerKeyFormat.key("TintTransformer", [TransformerKeyFormat.format(color), mode.rawValue])
    }

    /// Tints every frame of `image`.
    public func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        let tables = lookupTables()
        return try image.mappingFrames(transformerKey: transformerKey) { try tint($0, tables: tables) }
    }

    /// Per channel, the output for every input value (R, G, B, then alpha).
    func lookupTables() -> [[UInt8]] {
        let tint = [color.red, color.green, color.blue]
        let ta = Double(color.alpha) / 255
        var tables = tint.map { ct in
            (0...255).map { cb -> UInt8 in
                if mode == .sourceIn { return ct }
                let blended = Self.blend(mode, Double(cb), Double(ct))
                return UInt8(min(max(((1 - ta) * Double(cb) + ta * blended).rounded(), 0), 255))
            }
        }
        tables.append((0...255).map { ab -> UInt8 in
            mode == .sourceIn ? UInt8((Double(color.alpha) * Double(ab) / 255).rounded()) : UInt8(ab)
        })
        return tables
    }

    /// The blend function `B(Cb, Ct)` on 0...255 values.
    static func blend(_ mode: BlendMode, _ cb: Double, _ ct: Double) -> Double {
        switch mode {
        case .sourceIn, .sourceAtop: ct
        case .multiply: cb * ct / 255
        case .screen: cb + ct - cb * ct / 255
        case .overlay: cb < 128 ? 2 * cb * ct / 255 : 255 - 2 * (255 - cb) * (255 - ct) / 255
        case .darken: min(cb, ct)
        case .lighten: max(cb, ct)
        }
    }

    private func tint(_ bitmap: Bitmap, tables: [[UInt8]]) throws -> Bitmap {
        var output = try Bitmap(width: bitmap.width, height: bitmap.height, bytesPerRow: bitmap.bytesPerRow, bytes: bitmap.bytes, hasAlpha: bitmap.hasAlpha)
        let red = tables[0], green = tables[1], blue = tables[2], alpha = tables[3]
        let width = bitmap.width
        let stride = bitmap.bytesPerRow
        red.withUnsafeBufferPointer { red in
            green.withUnsafeBufferPointer { green in
                blue.withUnsafeBufferPointer { blue in
                    alpha.withUnsafeBufferPointer { alpha in
                        output.bytes.withUnsafeMutableBufferPointer { bytes in
                            for y in 0..<bitmap.height {
                                var offset = y * stride
                                for _ in 0..<width {
                                    bytes[offset] = red[Int(bytes[offset])]
                                    bytes[offset + 1] = green[Int(bytes[offset + 1])]
                                    bytes[offset + 2] = blue[Int(bytes[offset + 2])]
                                    bytes[offset + 3] = alpha[Int(bytes[offset + 3])]
                                    offset += 4
                                }
                            }
                        }
                    }
                }
            }
        }
        return output
    }
}

extension ImageTransformer where Self == TintTransformer {
    /// A ``TintTransformer``: `.tint(.init(red: 255, green: 0, blue: 0), mode: .multiply)`.
    /// - Parameters:
    ///   - color: The tint color.
    ///   - mode: How the tint combines with the image. Default ``TintTransformer/BlendMode/sourceIn``.
    public static func tint(_ color: RGBAColor, mode: TintTransformer.BlendMode = .sourceIn) -> TintTransformer {
        TintTransformer(color: color, mode: mode)
    }
}
