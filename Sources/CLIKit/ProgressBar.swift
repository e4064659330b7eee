/// The text of the progress line of `fetch`, `prefetch` and `demo`: a bar for the images done,
/// then the images and the bytes received.
///
/// ```
/// [##########----------] 2/4 images  310.4 KB / 612.0 KB
/// ```
///
/// The bytes part shows the total expected only when every running load knows its size.
struct ProgressBar: Sendable, Equatable {
    /// Images finished (loaded or failed).
    var finishedImages = 0
    /// Images asked for.
    var totalImages: Int
    /// Bytes received so far, over every load.
    var receivedBytes: Int64 = 0
    /// Bytes expected over every load, when known.
    var expectedBytes: Int64?
    /// The width of the bar in characters (without the brackets).
    var width = 20

    /// The line, without a newline.
    var line: String {
        let total = max(1, totalImages)
        let filled = min(width, max(0, finishedImages * width / total))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        var text = "[\(bar)] \(finishedImages)/\(totalImages) images  \(ByteCount.format(receivedBytes))"
        if let expectedBytes, expectedBytes >= receivedBytes {
            text += " / \(ByteCount.format(expectedBytes))"
        }
        return text
    }
}
