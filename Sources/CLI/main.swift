import Foundation
import SwiftWebImage

// The `webimage` command-line tool. For now it prints the version and what the shared
// managers hold; the CLI issue adds `info`, `convert`, `fetch` and the full demo.

let usage = """
    webimage \(SwiftWebImageInfo.version): image loading for Swift on Linux

    USAGE: webimage <command>

    COMMANDS:
      demo        Show what the framework is wired with
      version     Print the version
      help        Print this help
    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "version", "--version", "-v":
    print(SwiftWebImageInfo.version)
case "demo":
    print("SwiftWebImage \(SwiftWebImageInfo.version)")
    print("coders registered:  \(CodersManager.shared.coders.count)")
    print("loaders registered: \(LoadersManager.shared.loaders.count)")
    print("caches registered:  \(CachesManager.shared.caches.count)")
    let samples: [(String, [UInt8])] = [
        ("JPEG", [0xFF, 0xD8, 0xFF, 0xE0]),
        ("PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
        ("GIF", Array("GIF89a".utf8)),
        ("WebP", Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)),
    ]
    print("format detection from magic bytes:")
    for (name, bytes) in samples {
        let format = ImageFormat.detect(Data(bytes))
        print("  \(name.padding(toLength: 5, withPad: " ", startingAt: 0)) -> \(format) (\(format.mimeType ?? "?"))")
    }
    print("The full demo (download, decode, transform, cache) arrives with the loaders, coders and CLI issues.")
case nil, "help", "--help", "-h":
    print(usage)
default:
    FileHandle.standardError.write(Data("webimage: unknown command '\(arguments[0])'\n\(usage)\n".utf8))
    exit(64)
}
