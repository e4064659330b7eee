
/// The table of known formats: the built-ins, then plug-in registrations.
final class ImageFormatRegistry: Sendable {
    static let shared = ImageFormatRegistry()

    private struct State {
        /// Built-ins first, plug-ins after in registration order.
        var descriptors: [ImageFormatDescriptor]
    }

    private let state = Locked(State(descriptors: ImageFormatRegistry.builtIns))

    private static let builtIns: [ImageFormatDescriptor] = [
        ImageFormatDescriptor(format: .jpeg, fileExtensions: ["jpg", "jpeg", "jpe", "jfif"], mimeTypes: ["image/jpeg", "image/jpg", "image/pjpeg"]),
        ImageFormatDescriptor(format: .png, fileExtensions: ["png", "apng"], mimeTypes: ["image/png", "image/apng", "image/vnd.mozilla.apng"]),
        ImageFormatDescriptor(format: .gif, fileExtensions: ["gif"], mimeTypes: ["image/gif"]),
        ImageFormatDescriptor(format: .tiff, fileExtensions: ["tiff", "tif"], mimeTypes: ["image/tiff"]),
        ImageFormatDescriptor(format: .webp, fileExtensions: ["webp"], mimeTypes: ["image/webp"]),
        ImageFormatDescriptor(format: .heic, fileExtensions: ["heic", "heics"], mimeTypes: ["image/heic", "image/heic-sequence"]),
        ImageFormatDescriptor(format: .heif, fileExtensions: ["heif", "heifs", "hif"], mimeTypes: ["image/heif", "image/heif-sequence"]),
        ImageFormatDescriptor(format: .avif, fileExtensions: ["avif", "avifs"], mimeTypes: ["image/avif"]),
        ImageFormatDescriptor(format: .pdf, fileExtensions: ["pdf"], mimeTypes: ["application/pdf"]),
        ImageFormatDescriptor(format: .svg, fileExtensions: ["svg", "svgz"], mimeTypes: ["image/svg+xml"]),
        ImageFormatDescriptor(format: .bmp, fileExtensions: ["bmp", "dib"], mimeTypes: ["image/bmp", "image/x-ms-bmp", "image/x-bmp"]),
        ImageFormatDescriptor(format: .ico, fileExtensions: ["ico"], mimeTypes: ["image/x-icon", "image/vnd.microsoft.icon"]),
        ImageFormatDescriptor(format: .jpegXL, fileExtensions: ["jxl"], mimeTypes: ["image/jxl"]),
    ]

    func register(_ descriptor: ImageFormatDescriptor) {
        state.withLock { state in
            state.descriptors.removeAll { $0.format == descriptor.format }
            state.descriptors.append(descriptor)
        }
    }

    func descriptor(for format: ImageFormat) -> ImageFormatDescriptor? {
        state.withLock { $0.descriptors.last { $0.format == format } }
    }

    /// The first format, latest registration first, whose descriptor matches.
    func format(where matches: (ImageFormatDescriptor) -> Bool) -> ImageFormat? {
        let snapshot = state.withLock { $0.descriptors }
        return snapshot.last(where: matches)?.format
    }

    /// Descriptors with a detector, latest registration first.
    func descriptorsWithDetectors() -> [ImageFormatDescriptor] {
        state.withLock { state in state.descriptors.filter { $0.detector != nil }.reversed() }
    }
}
