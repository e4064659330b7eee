import Foundation
import PhotosLoader
import SwiftWebImage
import Testing
import WebImageTestSupport

/// Incremental rescans: unchanged files are not read; renames keep identifiers; deletions,
/// additions and edits show up as changes.
@Suite(.onOwnThreads) struct RescanTests {
    let folder: TemporaryLibrary
    let library: PhotoLibrary

    init() throws {
        folder = try TemporaryLibrary()
        try StandardLibrary.populate(folder)
        library = folder.library()
    }

    private func identifiers(_ library: PhotoLibrary) -> [String: String] {
        Dictionary(uniqueKeysWithValues: library.assets.map { ($0.relativePath, $0.identifier) })
    }

    @Test func aRescanOfAnUnchangedTreeReadsNoFile() async throws {
        try await library.rescan()
        let before = identifiers(library)
        let changes = try await library.rescan()
        #expect(changes.filesRead == 0)
        #expect(changes.unchangedCount == 9, "6 assets and 3 skipped files, all unchanged")
        #expect(changes.isEmpty && changes.skipped.isEmpty)
        #expect(library.statistics == PhotoLibrary.Statistics(scanCount: 2, filesRead: 9))
        #expect(identifiers(library) == before)
        #expect(library.skippedFiles.count == 3, "skipped files are remembered, not re-read")
    }

    @Test func renamesKeepIdentifiersDeletionsAdditionsAndEditsShow() async throws {
        try await library.rescan()
        let before = identifiers(library)
        let tree = try #require(before["2022/Winter/tree.jpg"])
        let snow = try #require(before["2022/Winter/snow.jpg"])
        let sunset = try #require(before["2023/Summer/sunset.png"])
        let gif = try #require(before["2023/anim.gif"])

        try folder.move("2022/Winter/tree.jpg", to: "2023/Summer/tree-renamed.jpg")          // renamed and moved
        try folder.remove("2022/Winter/snow.jpg")                                           // deleted
        try folder.write(Fixtures.png(width: 10, height: 10), to: "2024/new.png")           // added
        try folder.write(Fixtures.png(width: 64, height: 48, seed: 200), to: "2023/Summer/sunset.png")  // edited
        try folder.setModificationDate(Date(timeIntervalSince1970: 1_500_000_000), of: "2023/anim.gif")  // touched

        let changes = try await library.rescan()
        #expect(changes.filesRead == 4, "only the renamed, added, edited and touched files are read")
        #expect(changes.unchangedCount == 5, "beach.jpg, actually-png.jpg and the 3 skipped files")

        let move = try #require(changes.moved.first)
        #expect(changes.moved.count == 1)
        #expect(move.asset.identifier == tree, "a renamed file keeps its identifier")
        #expect(move.previousRelativePath == "2022/Winter/tree.jpg")
        #expect(move.asset.relativePath == "2023/Summer/tree-renamed.jpg" && move.asset.album == "2023/Summer")
        #expect(library.asset(withIdentifier: tree)?.relativePath == "2023/Summer/tree-renamed.jpg")

        #expect(Set(changes.removed.map(\.identifier)) == [snow, sunset], "deleted, and the edited file's old identity")
        #expect(library.asset(withIdentifier: snow) == nil)
        #expect(changes.added.map(\.relativePath) == ["2023/Summer/sunset.png", "2024/new.png"])
        let editedIdentifier = try #require(changes.added.first?.identifier)
        #expect(editedIdentifier != sunset, "an edited file is a new asset (identifiers follow contents)")
        #expect(changes.updated.map(\.identifier) == [gif], "a touched file keeps its identifier")
        #expect(library.asset(withIdentifier: gif)?.fileDate == Date(timeIntervalSince1970: 1_500_000_000))

        // Everything else kept its identifier.
        let after = identifiers(library)
        #expect(after["beach.jpg"] == before["beach.jpg"])
        #expect(after["2023/Summer/actually-png.jpg"] == before["2023/Summer/actually-png.jpg"])
        #expect(library.albums.map(\.name) == ["", "2023", "2023/Summer", "2024"], "the emptied 2022/Winter album is gone")

        // A new process scanning the same tree derives the same identifiers, renamed file included.
        let fresh = folder.library()
        try await fresh.rescan()
        #expect(identifiers(fresh) == after)
    }

    @Test func identifiersAreTheSameInEveryFreshScan() async throws {
        try await library.rescan()
        let other = folder.library()
        try await other.rescan()
        #expect(identifiers(other) == identifiers(library))
    }

    @Test func copiesGetDistinctIdentifiersAndTheFirstKeepsItsOwn() async throws {
        try await library.rescan()
        let original = try #require(library.asset(atRelativePath: "beach.jpg")?.identifier)
        try folder.write(try folder.data("beach.jpg"), to: "copies/beach.jpg")
        let changes = try await library.rescan()
        let copy = try #require(changes.added.first)
        #expect(changes.added.count == 1 && copy.relativePath == "copies/beach.jpg")
        #expect(copy.identifier != original && copy.identifier.count == 32)
        #expect(library.asset(atRelativePath: "beach.jpg")?.identifier == original)
        // A fresh scan gives the first path (in sorted order) the plain identifier: the same ones.
        let fresh = folder.library()
        try await fresh.rescan()
        #expect(identifiers(fresh) == identifiers(library))
    }

    @Test func forceReadsEveryFileAgain() async throws {
        try await library.rescan()
        let before = identifiers(library)
        let changes = try await library.rescan(force: true)
        #expect(changes.filesRead == 9)
        #expect(changes.added.isEmpty && changes.removed.isEmpty && changes.moved.isEmpty)
        #expect(changes.updated.count == 6, "re-read, same identifier, same path")
        #expect(identifiers(library) == before)
    }

    /// The documented limit of the size + date check, and its remedy.
    @Test func anEditKeepingSizeAndDateIsSeenOnlyByAForcedScan() async throws {
        let path = "2023/Summer/sunset.png"
        let original = try folder.data(path)
        let date = Date(timeIntervalSince1970: 1_400_000_000)
        try folder.setModificationDate(date, of: path)
        try await library.rescan()
        let identifier = try #require(library.asset(atRelativePath: path)?.identifier)

        var edited = Array(original)
        edited[edited.count - 20] ^= 0xFF  // same size, different bytes
        try folder.write(Data(edited), to: path)
        try folder.setModificationDate(date, of: path)
        let quiet = try await library.rescan()
        #expect(quiet.filesRead == 0 && library.asset(atRelativePath: path)?.identifier == identifier)

        let forced = try await library.rescan(force: true)
        #expect(forced.removed.map(\.identifier) == [identifier])
        #expect(library.asset(atRelativePath: path)?.identifier != identifier)
    }

    @Test func aRepairedFileJoinsAndABrokenOneLeaves() async throws {
        try await library.rescan()
        let snow = try #require(library.asset(atRelativePath: "2022/Winter/snow.jpg"))
        try folder.write(Fixtures.jpeg(width: 50, height: 40), to: "2023/Summer/broken.jpg")   // repaired
        try folder.write(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]), to: "2022/Winter/snow.jpg")  // now a truncated PNG
        let changes = try await library.rescan()
        #expect(changes.filesRead == 2)
        #expect(changes.added.map(\.relativePath) == ["2023/Summer/broken.jpg"])
        #expect(library.asset(atRelativePath: "2023/Summer/broken.jpg")?.pixelSize == PixelSize(width: 50, height: 40))
        #expect(changes.removed.map(\.identifier) == [snow.identifier])
        let skipped = try #require(changes.skipped.first)
        #expect(changes.skipped.count == 1 && skipped.relativePath == "2022/Winter/snow.jpg")
        #expect(skipped.reason.contains("png") && skipped.reason.contains("IHDR"), "\(skipped.reason)")
        #expect(library.skippedFiles.map(\.relativePath) == ["2022/Winter/snow.jpg", "2023/empty.png", "2023/notes.txt"])
    }

    @Test func concurrentRescansRunOneAtATime() async throws {
        try await withThrowingTaskGroup(of: PhotoLibraryChanges.self) { group in
            for _ in 0..<4 {
                group.addTask { try await library.rescan() }
            }
            var added = 0
            var reads = 0
            for try await changes in group {
                added += changes.added.count
                reads += changes.filesRead
            }
            #expect(added == 6, "exactly one of the scans found the assets")
            #expect(reads == 9, "and only that one read the files")
        }
        #expect(library.statistics.scanCount == 4)
        #expect(library.assetCount == 6)
    }

    @Test func synchronousRescanMatchesTheAsyncOne() throws {
        let changes = try library.rescanSynchronously()
        #expect(changes.added.count == 6 && library.assetCount == 6)
    }
}
