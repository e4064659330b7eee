import Foundation
import Testing
import WebImageTestSupport

/// `Data.writeWithoutSync(to:)`, the fixture write of the tests: the bytes arrive, an existing
/// file is replaced whole, and a path that cannot be written is an error.
@Suite struct DataWriteWithoutSyncTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("write-without-sync-\(UUID().uuidString)", isDirectory: true)

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func writesTheBytesAndReplacesALongerFileWhole() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fixture.bin")
        let long = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try long.writeWithoutSync(to: file)
        #expect(try Data(contentsOf: file) == long)
        try Data("short".utf8).writeWithoutSync(to: file)
        #expect(try Data(contentsOf: file) == Data("short".utf8))
        try Data().writeWithoutSync(to: file)
        #expect(try Data(contentsOf: file).isEmpty)
    }

    @Test func aMissingFolderIsAnError() {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: CocoaError.self) {
            try Data("x".utf8).writeWithoutSync(to: folder.appendingPathComponent("missing/fixture.bin"))
        }
    }
}
