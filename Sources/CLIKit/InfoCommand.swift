import Foundation
import SwiftWebImage

/// `webimage info <file-or-URL>... [--json] [--max-pixels N] [--max-frame-pixels N] [--max-frames N]`: format, size, frames, pages, loop
/// count, frame durations and alpha of each input.
///
/// Each input is loaded through ``ImageManager/shared`` (the shared loaders, decoding with the
/// shared coders) with an empty cache in its context: `info` neither reads nor fills any cache.
/// Inputs are described in the order given. With `--json`, each gets exactly one line on
/// standard output: ``ImageDescription/json`` or, when it cannot be read or decoded,
/// `{"source","error":{"code","message"}}`. Without it, one line each on standard output, and
/// errors on standard error. The exit status is 1 when any input failed.
///
/// Decision: formats whose coder reads headers (``ImageHeaderReader``: JPEG, PNG/APNG, GIF, BMP)
/// are described from the headers alone, in milliseconds and a few MB whatever the image claims,
/// and an image over the decode limits is still described (exit status 0) with the refusal a
/// decode would give (``ImageProperties/decodeLimitError(options:)``: pixels per frame, pixels
/// across frames, frame count; not a coder's own rules such as a JPEG's scan budget). Other
/// formats are decoded under the limits and refused as before.
///
/// Decision: a document whose decode shows one page of several (PDF) gets its page count
/// (`pages`) from the coder that reads it, when that coder is a ``PageCountReader``; the CLI
/// names no format here. Formats whose pages are frames (TIFF) report them as `frames`, and
/// `pages` is `null`.
struct InfoCommand: Command {
    static let name = "info"
    static let summary = "Format, size, frames, pages, loop count, frame durations and alpha of images"
    static let help = """
        USAGE: webimage info <file-or-URL>... [--json] [--max-pixels N] [--max-frame-pixels N]
                             [--max-frames N]

        Describes each input: a file path, or an http(s), file or data URL.
        JPEG, PNG/APNG, GIF and BMP are described from their headers, without decoding:
        an image over the limits is described too, with the reason a decode would be
        refused (text: "; a decode would be refused: ..."; JSON: "refused").

        OPTIONS:
          --json        One JSON object per input, one per line, keys in this order:
                        {"source","format","width","height","frames","pages","loopCount","durations",
                         "hasAlpha","colorSpace","refused"}
                        pages: the document's page count when a decode shows one page of
                        several (PDF: the first page is described); null otherwise (a TIFF's
                        pages are its frames).
                        loopCount: 0 = forever, null = the file states none.
                        durations: one per frame, in milliseconds as the file states them.
                        colorSpace: the profile's description, "sRGB", "untagged"... (JPEG,
                        PNG); for decoded formats whether a profile was converted; or null.
                        refused: null, or {"code","message"}: the error a decode under the
                        limits would give (the image is still described).
                        An input that cannot be read or decoded gives
                        {"source","error":{"code","message"}} and the exit status is 1.
          \(ConvertCommand.limitsHelp)
          -h, --help    Show this help.

        EXAMPLES:
          webimage info photo.jpg animation.gif
          webimage info --json https://example.com/a.png
        """

    let console: Console

    init(console: Console) {
        self.console = console
    }

    func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ArgumentParser(command: Self.name, flags: ["--json"], options: ConvertCommand.limitOptions).parse(arguments)
        if parsed.has("--help") {
            console.printText(Self.help)
            return ExitStatus.success
        }
        guard !parsed.positionals.isEmpty else {
            throw CLIError.usage("\(Self.name): give at least one file or URL")
        }
        let json = parsed.has("--json")
        var limits = WebImageContext()
        try ConvertCommand.applyLimits(parsed, to: &limits, command: Self.name)
        var failed = false
        for argument in parsed.positionals {
            do {
                let description = try await describe(argument, limits: limits)
                console.print(json ? description.json.serialized : description.text)
            } catch {
                failed = true
                let report = ErrorReport(error)
                if json {
                    console.print(ImageDescription.errorJSON(source: argument, report: report).serialized)
                } else {
                    console.printError("webimage \(Self.name): \(argument): \(report.message)")
                }
            }
        }
        return failed ? ExitStatus.failure : ExitStatus.success
    }

    /// Loads and describes one input, from its headers when the coder that would decode it is
    /// an ``ImageHeaderReader`` (every built-in format: nothing is decoded, so images over the
    /// limits are described too, with the refusal a decode would give), else by decoding it
    /// under the limits `limits` sets (``WebImageContext/imageMaxTotalPixelCount``,
    /// ``WebImageContext/imageMaxPixelCount``, ``WebImageContext/imageMaxFrameCount``).
    func describe(_ argument: String, limits: WebImageContext = WebImageContext()) async throws -> ImageDescription {
        let source = try ImageSource(argument)
        var context = limits
        context.imageCache = CachesManager()
        let result = try await ImageManager.shared.loadImage(with: source.url, options: [.retryFailed, .avoidDecodeImage], context: context)
        guard let data = result.data, !data.isEmpty else {
            throw WebImageError(.badImageData, "\(argument) gave no data", url: source.url)
        }
        let stage = ImageDecodeRequest(url: source.url, options: [], context: context, defaultCoder: CodersManager.shared)
        if let properties = try Self.properties(of: data, coder: stage.coder) {
            let pages = try Self.pageCount(of: data, coder: stage.coder)
            return ImageDescription(source: argument, properties: properties, pages: pages, refusal: properties.decodeLimitError(options: stage.decodeOptions))
        }
        guard let image = try await stage.decodeLoadedData(data, on: .processing) else {
            throw WebImageError(.badImageData, "\(argument) gave no image", url: source.url)
        }
        return ImageDescription(source: argument, image: image, pages: try Self.pageCount(of: data, coder: stage.coder))
    }

    /// The page count of `data` when `coder` (or, for a ``CodersManager``, the member that would
    /// decode the data: the last added that can) is a ``PageCountReader``; `nil` otherwise.
    static func pageCount(of data: Data, coder: any ImageCoder) throws -> Int? {
        if let manager = coder as? CodersManager {
            guard let member = manager.coders.reversed().first(where: { $0.canDecode(data) }) else { return nil }
            return try pageCount(of: data, coder: member)
        }
        return try (coder as? any PageCountReader)?.pageCount(of: data)
    }

    /// The properties of `data` from the headers, when `coder` (or, for a ``CodersManager``, the
    /// member that would decode the data) reads headers; `nil` when the image must be decoded.
    static func properties(of data: Data, coder: any ImageCoder) throws -> ImageProperties? {
        let reader: (any ImageHeaderReader)? = if let manager = coder as? CodersManager {
            manager.headerReader(for: data)
        } else if coder.canDecode(data) {
            coder as? any ImageHeaderReader
        } else {
            nil
        }
        guard let reader else { return nil }
        do {
            return try reader.readProperties(of: data)
        } catch let error as WebImageError where error.code == .unsupportedFormat {
            return nil  // a manager whose member reads no headers: decode
        }
    }
}
