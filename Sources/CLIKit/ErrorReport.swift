import SwiftWebImage

/// An error as the commands report it: a code name and a one-line message.
///
/// A ``WebImageError`` gives its code's name (`badImageData`, `invalidURL`, ...) and its
/// message; a ``CLIError`` is `invalidArgument`; anything else is `failed` with its
/// description. Line breaks and other control characters are escaped (`\n`), so a report is
/// always one line, and an input it names shows as it is.
struct ErrorReport: Sendable, Equatable {
    /// The code's name.
    let code: String
    /// What was wrong, on one line.
    let message: String

    init(_ error: any Error) {
        switch error {
        case let error as WebImageError:
            code = error.code.description
            message = Self.oneLine(error.message)
        case let error as CLIError:
            code = WebImageError.Code.invalidArgument.description
            message = Self.oneLine(error.message)
        default:
            code = "failed"
            message = Self.oneLine(String(describing: error))
        }
    }

    /// `text` with every line break and other control character escaped
    /// (``StringProtocol/escapingControlCharacters``).
    static func oneLine(_ text: String) -> String {
        text.escapingControlCharacters
    }
}
