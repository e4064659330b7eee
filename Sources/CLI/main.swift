import Foundation
import WebImageCLIKit

// The `webimage` command-line tool; the commands live in WebImageCLIKit (Sources/CLIKit).
exit(await WebImageCLI.run(Array(CommandLine.arguments.dropFirst())))
