import Foundation
import SwiftWebImage

/// The demo's sample images, made in code at every run (no files, no internet): a photo-like
/// JPEG, a progressive JPEG, a PNG with alpha, an animated GIF, a WIRL image for the custom
/// coder, then one per plug-in coder (``PluginCoders``: a lossy WebP, ...). Each is encoded with
/// the framework's own coders.
enum DemoSamples {
    /// One sample: where the demo's server serves it and its bytes.
    struct Sample: Sendable {
        /// The file name, also the server path (`/photo.jpg`).
        let name: String
        /// What it shows off.
        let summary: String
        /// The `Content-Type` the server sends.
        let contentType: String
        /// The encoded bytes.
        let data: Data

        var path: String { "/" + name }
    }

    /// Makes every sample.
    /// - Throws: An encoder's error (none is expected: the sizes are fixed).
    static func make() throws -> [Sample] {
        [
            Sample(name: "photo.jpg", summary: "photo-like JPEG", contentType: "image/jpeg",
                   data: try JPEGCoder().encode(WebImage(bitmap: try landscape(width: 480, height: 320)), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.85))),
            Sample(name: "progressive.jpg", summary: "progressive JPEG", contentType: "image/jpeg",
                   data: try JPEGCoder(progressiveEncoding: true).encode(WebImage(bitmap: try sunset(width: 480, height: 320)), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.85))),
            Sample(name: "badge.png", summary: "PNG with alpha", contentType: "image/png",
                   data: try PNGCoder().encode(WebImage(bitmap: try badge(size: 192)), as: .png)),
            Sample(name: "bounce.gif", summary: "animated GIF, 10 frames", contentType: "image/gif",
                   data: try GIFCoder().encode(try bounce(width: 120, height: 90, frames: 10), as: .gif)),
            Sample(name: "pattern.wirl", summary: "custom WIRL format", contentType: "image/x-wirl",
                   data: try RunLengthImageCoder().encode(WebImage(bitmap: try pattern(size: 64)), as: .wirl)),
        ] + (try PluginCoders.all.map { try $0.demoSample() })
    }

    /// A deterministic pseudo-random generator (xorshift), for texture.
    private struct Noise {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next(_ amplitude: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(2 * amplitude + 1)) - amplitude
        }
    }

    private static func clamp(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }

    private static func mix(_ a: (Double, Double, Double), _ b: (Double, Double, Double), _ t: Double) -> (Double, Double, Double) {
        (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
    }

    /// Sky, sun, two ranges of hills and a lake, with a little grain.
    static func landscape(width: Int, height: Int) throws -> Bitmap {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var noise = Noise()
        let horizon = Double(height) * 0.62
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x), fy = Double(y)
                var color: (Double, Double, Double)
                let far = horizon - 40 - 22 * sin(fx / 37) - 12 * sin(fx / 13 + 1)
                let near = horizon - 8 - 18 * sin(fx / 61 + 2) - 6 * sin(fx / 9)
                if fy > horizon {
                    let depth = (fy - horizon) / (Double(height) - horizon)
                    color = mix((70, 120, 170), (25, 55, 95), depth)
                    if Int(fy) % 7 == 0 { color = mix(color, (200, 220, 240), 0.15) }
                } else if fy > near {
                    color = mix((60, 120, 50), (35, 80, 35), (fy - near) / max(1, horizon - near))
                } else if fy > far {
                    color = mix((95, 110, 140), (70, 90, 110), (fy - far) / max(1, near - far))
                } else {
                    color = mix((110, 170, 235), (215, 235, 250), fy / horizon)
                    let sun = hypot(fx - Double(width) * 0.72, fy - Double(height) * 0.22)
                    if sun < 28 { color = (255, 240, 180) } else if sun < 60 { color = mix((255, 235, 170), color, (sun - 28) / 32) }
                }
                let grain = Double(noise.next(6))
                let offset = (y * width + x) * 4
                pixels[offset] = clamp(color.0 + grain)
                pixels[offset + 1] = clamp(color.1 + grain)
                pixels[offset + 2] = clamp(color.2 + grain)
            }
        }
        return try Bitmap(width: width, height: height, bytes: pixels, hasAlpha: false)
    }

    /// A sunset with mountain silhouettes.
    static func sunset(width: Int, height: Int) throws -> Bitmap {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var noise = Noise(state: 42)
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x), fy = Double(y)
                let ridge = Double(height) * 0.7 - 50 * abs(sin(fx / 80)) - 20 * sin(fx / 23)
                var color: (Double, Double, Double)
                if fy > ridge {
                    color = mix((60, 30, 70), (20, 10, 30), (fy - ridge) / max(1, Double(height) - ridge))
                } else {
                    let t = fy / ridge
                    color = t < 0.5 ? mix((60, 40, 120), (230, 90, 90), t * 2) : mix((230, 90, 90), (255, 190, 90), (t - 0.5) * 2)
                    let sun = hypot(fx - Double(width) * 0.35, fy - ridge + 10)
                    if sun < 40 { color = mix((255, 230, 150), color, sun / 40) }
                }
                let grain = Double(noise.next(4))
                let offset = (y * width + x) * 4
                pixels[offset] = clamp(color.0 + grain)
                pixels[offset + 1] = clamp(color.1 + grain)
                pixels[offset + 2] = clamp(color.2 + grain)
            }
        }
        return try Bitmap(width: width, height: height, bytes: pixels, hasAlpha: false)
    }

    /// A round badge with a soft edge on a transparent background.
    static func badge(size: Int) throws -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        let center = Double(size) / 2
        let radius = center - 6
        for y in 0..<size {
            for x in 0..<size {
                let distance = hypot(Double(x) + 0.5 - center, Double(y) + 0.5 - center)
                let coverage = max(0, min(1, radius - distance + 0.5))
                guard coverage > 0 else { continue }
                var color = mix((40, 200, 180), (30, 80, 200), distance / radius)
                if abs(distance - radius * 0.78) < 4 { color = (250, 250, 250) }
                if hypot(Double(x) - center * 0.8, Double(y) - center * 0.7) < radius * 0.3 { color = mix(color, (255, 255, 255), 0.35) }
                let offset = (y * size + x) * 4
                pixels[offset] = clamp(color.0)
                pixels[offset + 1] = clamp(color.1)
                pixels[offset + 2] = clamp(color.2)
                pixels[offset + 3] = clamp(255 * coverage * (distance < radius * 0.5 ? 0.85 : 1))
            }
        }
        return try Bitmap(width: size, height: size, bytes: pixels, hasAlpha: true)
    }

    /// A ball bouncing on a floor, `frames` frames of 80 ms, looping forever.
    static func bounce(width: Int, height: Int, frames: Int) throws -> WebImage {
        let floor = height - 12
        let ballRadius = 11.0
        var list: [ImageFrame] = []
        for index in 0..<frames {
            var bitmap = try Bitmap(width: width, height: height, fill: RGBAColor(red: 238, green: 240, blue: 245), hasAlpha: false)
            let phase = Double(index) / Double(frames)
            let cx = 15 + (Double(width) - 30) * phase
            let cy = Double(floor) - ballRadius - (Double(floor) - 2 * ballRadius - 6) * sin(Double.pi * phase)
            for y in 0..<height {
                for x in 0..<width {
                    if y >= floor {
                        bitmap[x, y] = RGBAColor(red: 90, green: 90, blue: 110)
                    } else if hypot(Double(x) + 0.5 - cx, Double(y) + 0.5 - cy) <= ballRadius {
                        bitmap[x, y] = RGBAColor(red: 225, green: 60, blue: 50)
                    }
                }
            }
            list.append(ImageFrame(bitmap: bitmap, duration: 0.08))
        }
        return try WebImage(frames: list, loopCount: 0, format: .gif)
    }

    /// Bands and a square in four colors: what run-length coding is good at.
    static func pattern(size: Int) throws -> Bitmap {
        var bitmap = try Bitmap(width: size, height: size, fill: .white, hasAlpha: false)
        let colors = [RGBAColor(red: 20, green: 60, blue: 140), RGBAColor(red: 250, green: 200, blue: 40), RGBAColor(red: 200, green: 40, blue: 60)]
        for y in 0..<size {
            for x in 0..<size {
                let inSquare = x >= size / 4 && x < size * 3 / 4 && y >= size / 4 && y < size * 3 / 4
                bitmap[x, y] = inSquare ? colors[2] : colors[(y / (size / 8)) % 2]
            }
        }
        return bitmap
    }
}
