// photos-bench: times the PhotosLoader paths on a generated photo library.
//
//   swift run -c release --scratch-path .build-photos photos-bench [iterations]
//
// A 4000x3000 JPEG (a textured image, so the file has a realistic size) with a 160x120 EXIF
// thumbnail: a 160x120 request through the embedded thumbnail, the same request through
// JPEGCoder's DCT-scaled decoding (the path without a usable thumbnail), and a full-size decode.
// Then the index: a first scan and an unchanged rescan of a library of small JPEGs.
import Foundation
import PhotosLoader
import SwiftWebImage

let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 20

/// A textured bitmap: smooth gradients plus deterministic noise (compresses like a photo).
func texture(width: Int, height: Int) throws -> Bitmap {
    var bytes = [UInt8](repeating: 255, count: width * height * 4)
    var seed: UInt32 = 2463534242
    for y in 0..<height {
        for x in 0..<width {
            seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5
            let noise = Int(seed & 31)
            let offset = (y * width + x) * 4
            bytes[offset] = UInt8((x * 255 / width + noise) & 255)
            bytes[offset + 1] = UInt8((y * 255 / height + noise) & 255)
            bytes[offset + 2] = UInt8(((x + y) * 127 / (width + height) + noise * 2) & 255)
        }
    }
    return try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: false)
}

/// An APP1 EXIF segment: IFD0 with Orientation 1, IFD1 pointing at `thumbnail` (big-endian).
func exifSegment(thumbnail: [UInt8]) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    let ifd0 = 8, ifd1 = ifd0 + 2 + 12 + 4, data = ifd1 + 2 + 3 * 12 + 4
    var tiff: [UInt8] = [0x4D, 0x4D] + u16(42) + u32(ifd0)
    tiff += u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(1) + [0, 0] + u32(ifd1)
    tiff += u16(3)
    tiff += u16(0x0103) + u16(3) + u32(1) + u16(6) + [0, 0]
    tiff += u16(0x0201) + u16(4) + u32(1) + u32(data)
    tiff += u16(0x0202) + u16(4) + u32(1) + u32(thumbnail.count)
    tiff += u32(0) + thumbnail
    let body = Array("Exif".utf8) + [0, 0] + tiff
    return [0xFF, 0xE1] + u16(body.count + 2) + body
}

func measure(_ label: String, runs: Int, _ body: () async throws -> Void) async rethrows -> Double {
    try await body()  // warm-up
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<runs { try await body() }
    let elapsed = clock.now - start
    let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    return ms / Double(runs)
}

let root = FileManager.default.temporaryDirectory.appendingPathComponent("photos-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: root) }

let photo = WebImage(bitmap: try texture(width: 4000, height: 3000))
let thumbnailImage = WebImage(bitmap: try photo.bitmap.resampled(to: PixelSize(width: 160, height: 120)))
let mainJPEG = Array(try JPEGCoder().encode(photo, as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.9)))
let thumbnailJPEG = Array(try JPEGCoder().encode(thumbnailImage, as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.8)))
var file = mainJPEG
file.insert(contentsOf: exifSegment(thumbnail: thumbnailJPEG), at: 2)
try FileManager.default.createDirectory(at: root.appendingPathComponent("big"), withIntermediateDirectories: true)
try Data(file).write(to: root.appendingPathComponent("big/photo.jpg"))

let bigLibrary = PhotoLibrary(rootURL: root.appendingPathComponent("big"))
try await bigLibrary.rescan()
let asset = bigLibrary.assets[0]
let fast = PhotosLoader(library: bigLibrary)
let dct = PhotosLoader(library: bigLibrary, usesEmbeddedThumbnails: false)
let thumbnailContext = WebImageContext.photosLibrary(thumbnailPixelSize: PixelSize(width: 160, height: 120))

let embeddedMs = try await measure("embedded", runs: iterations) {
    _ = try await fast.requestImage(with: asset.url, options: [], context: thumbnailContext, progress: nil)
}
let dctMs = try await measure("dct", runs: iterations) {
    _ = try await dct.requestImage(with: asset.url, options: [], context: thumbnailContext, progress: nil)
}
let fullMs = try await measure("full", runs: max(1, iterations / 4)) {
    _ = try await fast.requestImage(with: asset.url, options: [], context: WebImageContext(), progress: nil)
}
let probe = PhotosLoader(library: bigLibrary)
_ = try await probe.requestImage(with: asset.url, options: [], context: thumbnailContext, progress: nil)
let bytesPerEmbeddedLoad = probe.statistics.bytesRead

// The index: 1000 small distinct JPEGs (with EXIF and a thumbnail) in 10 folders.
let small = Array(try JPEGCoder().encode(WebImage(bitmap: try texture(width: 320, height: 240)), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.8)))
for index in 0..<1000 {
    var bytes = small
    bytes.insert(contentsOf: exifSegment(thumbnail: thumbnailJPEG), at: 2)
    bytes[bytes.count - 3] = UInt8(index & 0xFF)  // distinct contents
    bytes[bytes.count - 4] = UInt8(index >> 8)
    let folder = root.appendingPathComponent("many/album\(index % 10)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(bytes).write(to: folder.appendingPathComponent("IMG_\(index).jpg"))
}
let manyLibrary = PhotoLibrary(rootURL: root.appendingPathComponent("many"))
let clock = ContinuousClock()
var start = clock.now
let first = try await manyLibrary.rescan()
let firstScan = clock.now - start
start = clock.now
let again = try await manyLibrary.rescan()
let rescan = clock.now - start

func ms(_ duration: Duration) -> String {
    String(format: "%.1f ms", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
}

print("""
| 4000x3000 JPEG (\(file.count / 1024) KiB), EXIF thumbnail 160x120 (\(thumbnailJPEG.count) bytes) | time per load |
|---|---|
| 160x120 request, embedded thumbnail (main image not read) | \(String(format: "%.2f ms", embeddedMs)) |
| 160x120 request, DCT-scaled decoding (`usesEmbeddedThumbnails: false`) | \(String(format: "%.2f ms", dctMs)) |
| full-size decode | \(String(format: "%.2f ms", fullMs)) |

Bytes read per embedded-thumbnail load: \(bytesPerEmbeddedLoad) of \(file.count).

| index of 1000 JPEGs (320x240, 10 folders) | time | files read |
|---|---|---|
| first scan | \(ms(firstScan)) | \(first.filesRead) |
| rescan, nothing changed | \(ms(rescan)) | \(again.filesRead) |
""")
