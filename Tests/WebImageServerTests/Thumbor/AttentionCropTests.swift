import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

/// Issue 34's smart crop that sees something: with ``SmartCropMode/attention`` a `smart` URL's
/// crop goes where the edges, skin tones and colour are (``AttentionCrop``), as libvips'
/// `attention` crop; ``SmartCropMode/centre`` stays the default.
@Suite struct AttentionCropTests {
    /// A synthetic picture: a smooth, nearly grey gradient with one striped object off-centre.
    struct Scene: Sendable, CustomTestStringConvertible {
        var name: String
        var size: PixelSize
        /// The object's bounds.
        var object: PixelRect
        /// Its two stripe colours.
        var colors: (RGBAColor, RGBAColor)
        /// Whether the object is a disc (else a rectangle).
        var disc = true

        var testDescription: String { name }

        var bitmap: Bitmap {
            Pixels.make(width: size.width, height: size.height, hasAlpha: false) { x, y in
                let inside: Bool
                if disc {
                    let dx = (Double(x) + 0.5 - Double(object.x) - Double(object.width) / 2) / (Double(object.width) / 2)
                    let dy = (Double(y) + 0.5 - Double(object.y) - Double(object.height) / 2) / (Double(object.height) / 2)
                    inside = dx * dx + dy * dy <= 1
                } else {
                    inside = x >= object.x && x < object.x + object.width && y >= object.y && y < object.y + object.height
                }
                if inside { return (x / 4 + y / 4) % 2 == 0 ? colors.0 : colors.1 }
                let t = Double(x + y) / Double(size.width + size.height)
                let level = UInt8(112 + 30 * t)
                return RGBAColor(red: level, green: level &+ 2, blue: UInt8(120 + 14 * t))
            }
        }

        /// The window of the request's aspect ratio: the shorter side of the picture, square.
        var window: PixelSize { PixelSize(width: min(size.width, size.height), height: min(size.width, size.height)) }

        /// The centre of the object.
        var objectCentre: (x: Int, y: Int) { (object.x + object.width / 2, object.y + object.height / 2) }
    }

    static let red = (RGBAColor(red: 220, green: 40, blue: 30), RGBAColor(red: 150, green: 20, blue: 20))
    static let skin = (RGBAColor(red: 228, green: 180, blue: 150), RGBAColor(red: 190, green: 135, blue: 105))
    static let blue = (RGBAColor(red: 40, green: 70, blue: 220), RGBAColor(red: 20, green: 30, blue: 140))
    static let yellow = (RGBAColor(red: 240, green: 210, blue: 40), RGBAColor(red: 170, green: 120, blue: 20))
    static let green = (RGBAColor(red: 40, green: 190, blue: 60), RGBAColor(red: 20, green: 110, blue: 30))

    static let scenes: [Scene] = [
        Scene(name: "red disc, right", size: PixelSize(width: 480, height: 240), object: PixelRect(x: 350, y: 70, width: 90, height: 90), colors: red),
        Scene(name: "skin disc, left", size: PixelSize(width: 480, height: 240), object: PixelRect(x: 20, y: 100, width: 100, height: 110), colors: skin),
        Scene(name: "blue disc, top", size: PixelSize(width: 240, height: 480), object: PixelRect(x: 60, y: 30, width: 100, height: 100), colors: blue),
        Scene(name: "yellow square, bottom", size: PixelSize(width: 300, height: 600), object: PixelRect(x: 150, y: 470, width: 80, height: 80), colors: yellow, disc: false),
        Scene(name: "green disc, right", size: PixelSize(width: 640, height: 360), object: PixelRect(x: 500, y: 40, width: 110, height: 110), colors: green),
        Scene(name: "small red square, far left", size: PixelSize(width: 800, height: 300), object: PixelRect(x: 40, y: 120, width: 40, height: 40), colors: red, disc: false),
        // Off-centre but away from the edges: the window's place is not decided by clamping.
        Scene(name: "red disc, two thirds across", size: PixelSize(width: 900, height: 300), object: PixelRect(x: 560, y: 110, width: 80, height: 80), colors: red),
        Scene(name: "skin disc, a quarter across", size: PixelSize(width: 1000, height: 250), object: PixelRect(x: 200, y: 60, width: 90, height: 110), colors: skin),
        Scene(name: "blue square, a third down", size: PixelSize(width: 200, height: 700), object: PixelRect(x: 70, y: 190, width: 60, height: 60), colors: blue, disc: false),
        Scene(name: "yellow disc, right of centre", size: PixelSize(width: 960, height: 320), object: PixelRect(x: 600, y: 200, width: 70, height: 70), colors: yellow),
    ]

    static func area(_ rect: PixelRect) -> Int { rect.width * rect.height }

    static func iou(_ a: PixelRect, _ b: PixelRect) -> Double {
        let common = a.intersection(b).map(area) ?? 0
        return Double(common) / Double(area(a) + area(b) - common)
    }

    @Test(arguments: scenes)
    func theWindowHoldsTheObject(_ scene: Scene) {
        let bitmap = scene.bitmap
        let window = AttentionCrop.window(of: scene.window, in: PixelRect(x: 0, y: 0, size: scene.size), of: bitmap)
        #expect(window.size == scene.window)
        #expect(PixelRect(x: 0, y: 0, size: scene.size).contains(window))
        #expect(window.contains(scene.object), "\(scene.name): window \(window), object \(scene.object)")
        // The centred window misses the object: the test means something.
        let centred = PixelRect(x: (scene.size.width - scene.window.width) / 2, y: (scene.size.height - scene.window.height) / 2, size: scene.window)
        #expect(!centred.contains(scene.object))
    }

    @Test func theWindowStaysInsideTheRegion() throws {
        let scene = Self.scenes[0]
        let region = PixelRect(x: 100, y: 20, width: 300, height: 200)
        let window = AttentionCrop.window(of: PixelSize(width: 150, height: 200), in: region, of: scene.bitmap)
        #expect(region.contains(window))
        #expect(window.size == PixelSize(width: 150, height: 200))
        // The object (350...440) is cut by the region at 400: the window goes to the right end.
        #expect(window.x == 250)
    }

    @Test func aFlatPictureGivesAWindowInside() {
        let flat = TestImages.solid(RGBAColor(red: 128, green: 128, blue: 128), width: 300, height: 100)
        let window = AttentionCrop.window(of: PixelSize(width: 100, height: 100), in: PixelRect(x: 0, y: 0, width: 300, height: 100), of: flat)
        #expect(PixelRect(x: 0, y: 0, width: 300, height: 100).contains(window))
    }

    @Test func tinyRegionsWork() {
        let bitmap = TestImages.gradient(width: 5, height: 3)
        let window = AttentionCrop.window(of: PixelSize(width: 3, height: 3), in: PixelRect(x: 0, y: 0, width: 5, height: 3), of: bitmap)
        #expect(window.size == PixelSize(width: 3, height: 3))
        #expect(PixelRect(x: 0, y: 0, width: 5, height: 3).contains(window))
    }

    /// Only `smart` requests with a crop to the aspect ratio move, and never past the manual crop.
    @Test func whichRequestsMove() throws {
        let scene = Self.scenes[0]
        let bitmap = scene.bitmap
        func plan(_ path: String) throws -> (centre: ThumborPlan, attention: ThumborPlan) {
            let request = try ThumborURLParser.parse(path)
            let centre = request.plan(sourceSize: scene.size)
            return (centre, request.attentionPlan(centre, source: bitmap, trimmedRegion: nil))
        }
        let smart = try plan("/unsafe/100x100/smart/scene.png")
        #expect(smart.attention.crop != smart.centre.crop)
        #expect(smart.attention.crop.map { $0.contains(scene.object) } == true)
        #expect(smart.attention.size == smart.centre.size)
        for path in ["/unsafe/100x100/scene.png", "/unsafe/fit-in/100x100/smart/scene.png", "/unsafe/100x100/smart/filters:stretch()/scene.png",
                     "/unsafe/100x100/smart/filters:focal(0x0:40x40)/scene.png", "/unsafe/480x240/smart/scene.png"] {
            let pair = try plan(path)
            #expect(pair.attention == pair.centre, "\(path) does not move")
        }
        // A manual crop bounds the window.
        let cropped = try plan("/unsafe/0x0:300x240/100x100/smart/scene.png")
        let window = try #require(cropped.attention.crop)
        #expect(PixelRect(x: 0, y: 0, width: 300, height: 240).contains(window))
        #expect(window.x == 60)
    }

    /// Through the server: the result of a `smart` URL shows the object with attention, the
    /// background with the default centre crop.
    @Test func theServerCropsWithAttentionOnlyWhenSetTo() async throws {
        let folder = try TemporaryFolder(prefix: "attention")
        let scene = Self.scenes[0]
        try PNGCoder().encode(WebImage(bitmap: scene.bitmap), as: .png).writeWithoutSync(to: URL(fileURLWithPath: folder.path("scene.png")))
        func redness(_ mode: SmartCropMode?, _ path: String) async throws -> Double {
            let fixture = try ThumborReference.makeFixture { configuration in
                configuration.fileRoot = folder.url
                if let mode { configuration.smartCrop = mode }
            }
            let image = try ServingFixture.decode(await fixture.get(path: path))
            #expect(image.pixelSize == PixelSize(width: 120, height: 120))
            var red = 0.0
            for y in 0..<image.bitmap.height {
                for x in 0..<image.bitmap.width {
                    let pixel = image.bitmap[x, y]
                    red += Double(Int(pixel.red) - Int(pixel.green))
                }
            }
            return red / Double(image.bitmap.width * image.bitmap.height)
        }
        // The disc covers about 11% of the square around it (red minus green about 155 there),
        // and a sliver of the centred square.
        let attention = try await redness(.attention, "/unsafe/120x120/smart/filters:format(png)/scene.png")
        #expect(attention > 12, "attention: \(attention)")
        for (mode, path) in [(nil, "/unsafe/120x120/smart/filters:format(png)/scene.png"), (SmartCropMode.centre, "/unsafe/120x120/smart/filters:format(png)/scene.png"),
                             (.attention, "/unsafe/120x120/filters:format(png)/scene.png")] {
            let centred = try await redness(mode, path)
            #expect(centred < 3, "\(String(describing: mode)) \(path): \(centred)")
        }
    }

    @Test func theDefaultIsCentreAndAttentionHasItsOwnResultKey() throws {
        #expect(ImageServerConfiguration().smartCrop == .centre)
        let centre = try ThumborReference.makeFixture()
        let attention = try ThumborReference.makeFixture { $0.smartCrop = .attention }
        let smart = try ThumborURLParser.parse("/unsafe/100x100/smart/photo.jpg")
        let plain = try ThumborURLParser.parse("/unsafe/100x100/photo.jpg")
        let choice = OutputFormatChoice.negotiated(.source)
        #expect(centre.server.resultKey(for: smart, choice: choice) != attention.server.resultKey(for: smart, choice: choice))
        #expect(centre.server.resultKey(for: plain, choice: choice) == attention.server.resultKey(for: plain, choice: choice))
    }

    /// A Python with pyvips: `$PYVIPS_PYTHON`, else `python3` on the `PATH` when it imports pyvips.
    static let pyvips: Task<String?, Never> = Task {
        var candidates = ["python3"]
        if let configured = ProcessInfo.processInfo.environment["PYVIPS_PYTHON"] { candidates.insert(configured, at: 0) }
        for candidate in candidates where ChildProcess.path(of: candidate) != nil {
            if let outcome = try? await ChildProcess.run(candidate, ["-c", "import pyvips"]), outcome.succeeded { return candidate }
        }
        return nil
    }

    /// libvips' `attention` window of `size` in `bitmap` (through pyvips, on a PNG of the bitmap).
    static func libvipsWindow(of size: PixelSize, in bitmap: Bitmap, python: String) async throws -> PixelRect {
        let folder = try TemporaryFolder(prefix: "attention-vips")
        try PNGCoder().encode(WebImage(bitmap: bitmap), as: .png).writeWithoutSync(to: URL(fileURLWithPath: folder.path("scene.png")))
        let script = """
            import sys, pyvips
            image = pyvips.Image.new_from_file(sys.argv[1])
            width, height = int(sys.argv[2]), int(sys.argv[3])
            _, found = image.smartcrop(width, height, interesting="attention", attention_x=True, attention_y=True)
            left = min(max(found["attention_x"] - width // 2, 0), image.width - width)
            top = min(max(found["attention_y"] - height // 2, 0), image.height - height)
            print(left, top)
            """
        let outcome = try await ChildProcess.run(python, ["-c", script, folder.path("scene.png"), "\(size.width)", "\(size.height)"])
        try #require(outcome.succeeded, "pyvips: \(outcome.errorText)")
        let numbers = outcome.outputText.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(numbers.count == 2)
        return PixelRect(x: numbers[0], y: numbers[1], size: size)
    }

    static let pyvipsSkipMessage = "no Python with pyvips (pip install pyvips, or set PYVIPS_PYTHON): the comparison with libvips' attention crop skipped"

    /// Against libvips' own `smartcrop(interesting=attention)` on the same pictures: the windows
    /// overlap by at least 70% (intersection over union). Skipped without pyvips.
    @Test(arguments: scenes)
    func overlapsLibvipsAttention(_ scene: Scene) async throws {
        guard let python = await Self.pyvips.value else {
            print(Self.pyvipsSkipMessage)
            return
        }
        let bitmap = scene.bitmap
        let theirs = try await Self.libvipsWindow(of: scene.window, in: bitmap, python: python)
        let ours = AttentionCrop.window(of: scene.window, in: PixelRect(x: 0, y: 0, size: scene.size), of: bitmap)
        let overlap = Self.iou(ours, theirs)
        print("attention IoU against libvips, \(scene.name): \(String(format: "%.2f", overlap)) (ours \(ours), libvips \(theirs))")
        #expect(overlap >= 0.7, "\(scene.name): ours \(ours), libvips \(theirs), IoU \(overlap)")
    }

    /// The photographs of `../shared/testdata` (decoded at about 1000 pixels wide, orientation
    /// applied), each cropped to a square and to a strip across its long side.
    static let photos = ["TestJFIF.jpg", "TestImageLarge.jpg", "TestHDR.jpeg", "TestImageStatic.webp"]

    /// On real photographs against libvips: the windows overlap by half or more on average
    /// (each pair is printed). Skipped without pyvips or the shared test images.
    @Test func overlapsLibvipsAttentionOnPhotos() async throws {
        guard let python = await Self.pyvips.value else {
            print(Self.pyvipsSkipMessage)
            return
        }
        let present = Self.photos.filter(SharedTestData.has)
        guard !present.isEmpty else {
            print("no photographs in \(SharedTestData.sdWebImage.path): the comparison with libvips' attention crop on photos skipped")
            return
        }
        var overlaps: [Double] = []
        for name in present {
            var options = ImageDecodeOptions()
            options.thumbnailPixelSize = PixelSize(width: 1000, height: 1000)
            let bitmap = try ServingFixture.coders.decode(Data(contentsOf: SharedTestData.sdWebImage(name)), options: options).bitmap
            let short = min(bitmap.width, bitmap.height), long = max(bitmap.width, bitmap.height)
            let strip = bitmap.width >= bitmap.height ? PixelSize(width: long / 3, height: short) : PixelSize(width: short, height: long / 3)
            for window in [PixelSize(width: short, height: short), strip] {
                let theirs = try await Self.libvipsWindow(of: window, in: bitmap, python: python)
                let ours = AttentionCrop.window(of: window, in: PixelRect(x: 0, y: 0, size: bitmap.size), of: bitmap)
                let overlap = Self.iou(ours, theirs)
                overlaps.append(overlap)
                print("attention IoU against libvips, \(name) \(bitmap.size) window \(window): \(String(format: "%.2f", overlap)) (ours \(ours), libvips \(theirs))")
            }
        }
        let mean = overlaps.reduce(0, +) / Double(overlaps.count)
        print("attention IoU against libvips on photos: mean \(String(format: "%.2f", mean)) over \(overlaps.count) windows")
        #expect(mean >= 0.5)
    }
}
