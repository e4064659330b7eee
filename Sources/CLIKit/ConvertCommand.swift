import Foundation
import SwiftWebImage

/// `webimage convert <input> <output> [--frame N] [--format F] [--quality Q]
/// [--thumbnail WxH] [--max-pixels N] [--max-frame-pixels N] [--max-frames N] [--transform SPEC]...`: decode, optionally pick a frame, thumbnail and
/// transform, encode, write.
///
/// - The input is a path or an http(s), file or data URL, loaded through
///   ``ImageManager/shared`` with an empty cache (nothing is read from or written to a cache).
/// - `--max-pixels`, `--max-frame-pixels` and `--max-frames` set the decode limits
///   (``WebImageContext/imageMaxTotalPixelCount``, ``WebImageContext/imageMaxPixelCount``,
///   ``WebImageContext/imageMaxFrameCount``; ``applyLimits(_:to:command:)``).
/// - `--thumbnail` and the transformers travel in the request's context; a local PNG or JPEG's
///   thumbnail is decoded from the file a piece at a time (``FileThumbnailLoader``: the
///   compressed file is never held in memory); `--frame N` is a
///   ``FrameSelectionTransformer`` at the head of the pipeline, and `transformAnimatedImage`
///   is set so that animations are transformed too.
/// - The output format is `--format`, else the output's extension; it is encoded with
///   ``CodersManager/shared`` (so a coder registered at launch can write too: the plug-in
///   coders of ``PluginCoders``, such as WebP, and the WIRL coder). An animated
///   image stays animated in GIF, PNG (APNG), WebP, JPEG XL and AVIF (``animatedFormats``) unless `--frame`
///   picks one frame; the other formats get the first frame. PNG output is 8 bits per channel.
/// - `--quality` is 0...100 for lossy formats; JPEG, WebP, HEIC, JPEG XL and AVIF default to 90 (decision: the coders' own
///   default, 100, makes files several times larger for no visible gain).
/// - The output is written to a temporary file in its directory and renamed into place: on any
///   failure nothing is left behind, and an existing file is replaced only by a complete one.
/// - Failures: one line on standard error, `webimage convert: <input>: <reason>`, exit status 1
///   (64 for a command-line mistake).
struct ConvertCommand: Command {
    static let name = "convert"
    static let summary = "Convert an image: pick a frame, thumbnail, transform, re-encode"
    static let help = """
        USAGE: webimage convert <input> <output> [--frame N] [--format png|jpeg|webp|...]
                                [--quality Q] [--thumbnail WxH] [--keep-profile] [--max-pixels N]
                                [--max-frame-pixels N] [--max-frames N] [--transform SPEC]...

        <input> is a path or an http(s), file or data URL. The output format follows the
        output's extension (.png, .jpg/.jpeg, .gif, .bmp, .webp, .wirl, and those of any other
        format a coder writes) unless --format says otherwise.
        Nothing is written unless the whole conversion succeeds.

        OPTIONS:
          --frame N             Write frame N (from 0) of an animation as a still image.
          --format F            The output format: png, jpeg (jpg), gif, bmp, webp, wirl, ...
          --quality Q           Quality of lossy formats, 0...100 (JPEG and WebP default: 90).
          --thumbnail WxH       Decode at most WxH pixels, keeping the aspect ratio.
          --keep-profile        Keep the input's colour profile and embed it in the output
                                (JPEG, PNG, WebP, AVIF, HEIC, JPEG XL). Default: convert a
                                tagged input to sRGB and write no profile. CMYK is always
                                converted.
          \(Self.limitsHelp)
          --transform SPEC      Apply a transformer; repeat to chain them, in order.
          -h, --help            Show this help.

        \(TransformSpec.grammar)

        Animations stay animated in GIF, PNG (APNG) and WebP outputs; the other formats get the
        first frame. PNG output is 8 bits per channel.
        """

    let console: Console

    init(console: Console) {
        self.console = console
    }

    func run(_ arguments: [String]) async throws -> Int32 {
        let parser = ArgumentParser(
            command: Self.name,
            flags: ["--keep-profile"],
            options: Self.limitOptions.union(["--frame", "--format", "--quality", "--thumbnail", "--transform"]),
            repeatable: ["--transform"]
        )
        let parsed = try parser.parse(arguments)
        if parsed.has("--help") {
            console.printText(Self.help)
            return ExitStatus.success
        }
        guard parsed.positionals.count == 2 else {
            throw CLIError.usage("\(Self.name): give an input and an output (got \(parsed.positionals.count) argument\(parsed.positionals.count == 1 ? "" : "s"))")
        }
        let input = parsed.positionals[0]
        let output = URL(fileURLWithPath: parsed.positionals[1])
        let format = try Self.outputFormat(parsed.value("--format"), output: output)
        let quality = try Self.quality(parsed.value("--quality"), format: format)
        var transformers: [any ImageTransformer] = []
        if let frame = parsed.value("--frame") {
            guard let index = Int(frame), index >= 0 else {
                throw CLIError.usage("\(Self.name): --frame needs a frame number from 0, not '\(frame)'")
            }
            transformers.append(FrameSelectionTransformer(index: index))
        }
        for spec in parsed.allValues("--transform") {
            do {
                transformers.append(try TransformSpec.parse(spec))
            } catch {
                throw CLIError.usage("\(Self.name): \(error.message)")
            }
        }
        var context = WebImageContext()
        context.imageCache = CachesManager()
        context.imageTransformer = TransformSpec.combined(transformers)
        if let thumbnail = parsed.value("--thumbnail") {
            context.imageThumbnailPixelSize = try Self.thumbnailSize(thumbnail, command: Self.name)
            // A local PNG or JPEG is decoded from the file a piece at a time.
            context.imageLoader = FileThumbnailLoader(fallback: ImageManager.shared.imageLoader)
        }
        if parsed.has("--keep-profile") { context.imageColorProfileHandling = .keep }
        try Self.applyLimits(parsed, to: &context, command: Self.name)

        do {
            let source = try ImageSource(input)
            let result = try await ImageManager.shared.loadImage(with: source.url, options: [.retryFailed, .transformAnimatedImage], context: context)
            guard let image = result.image else {
                throw WebImageError(.badImageData, "\(input) gave no image", url: source.url)
            }
            var options = ImageEncodeOptions(compressionQuality: quality)
            options.firstFrameOnly = !Self.animatedFormats.contains(format)
            let data = try CodersManager.shared.encode(image, as: format, options: options)
            try AtomicFileWriter.write(data, to: output)
            let frames = image.frameCount == 1 || options.firstFrameOnly ? "1 frame" : "\(image.frameCount) frames"
            console.print("\(input) -> \(output.path) (\(format) \(image.pixelSize), \(frames), \(ByteCount.format(Int64(data.count))))")
            return ExitStatus.success
        } catch {
            throw CLIError.failure("\(Self.name): \(input): \(ErrorReport(error).message)")
        }
    }

    /// The format `--format` names, else the one the output's extension names.
    /// - Throws: ``CLIError`` (usage) for an unknown format, or one no coder can write.
    static func outputFormat(_ option: String?, output: URL) throws(CLIError) -> ImageFormat {
        let format: ImageFormat
        if let option {
            let named = ImageFormat(rawValue: option.lowercased())
            format = CodersManager.shared.canEncode(to: named) ? named : ImageFormat(fileExtension: option)
            guard format != .undefined else {
                throw .usage("\(name): unknown --format '\(option)'; use \(writableFormatList)")
            }
        } else {
            let fileExtension = output.pathExtension
            guard !fileExtension.isEmpty else {
                throw .usage("\(name): cannot tell the output format of \(output.lastPathComponent): give it an extension (\(writableExtensionList)) or --format")
            }
            format = ImageFormat(fileExtension: fileExtension)
            guard format != .undefined else {
                throw .usage("\(name): unknown output extension '.\(fileExtension)'; use \(writableExtensionList) or --format")
            }
        }
        guard CodersManager.shared.canEncode(to: format) else {
            throw .usage("\(name): no coder can write \(format) images; use \(writableFormatList)")
        }
        return format
    }

    /// The output formats that keep every frame of an animation (the others get the first).
    static let animatedFormats: Set<ImageFormat> = [.gif, .png, .webp, .jpegXL, .avif]

    /// The formats `convert` can be asked for, in the order its messages list them; only those
    /// some coder of ``CodersManager/shared`` writes are offered.
    static let candidateFormats: [ImageFormat] = [.png, .jpeg, .gif, .bmp, .webp, .avif, .heic, .heif, .jpegXL, .tiff, .ico, .wirl]

    /// The formats ``CodersManager/shared`` writes, as `--format` names them: "png, jpeg, ... or wirl".
    static var writableFormatList: String {
        spokenList(candidateFormats.filter { CodersManager.shared.canEncode(to: $0) }.map(\.rawValue))
    }

    /// The output extensions of the formats ``CodersManager/shared`` writes: ".png, .jpg, ..., .wirl".
    static var writableExtensionList: String {
        candidateFormats.filter { CodersManager.shared.canEncode(to: $0) }.compactMap { $0.fileExtension.map { "." + $0 } }.joined(separator: ", ")
    }

    /// "a, b or c".
    private static func spokenList(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items[items.count - 1]
    }

    /// The formats whose default `--quality` is 90 (lossy by default); the others default to 100.
    static let lossyDefaultFormats: Set<ImageFormat> = [.jpeg, .webp, .heic, .jpegXL, .avif]

    /// `--quality` (0...100) as a compression quality in 0...1; JPEG and WebP default to 0.9,
    /// others to 1.
    static func quality(_ option: String?, format: ImageFormat) throws(CLIError) -> Double {
        guard let option else { return lossyDefaultFormats.contains(format) ? 0.9 : 1 }
        guard let value = Double(option), value.isFinite, (0...100).contains(value) else {
            throw .usage("\(name): --quality must be a number from 0 to 100, not '\(option)'")
        }
        return value / 100
    }

    /// `--thumbnail WxH`.
    static func thumbnailSize(_ option: String, command: String) throws(CLIError) -> PixelSize {
        guard let size = TransformSpec.pixelSize(option) else {
            throw .usage("\(command): --thumbnail needs a size like 200x200 (both sides at least 1), not '\(option)'")
        }
        return size
    }

    /// The help lines of `--max-pixels`, `--max-frame-pixels` and `--max-frames` (`info`,
    /// `convert` and `fetch`).
    static let limitsHelp = """
        --max-pixels N        Refuse images of more than N pixels in all frames together
                                (frames x source width x height; default \(ImageDecodeOptions.defaultMaxTotalPixelCount)).
          --max-frame-pixels N  Refuse images with a frame of more than N pixels (source width
                                x height; default \(ImageDecodeOptions.defaultMaxPixelCount); also sets JPEG's memory budget).
          --max-frames N        Refuse animations of more than N frames (default \(ImageDecodeOptions.defaultMaxFrameCount)).
        """

    /// The decode limit options of `info`, `convert` and `fetch`.
    static let limitOptions: Set<String> = ["--max-pixels", "--max-frame-pixels", "--max-frames"]

    /// Sets the decode limits given on the command line in `context`: `--max-pixels`
    /// (``WebImageContext/imageMaxTotalPixelCount``), `--max-frame-pixels`
    /// (``WebImageContext/imageMaxPixelCount``) and `--max-frames`
    /// (``WebImageContext/imageMaxFrameCount``); a limit not given is left to the defaults.
    /// - Throws: ``CLIError`` (usage) for a value that is not a whole number of at least 1.
    static func applyLimits(_ parsed: ParsedArguments, to context: inout WebImageContext, command: String) throws(CLIError) {
        context.imageMaxTotalPixelCount = try limit(parsed.value("--max-pixels"), option: "--max-pixels", command: command)
        context.imageMaxPixelCount = try limit(parsed.value("--max-frame-pixels"), option: "--max-frame-pixels", command: command)
        context.imageMaxFrameCount = try limit(parsed.value("--max-frames"), option: "--max-frames", command: command)
    }

    /// `--max-pixels N`, `--max-frame-pixels N` or `--max-frames N`: a whole number of at least 1,
    /// or `nil` when not given.
    static func limit(_ value: String?, option: String, command: String) throws(CLIError) -> Int? {
        guard let value else { return nil }
        guard let number = Int(value), number >= 1 else {
            throw .usage("\(command): \(option) needs a whole number of at least 1, not '\(value)'")
        }
        return number
    }
}
