extension StringProtocol {
    /// The string as it may be printed on one line of a terminal: every character that could
    /// break the line, move the cursor, start an escape sequence or reorder the text is written
    /// as an escape instead — `\n`, `\r`, `\t`, and `\u{1B}` (hexadecimal) for the others.
    ///
    /// Escaped: the control characters (C0, DEL, C1), the line and paragraph separators
    /// (U+2028, U+2029) and the bidirectional formatting characters (U+061C, U+200E, U+200F,
    /// U+202A to U+202E, U+2066 to U+2069). A backslash is left as it is: the result is for
    /// reading, not for parsing back.
    var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: Self.needsEscape) else { return String(self) }
        var result = ""
        result.unicodeScalars.reserveCapacity(unicodeScalars.count + 8)
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where Self.needsEscape(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            true
        default:
            false
        }
    }
}
