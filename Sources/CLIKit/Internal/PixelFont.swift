import WebImageCore

/// A 3x5 pixel font for the digits, to number the cells of the demo's contact sheet.
enum PixelFont {
    /// Rows of three bits, top to bottom, most significant bit on the left.
    private static let glyphs: [Character: [UInt8]] = [
        "0": [0b111, 0b101, 0b101, 0b101, 0b111],
        "1": [0b010, 0b110, 0b010, 0b010, 0b111],
        "2": [0b111, 0b001, 0b111, 0b100, 0b111],
        "3": [0b111, 0b001, 0b111, 0b001, 0b111],
        "4": [0b101, 0b101, 0b111, 0b001, 0b001],
        "5": [0b111, 0b100, 0b111, 0b001, 0b111],
        "6": [0b111, 0b100, 0b111, 0b101, 0b111],
        "7": [0b111, 0b001, 0b010, 0b010, 0b010],
        "8": [0b111, 0b101, 0b111, 0b101, 0b111],
        "9": [0b111, 0b101, 0b111, 0b001, 0b111],
    ]

    /// The width in pixels of `text` drawn at `scale` (3 pixels per glyph and 1 between).
    static func width(of text: String, scale: Int) -> Int {
        max(0, text.count * 4 - 1) * scale
    }

    /// The height in pixels of a line at `scale`.
    static func height(scale: Int) -> Int { 5 * scale }

    /// Draws `text` with its top left at (`x`, `y`); pixels outside the bitmap are skipped, and
    /// characters the font lacks are left blank.
    static func draw(_ text: String, into bitmap: inout Bitmap, x: Int, y: Int, scale: Int, color: RGBAColor) {
        for (index, character) in text.enumerated() {
            guard let rows = glyphs[character] else { continue }
            for (row, bits) in rows.enumerated() {
                for column in 0..<3 where bits & (0b100 >> column) != 0 {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let px = x + (index * 4 + column) * scale + dx
                            let py = y + row * scale + dy
                            if px >= 0, py >= 0, px < bitmap.width, py < bitmap.height { bitmap[px, py] = color }
                        }
                    }
                }
            }
        }
    }
}
