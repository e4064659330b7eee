import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

@Suite struct FileLoaderTests {
    let directory: URL
    let loader = FileLoader(coder: RawBitmapCoder())

    init() throws {
        directory = try Fixtures.temporaryDirectory()
    }

    private func write(_ data: Data, named name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try data.writeWithoutSync(to: url)
        return url
    }

    @Test func loadsAndDecodesAFile() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = Fixtures.wiraw(width: 5, height: 4)
        let url = try write(data, named: "small@2x.wiraw")
        let progress = ProgressRecorder()
        let result = try await loader.requestImage(with: url, options: [], context: WebImageContext(), progress: progress.handler)
        #expect(result.image?.pixelSize == PixelSize(width: 5, height: 4))
        #expect(result.image?.scale == 2)
        #expect(result.data == data)
        #expect(result.statusCode == nil)
        #expect(progress.progress.map(\.received) == [Int64(data.count)])
    }

    @Test func avoidDecodeImageAndContextCoderApply() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try write(Fixtures.wiraw(), named: "a.wiraw")
        let raw = try await loader.requestImage(with: url, options: [.avoidDecodeImage], context: WebImageContext(), progress: nil)
        #expect(raw.image == nil)
        #expect(raw.data == Fixtures.wiraw())
        let mock = MockImageCoder(name: "file", magic: Array("WIRAW".utf8), format: .rawBitmap)
        let decoded = try await loader.requestImage(with: url, options: [], context: WebImageContext { $0.imageCoder = mock }, progress: nil)
        #expect(MockImageCoder.decoderName(of: try #require(decoded.image)) == "file")
    }

    @Test func missingFileIsAClearError() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("nothing-here.png")
        let error = try #require(await #expect(throws: WebImageError.self) { try await loader.requestImage(with: url) })
        #expect(error.code == .invalidURL)
        #expect(error.message.contains("No file at \(url.path)"))
        #expect(error.url == url)
    }

    @Test func directoryIsRefused() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = try #require(await #expect(throws: WebImageError.self) { try await loader.requestImage(with: directory) })
        #expect(error.code == .invalidURL)
        #expect(error.message.contains("is a directory"))
    }

    @Test func fileOverTheLimitIsRefused() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try write(Fixtures.wiraw(), named: "big.wiraw")
        let small = FileLoader(coder: RawBitmapCoder(), maximumFileSize: 100)
        let error = try #require(await #expect(throws: WebImageError.self) { try await small.requestImage(with: url) })
        #expect(error.code == .invalidDownloadResponse)
        #expect(error.message.contains("larger than the limit of 100 bytes"))
    }

    @Test func emptyAndCorruptFilesAreBadImageData() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = try write(Data(), named: "empty.wiraw")
        #expect(try #require(await #expect(throws: WebImageError.self) { try await loader.requestImage(with: empty) }).code == .badImageData)
        let corrupt = try write(Fixtures.wiraw().prefix(40), named: "cut.wiraw")
        #expect(try #require(await #expect(throws: WebImageError.self) { try await loader.requestImage(with: corrupt) }).code == .badImageData)
    }

    @Test func cancelledBeforeTheCallReadsNothing() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try write(Fixtures.wiraw(), named: "a.wiraw")
        let loader = loader
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await loader.requestImage(with: url)
        }
        let error = try #require(await #expect(throws: WebImageError.self) { try await task.value })
        #expect(error.code == .cancelled)
    }

    @Test(arguments: [("file:///tmp/a.png", true), ("http://127.0.0.1/a.png", false), ("data:,x", false)])
    func claimsFileURLsOnly(url: String, claimed: Bool) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(loader.canRequestImage(for: try #require(URL(string: url))) == claimed)
    }
}
