public import Foundation
public import WebImageCore
public import Testing

/// The contract every ``/WebImageCore/ImageCoder`` must meet: the built-in coders and plug-in coders run
/// through it.
///
/// ```swift
/// @Test(arguments: ImageCoderContract.Check.allCases)
/// func contract(_ check: ImageCoderContract.Check) throws {
///     try ImageCoderContract.verify(check, subject: .init(coder: PNGCoder(), format: .png))
/// }
/// ```
///
/// A coder that only decodes (SVG, PDF) gives a sample file and the pixels it must decode to
/// (``Subject/init(decoder:format:sample:expected:tolerance:preservesAlpha:)``): the checks then
/// run on the sample instead of the coder's own output, and the round trip becomes "decodes the
/// sample to the expected pixels, and refuses to encode".
public enum ImageCoderContract {
    /// What is under test.
    public struct Subject: Sendable {
        /// The coder.
        public var coder: any ImageCoder
        /// A format it encodes and decodes.
        public var format: ImageFormat
        /// The largest per-channel difference a round trip may show (0 for lossless formats).
        public var tolerance: Int
        /// Whether the format keeps alpha (checked in the round trip when true).
        public var preservesAlpha: Bool

        /// For a decode-only coder: the file the checks run on and the pixels it decodes to
        /// (`nil`: the checks encode a test image with the coder).
        public var sample: (data: Data, expected: Bitmap)?

        /// A subject: `coder` round-trips `format` within `tolerance` per channel.
        public init(coder: any ImageCoder, format: ImageFormat, tolerance: Int = 0, preservesAlpha: Bool = true) {
            self.coder = coder
            self.format = format
            self.tolerance = tolerance
            self.preservesAlpha = preservesAlpha
        }

        /// A subject for a coder that only decodes: `sample` (a file of `format`) decodes to
        /// `expected` within `tolerance` per channel, and `decoder` does not claim to encode
        /// `format` (or encodes it: then it must not throw).
        public init(decoder: any ImageCoder, format: ImageFormat, sample: Data, expected: Bitmap, tolerance: Int = 0, preservesAlpha: Bool = true) {
            self.init(coder: decoder, format: format, tolerance: tolerance, preservesAlpha: preservesAlpha)
            self.sample = (sample, expected)
        }
    }

    /// One clause of the contract.
    public enum Check: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Encoding then decoding gives the same size and pixels within the tolerance.
        case roundTrip
        /// The coder claims (`canDecode`) the data it encodes, and sniffing names its format.
        case claimsItsOwnOutput
        /// Empty data: `canDecode` is false and `decode` throws a `WebImageError`.
        case emptyInput
        /// The coder's own output cut at many lengths: a `WebImageError` or an image, never a trap.
        case truncatedInput
        /// The coder's own output with bytes flipped after the header: a `WebImageError` or an
        /// image, never a trap.
        case corruptInput
        /// A thumbnail request gives an image no larger than asked, marked as a thumbnail.
        case thumbnailIsBounded

        /// The check's name, as Swift Testing shows it for a parameterized test.
        public var testDescription: String { rawValue }
    }

    /// Runs one check, recording failures with Swift Testing's `#expect`.
    public static func verify(_ check: Check, subject: Subject, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let coder = subject.coder
        let source: WebImage
        let encoded: Data
        if let sample = subject.sample {
            source = WebImage(bitmap: sample.expected)
            encoded = sample.data
        } else {
            source = WebImage(bitmap: TestImages.gradient(width: 37, height: 23, seed: 90, alpha: subject.preservesAlpha))
            encoded = try coder.encode(source, as: subject.format)
        }

        switch check {
        case .roundTrip:
            if subject.sample != nil, !coder.canEncode(to: subject.format) {
                #expect(throws: WebImageError.self, "a decode-only coder refuses to encode", sourceLocation: sourceLocation) {
                    try coder.encode(source, as: subject.format)
                }
            }
            let decoded = try coder.decode(encoded)
            #expect(decoded.pixelSize == source.pixelSize, sourceLocation: sourceLocation)
            let difference = maxChannelDifference(decoded.bitmap, source.bitmap, includeAlpha: subject.preservesAlpha)
            #expect(difference <= subject.tolerance, "round trip differs by \(difference) > \(subject.tolerance)", sourceLocation: sourceLocation)

        case .claimsItsOwnOutput:
            #expect(coder.canDecode(encoded), sourceLocation: sourceLocation)
            #expect(ImageFormat.detect(encoded) == subject.format, sourceLocation: sourceLocation)

        case .emptyInput:
            #expect(!coder.canDecode(Data()), sourceLocation: sourceLocation)
            #expect(throws: WebImageError.self, sourceLocation: sourceLocation) { try coder.decode(Data()) }

        case .truncatedInput:
            let lengths = Set([1, 2, 4, 8, 16, 32, 64, encoded.count / 4, encoded.count / 2, encoded.count - 1])
                .filter { $0 > 0 && $0 < encoded.count }.sorted()
            for length in lengths {
                assertNoTrap(coder, Data(encoded.prefix(length)), what: "truncated to \(length) bytes", sourceLocation: sourceLocation)
            }

        case .corruptInput:
            var generator = SplitMix64(seed: 0x5EED)
            for round in 0..<16 {
                var corrupt = [UInt8](encoded)
                let start = min(corrupt.count - 1, 16)
                for _ in 0..<max(1, corrupt.count / 20) {
                    let index = start + Int(generator.next() % UInt64(max(1, corrupt.count - start)))
                    corrupt[index] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
                }
                assertNoTrap(coder, Data(corrupt), what: "corrupted (round \(round))", sourceLocation: sourceLocation)
            }

        case .thumbnailIsBounded:
            var options = ImageDecodeOptions()
            options.thumbnailPixelSize = PixelSize(width: 10, height: 10)
            let thumbnail = try coder.decode(encoded, options: options)
            #expect(thumbnail.pixelSize.width <= 10 && thumbnail.pixelSize.height <= 10, "thumbnail is \(thumbnail.pixelSize)", sourceLocation: sourceLocation)
            #expect(thumbnail.pixelSize.width >= 1 && thumbnail.pixelSize.height >= 1, sourceLocation: sourceLocation)
            #expect(thumbnail.metadata.contains(.thumbnail), sourceLocation: sourceLocation)
        }
    }

    /// Decoding either throws a `WebImageError` or returns an image of a sane size.
    private static func assertNoTrap(_ coder: any ImageCoder, _ data: Data, what: String, sourceLocation: SourceLocation) {
        do {
            let image = try coder.decode(data)
            #expect(!image.pixelSize.isEmpty, "\(what): decoded to an empty image", sourceLocation: sourceLocation)
        } catch {
            #expect(error is WebImageError, "\(what): threw \(type(of: error)), not WebImageError", sourceLocation: sourceLocation)
        }
    }

    /// The largest difference of any channel between two same-size bitmaps.
    public static func maxChannelDifference(_ a: Bitmap, _ b: Bitmap, includeAlpha: Bool = true) -> Int {
        guard a.size == b.size else { return Int.max }
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                worst = max(worst, abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)), abs(Int(p.blue) - Int(q.blue)))
                if includeAlpha { worst = max(worst, abs(Int(p.alpha) - Int(q.alpha))) }
            }
        }
        return worst
    }
}

/// A small deterministic random generator for reproducible corrupt inputs.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }
    /// The next 64 random bits of the sequence (SplitMix64's step and mix).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
