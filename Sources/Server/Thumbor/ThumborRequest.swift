/// One thumbor-style image URL, parsed: how it is signed, the geometry it asks for, its filters
/// and its source (`/<signature|unsafe>/[meta/][trim/][AxB:CxD/][fit-in/][-]WxH/[halign/][valign/][smart/][filters:.../]<image>`).
///
/// ``ThumborURLParser`` makes one from a path with thumbor 7.8's grammar; ``plan(sourceSize:)``
/// turns it into the crop, size, canvas and flips for a source of a given size, with thumbor's
/// semantics. The defaults of the initializer are thumbor's (no crop, centre/middle, no fit-in).
///
/// ```swift
/// let request = try ThumborURLParser.parse("/unsafe/fit-in/300x200/filters:format(webp)/https%3A%2F%2Fexample.com%2Fa.jpg")
/// request.source // "https://example.com/a.jpg"
/// request.plan(sourceSize: PixelSize(width: 1000, height: 500)).size // 300x150
/// ```
public struct ThumborRequest: Hashable, Sendable {
    /// How the URL is authorised.
    public enum Security: Hashable, Sendable {
        /// `/unsafe/...`: no signature (refused unless the server allows unsigned URLs).
        case unsafe
        /// `/<signature>/...`: URL-safe base64 HMAC-SHA1 of ``ThumborRequest/signedPart``, as
        /// written in the path but percent-decoded once (so `%3D` is `=`); check it with
        /// ``ThumborSigner/isValid(signature:for:)``.
        case signed(String)
    }

    /// `fit-in`, `full-fit-in`, `adaptive-fit-in`, `adaptive-full-fit-in`, or none.
    public enum FitIn: String, Hashable, Sendable {
        /// No fit-in: the image is cropped to the requested aspect ratio and resized to fill it.
        case none
        /// Fits inside the box without cropping.
        case fitIn = "fit-in"
        /// Fits so that the smaller side fills the box (the image covers it), no cropping.
        case fullFitIn = "full-fit-in"
        /// `fit-in`, with the box turned when that fits the image better.
        case adaptiveFitIn = "adaptive-fit-in"
        /// `full-fit-in`, with the box turned when that fits the image better.
        case adaptiveFullFitIn = "adaptive-full-fit-in"
    }

    /// `halign`: where a crop to the requested aspect ratio keeps the image horizontally.
    public enum HorizontalAlignment: String, Hashable, Sendable {
        /// Keeps the left edge.
        case left
        /// Keeps the middle (the default).
        case center
        /// Keeps the right edge.
        case right
    }

    /// `valign`: where a crop to the requested aspect ratio keeps the image vertically.
    public enum VerticalAlignment: String, Hashable, Sendable {
        /// Keeps the top edge.
        case top
        /// Keeps the middle (the default).
        case middle
        /// Keeps the bottom edge.
        case bottom
    }

    /// `trim[:top-left|bottom-right][:tolerance]`: which corner's colour is trimmed, and how far
    /// a pixel may differ from it and still be trimmed.
    ///
    /// As thumbor 7.8 reads it, the field after `trim:` is always the corner: `trim:10` is the
    /// corner "10", which thumbor takes as bottom-right, with tolerance 0 (write
    /// `trim:top-left:10` for a tolerance). ``region(in:)`` finds what it keeps.
    public struct Trim: Hashable, Sendable {
        /// Whether the bottom-right pixel (not the top-left one) gives the colour.
        public var fromBottomRight: Bool
        /// The largest colour distance still trimmed (0 to 442).
        public var tolerance: Int

        /// A trim from its corner and tolerance.
        public init(fromBottomRight: Bool = false, tolerance: Int = 0) {
            self.fromBottomRight = fromBottomRight
            self.tolerance = tolerance
        }
    }

    /// `AxB:CxD`: a manual crop by the left, top, right and bottom edges in source pixels.
    public struct Crop: Hashable, Sendable {
        /// The left edge (A).
        public var left: Int
        /// The top edge (B).
        public var top: Int
        /// The right edge (C), exclusive.
        public var right: Int
        /// The bottom edge (D), exclusive.
        public var bottom: Int

        /// A crop from its four edges.
        public init(left: Int, top: Int, right: Int, bottom: Int) {
            self.left = left
            self.top = top
            self.right = right
            self.bottom = bottom
        }
    }

    /// The signature or `unsafe`.
    public var security: Security
    /// `meta/`: the answer is thumbor's JSON metadata of the request (the image's size, the
    /// crops, resize and flips the transformation does, the target size, the focal points)
    /// instead of the image; `false` by default.
    public var meta = false
    /// The part of the path the signature covers: everything after the signature (or
    /// `unsafe`) and its slash, exactly as received (still percent-encoded), as thumbor signs it.
    public var signedPart: String
    /// `trim`, when asked for.
    public var trim: Trim?
    /// The manual crop, when given with at least one edge above 0 (thumbor ignores
    /// `0x0:0x0`); coordinates past the image are clamped by the plan.
    public var crop: Crop?
    /// The fit-in mode.
    public var fitIn: FitIn
    /// The requested width; `nil` when absent, 0 for "keep the aspect ratio" (thumbor treats
    /// both alike). Numbers above 999,999,999 are read as 999,999,999.
    public var width: Int?
    /// The requested height; `nil` when absent, 0 for "keep the aspect ratio" (thumbor treats
    /// both alike). Numbers above 999,999,999 are read as 999,999,999.
    public var height: Int?
    /// `origxH`: the width is the source's (after any crop); ``width`` is then `nil`.
    public var usesSourceWidth: Bool
    /// `Wxorig`: the height is the source's (after any crop); ``height`` is then `nil`.
    public var usesSourceHeight: Bool
    /// A `-` before the width: flip horizontally.
    public var flipsHorizontally: Bool
    /// A `-` before the height: flip vertically.
    public var flipsVertically: Bool
    /// `halign`.
    public var horizontalAlignment: HorizontalAlignment
    /// `valign`.
    public var verticalAlignment: VerticalAlignment
    /// `smart`: without a detector the crop is centred, or aligned as asked, as thumbor's;
    /// a server with ``ImageServerConfiguration/smartCrop`` set to ``SmartCropMode/attention``
    /// places it where the picture draws the eye.
    public var smart: Bool
    /// The regions of interest of `focal(AxB:CxD)` filters (left, top, right, bottom in
    /// source pixels), in the URL's order: when there are any, the crop to the requested aspect
    /// ratio centres on their centre of mass (weighted by area) instead of `halign`/`valign`.
    /// They are not in ``filters``; a region with no area is skipped, as thumbor skips it.
    /// `extract_focal()` adds the crop of the thumbor URL it unwraps (see
    /// ``ThumborFilter/extractFocal``).
    public var focalRegions: [Crop]
    /// The filters, in the URL's order.
    public var filters: [ThumborFilter]
    /// The pieces of the `filters:` part that were skipped because their names are not
    /// filters this server knows (thumbor skips unknown names too), or because thumbor's
    /// expression for the filter does not match their arguments (thumbor skips those too:
    /// `noise(-1)`, `blur(0)`), as written.
    public var ignoredFilters: [String]
    /// The image: a URL (`http://...`, `https://...`, `photos://...`) or a path under the
    /// server's file root, percent-decoded once.
    public var source: String

    /// A request from its parts; the defaults are thumbor's.
    public init(security: Security = .unsafe, signedPart: String = "", trim: Trim? = nil, crop: Crop? = nil, fitIn: FitIn = .none, width: Int? = nil, height: Int? = nil, usesSourceWidth: Bool = false, usesSourceHeight: Bool = false, flipsHorizontally: Bool = false, flipsVertically: Bool = false, horizontalAlignment: HorizontalAlignment = .center, verticalAlignment: VerticalAlignment = .middle, smart: Bool = false, focalRegions: [Crop] = [], filters: [ThumborFilter] = [], ignoredFilters: [String] = [], source: String) {
        self.security = security
        self.signedPart = signedPart
        self.trim = trim
        self.crop = crop
        self.fitIn = fitIn
        self.width = width
        self.height = height
        self.usesSourceWidth = usesSourceWidth
        self.usesSourceHeight = usesSourceHeight
        self.flipsHorizontally = flipsHorizontally
        self.flipsVertically = flipsVertically
        self.horizontalAlignment = horizontalAlignment
        self.verticalAlignment = verticalAlignment
        self.smart = smart
        self.focalRegions = focalRegions
        self.filters = filters
        self.ignoredFilters = ignoredFilters
        self.source = source
    }
}
