/// A JSON value whose object keys keep the order they were given in (`info --json` prints its
/// keys in a fixed order, which `JSONEncoder` cannot promise), serialized on one line.
enum JSONValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    /// A number: whole values print without a fraction, others with at most three decimals.
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// The value as compact JSON text (no spaces, no newline).
    var serialized: String {
        var text = ""
        write(to: &text)
        return text
    }

    private func write(to text: inout String) {
        switch self {
        case .string(let value):
            Self.writeString(value, to: &text)
        case .integer(let value):
            text += String(value)
        case .number(let value):
            text += Self.format(value)
        case .bool(let value):
            text += value ? "true" : "false"
        case .null:
            text += "null"
        case .array(let values):
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                value.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { text += "," }
                Self.writeString(key, to: &text)
                text += ":"
                value.write(to: &text)
            }
            text += "}"
        }
    }

    /// A finite number rounded to three decimals; whole numbers without a fraction. JSON has no
    /// NaN or infinity: those print as `null`.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 {
            return String(Int(rounded))
        }
        return String(rounded)
    }

    private static func writeString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized == rhs.serialized
    }
}
