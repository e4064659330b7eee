import Foundation
import WebImageCore
import WebImageTestSupport

/// SVG documents written for the tests (no text: fonts differ between machines).
enum SVGSamples {
    /// 37x23, rectangles on whole pixels (no anti-aliasing): a red left part, a green top right,
    /// a half-transparent blue bottom right, and a transparent column at x 36.
    static let grid = """
        <svg xmlns="http://www.w3.org/2000/svg" width="37" height="23">
          <rect x="0" y="0" width="20" height="23" fill="#ff0000"/>
          <rect x="20" y="0" width="16" height="10" fill="#00ff00"/>
          <rect x="20" y="10" width="16" height="13" fill="#0000ff" fill-opacity="0.5"/>
        </svg>
        """

    /// The pixels ``grid`` draws (straight alpha; 0.5 opacity is alpha 128).
    static var gridPixels: Bitmap {
        Pixels.make(width: 37, height: 23) { x, y in
            if x < 20 { return RGBAColor(red: 255, green: 0, blue: 0, alpha: 255) }
            if x >= 36 { return RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }
            return y < 10 ? RGBAColor(red: 0, green: 255, blue: 0, alpha: 255) : RGBAColor(red: 0, green: 0, blue: 255, alpha: 128)
        }
    }

    /// Shapes with curves, a stroke, a linear and a radial gradient, opacity and a transform.
    static let shapes = """
        <svg xmlns="http://www.w3.org/2000/svg" width="120" height="90" viewBox="0 0 120 90">
          <defs>
            <linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
              <stop offset="0" stop-color="#ff8800"/><stop offset="1" stop-color="#0044ff" stop-opacity="0.6"/>
            </linearGradient>
            <radialGradient id="r" cx="0.5" cy="0.5" r="0.5">
              <stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#22aa44" stop-opacity="0"/>
            </radialGradient>
          </defs>
          <rect x="4" y="4" width="112" height="82" rx="12" fill="url(#g)"/>
          <circle cx="40" cy="45" r="30" fill="url(#r)" stroke="#333" stroke-width="3"/>
          <path d="M70 20 L110 70 Q90 85 70 70 Z" fill="#c0f" fill-opacity="0.7" transform="rotate(-10 90 50)"/>
          <ellipse cx="90" cy="25" rx="15" ry="8" fill="none" stroke="#000" stroke-width="2" stroke-dasharray="4 2"/>
        </svg>
        """

    /// A viewBox and no width or height: drawn at ``SVGCoder/defaultLongSide`` on its long side.
    static let viewBoxOnly = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100">
          <rect width="200" height="100" fill="#336699"/>
          <circle cx="100" cy="50" r="40" fill="#ffcc00" fill-opacity="0.8"/>
        </svg>
        """

    /// A 4000x4000 document (a large icon).
    static let large = """
        <svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000" viewBox="0 0 64 64">
          <rect width="64" height="64" fill="#ffffff"/>
          <circle cx="32" cy="32" r="28" fill="#cc2200"/>
          <rect x="16" y="28" width="32" height="8" fill="#ffffff"/>
        </svg>
        """

    /// `<use>` fan-out of `levels` levels of ten references each (10^levels shapes to draw, a
    /// few hundred bytes): the billion-laughs shape for SVG.
    static func useBomb(levels: Int = 9) -> String {
        var body = "<path id=\"l0\" d=\"M0 0 L1 1 L0 1 Z\" fill=\"#000\"/>\n"
        for level in 1...levels {
            body += "<g id=\"l\(level)\">" + (0..<10).map { _ in "<use href=\"#l\(level - 1)\"/>" }.joined() + "</g>\n"
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">
            <defs>\(body)</defs>
            <use href="#l\(levels)"/>
            </svg>
            """
    }
}
