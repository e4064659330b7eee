import WebImageCaches
import WebImageCore
import WebImageTransformers

/// Halved copies of decoded originals (a pyramid: 1/2, 1/4, 1/8, ...), kept so that a resize
/// starts from the smallest copy that still covers its target 3x (``CoveringCopy``, the rule
/// shrink-on-load's reduced decodes use too, with their own margins) instead of the full
/// original: a 3000x2000 photo resized to 512 pixels is resampled from its 750x500 copy, a
/// reduction of less than 2x, instead of from six million pixels with a kernel six times as
/// wide. Each copy is a 2x2 box average of the one above it (made once per original, lazily,
/// only as deep as a request needs).
///
/// Only opaque still images take this path (a box average of straight-alpha pixels would
/// darken transparent edges). Entries are dropped least recently used first once their bytes
/// pass the capacity.
///
/// Thread-safety: every method may be called from any thread; copies are made with no lock held.
final class ReducedOriginals: Sendable {
    let capacity: Int
    /// Each original's levels, half size first, by key; the cost is their bytes.
    private let state = Locked(LRUStorage<[Bitmap]>())

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The bitmap and region to resize to `target` instead of `region` of `original`: a halved
    /// copy and the region scaled to it, when one is at least as large as `target` in both
    /// directions; `nil` to use the original as it is.
    func reduced(_ original: Bitmap, key: String, region: PixelRect, target: PixelSize) -> (bitmap: Bitmap, region: PixelRect)? {
        guard capacity > 0, !original.hasAlpha, !target.isEmpty else { return nil }
        // The smallest halved copy whose region still covers the target 3x (CoveringCopy), but
        // no deeper than the first copy that would move the region by more than maximumShift.
        guard let deepest = CoveringCopy.halvings(of: region.size, covering: target, margin: CoveringCopy.pyramidGap, maximum: 16) else { return nil }
        var level = 0
        while level < deepest, Self.shift(of: region, in: original.size, level: level + 1, target: target) <= Self.maximumShift {
            level += 1
        }
        guard level > 0 else { return nil }
        let entryKey = key + "|" + original.size.description
        let known: [Bitmap] = state.withLock { $0.value(forKey: entryKey) } ?? []
        var levels = known
        while levels.count < level {
            levels.append(Self.halved(levels.last ?? original))
        }
        if levels.count > known.count { store(levels, forKey: entryKey) }
        let bitmap = levels[level - 1]
        let x = min(region.x >> level, bitmap.width - 1)
        let y = min(region.y >> level, bitmap.height - 1)
        let scaled = PixelRect(
            x: x, y: y,
            width: max(target.width, min(bitmap.width - x, region.width >> level)),
            height: max(target.height, min(bitmap.height - y, region.height >> level)))
        return (bitmap, scaled)
    }

    /// The most a copy may move the resized region's edges, in pixels of the answer: a copy's
    /// region is in whole copy pixels (its edges rounded down) and a copy drops the original's
    /// last odd row and column, which an answer of a few pixels shows (a 3x5 answer from a 1/16
    /// copy moved by a quarter of its pixel: 23 dB from thumbor's; a 9x1 answer moved by an
    /// eighth: 29 dB). A sixteenth keeps every level of an even-sided region and, for others,
    /// the levels still 16 times the answer or more.
    static let maximumShift = 0.0625

    /// How far, in pixels of a `target`-sized answer, `region` of an `imageSize` original moves
    /// when taken from its copy at `level` (as ``reduced(_:key:region:target:)`` scales it).
    static func shift(of region: PixelRect, in imageSize: PixelSize, level: Int, target: PixelSize) -> Double {
        func along(_ origin: Int, _ length: Int, _ side: Int, _ answer: Int) -> Double {
            let scale = Double(1 << level)
            let copySide = side >> level
            let start = min(origin >> level, copySide - 1)
            let end = start + max(answer, min(copySide - start, length >> level))
            let pixel = Double(length) / scale / Double(max(1, answer))
            let moved = max(abs(Double(origin) / scale - Double(start)), abs(Double(origin + length) / scale - Double(end)))
            return moved / pixel
        }
        return max(along(region.x, region.width, imageSize.width, target.width),
                   along(region.y, region.height, imageSize.height, target.height))
    }

    private func store(_ levels: [Bitmap], forKey key: String) {
        let cost = levels.reduce(0) { $0 + $1.byteCount }
        let dropped = state.withLock { state -> [[Bitmap]] in
            // Another request may have stored as many levels meanwhile: keep that pyramid.
            if let held = state.value(forKey: key), held.count >= levels.count { return [] }
            guard cost <= capacity else { return state.removeValue(forKey: key).map { [$0] } ?? [] }
            var dropped: [[Bitmap]] = []
            if let replaced = state.set(levels, forKey: key, cost: cost) { dropped.append(replaced) }
            while state.totalCost > capacity, let oldest = state.removeLeastRecentlyUsed() {
                dropped.append(oldest)
            }
            return dropped
        }
        withExtendedLifetime(dropped) {}
    }

    /// The bitmaps and bytes held (for tests).
    var usage: (count: Int, cost: Int) { state.withLock { ($0.count, $0.totalCost) } }

    /// `bitmap` at half its size (rounded down): each pixel the rounded mean of a 2x2 block.
    /// The result is opaque.
    static func halved(_ bitmap: Bitmap) -> Bitmap {
        let width = bitmap.width / 2, height = bitmap.height / 2
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        let row = bitmap.bytesPerRow
        bitmap.bytes.withUnsafeBufferPointer { source in
            bytes.withUnsafeMutableBufferPointer { target in
                guard let src = source.baseAddress, let dst = target.baseAddress else { return }
                for y in 0..<height {
                    let top = src + 2 * y * row
                    let bottom = top + row
                    let out = dst + y * width * 4
                    var x = 0
                    while x < width {
                        let i = 8 * x
                        out[4 * x] = UInt8((UInt16(top[i]) + UInt16(top[i + 4]) + UInt16(bottom[i]) + UInt16(bottom[i + 4]) + 2) >> 2)
                        out[4 * x + 1] = UInt8((UInt16(top[i + 1]) + UInt16(top[i + 5]) + UInt16(bottom[i + 1]) + UInt16(bottom[i + 5]) + 2) >> 2)
                        out[4 * x + 2] = UInt8((UInt16(top[i + 2]) + UInt16(top[i + 6]) + UInt16(bottom[i + 2]) + UInt16(bottom[i + 6]) + 2) >> 2)
                        x += 1
                    }
                }
            }
        }
        // The sizes match the bytes by construction, so this cannot fail; the original is the
        // harmless answer if it ever did (a resize from it is only slower).
        return (try? Bitmap(width: width, height: height, bytes: bytes, hasAlpha: false)) ?? bitmap
    }
}
