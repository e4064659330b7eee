/// One RGBA8 pixel or color, with straight (non-premultiplied) alpha: the convention of every
/// bitmap in SwiftWebImage.
public struct RGBAColor: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8
    /// Opacity: 0 transparent, 255 opaque. The color channels are NOT multiplied by it.
    public var alpha: UInt8

    /// A color from straight (non-premultiplied) components; opaque unless `alpha` says otherwise.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    /// Fully transparent (black under zero alpha).
    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// `rgba(red,green,blue,alpha)`, each 0...255.
    public var description: String { "rgba(\(red),\(green),\(blue),\(alpha))" }
}
