import Foundation
import SVGCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// Hostile documents give a `WebImageError` or a bounded render, never a hang, a trap or
/// unbounded memory.
@Suite(.onOwnThreads) struct HostileInputTests {
    /// `<use>` fan-out of 10^9 shapes is refused from the scan of its tags, before librsvg
    /// draws anything (librsvg 2.54 alone draws 500,000 of them first: seconds of CPU).
    @Test func useFanOutIsRefusedQuickly() throws {
        let start = ContinuousClock.now
        let error = try #require(throws: WebImageError.self) { try SVGCoder().decode(Data(SVGSamples.useBomb().utf8)) }
        let elapsed = ContinuousClock.now - start
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("<use>"), "\(error.message)")
        #expect(elapsed < .seconds(2), "\(elapsed)")
    }

    /// Moderate reuse (a sprite of 50 uses of 100 uses) is drawn, and the scan counts through
    /// `xlink:href`, comments and self-closing tags.
    @Test func moderateUseIsDrawn() throws {
        #expect(try SVGCoder().decode(Data(SVGSamples.useBomb(levels: 3).utf8)).pixelSize == PixelSize(width: 100, height: 100))
        let xlink = SVGSamples.useBomb(levels: 7).replacingOccurrences(of: "<use href", with: "<!-- <use> --><use xlink:href")
        let error = try #require(throws: WebImageError.self) { try SVGCoder().decode(Data(xlink.utf8)) }
        #expect(error.code == .imageTooLarge)
    }

    /// A render past the time limit: the caller gets `imageTooLarge` at the limit; the render
    /// finishes on its own thread and the coder renders again afterwards.
    @Test func renderTimeLimit() async throws {
        // A document that takes a while to draw (tens of blurred circles: about a second).
        var shapes = ""
        for index in 0..<30 {
            shapes += "<circle cx=\"\(index * 10 % 800)\" cy=\"\(index * 37 % 800)\" r=\"300\" fill=\"#\(String(format: "%06x", index * 7919 % 0xFFFFFF))\" fill-opacity=\"0.3\" filter=\"url(#b)\"/>"
        }
        let slow = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"800\"><defs><filter id=\"b\"><feGaussianBlur stdDeviation=\"20\"/></filter></defs>\(shapes)</svg>"
        // Timed on the waiting thread itself: a full parallel run can keep the test's task from
        // resuming for a long while after the wait is over.
        let (error, elapsed) = try await OwnThread.run {
            let start = ContinuousClock.now
            let error = try #require(throws: WebImageError.self) { try SVGCoder(renderTimeLimit: 0.01).decode(Data(slow.utf8)) }
            return (error, ContinuousClock.now - start)
        }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("time limit"), "\(error.message)")
        #expect(elapsed < .seconds(5), "the caller waited \(elapsed)")
        // The coder still renders small documents.
        let image = try await OwnThread.run { try SVGCoder().decode(Data(SVGSamples.grid.utf8)) }
        #expect(image.pixelSize == PixelSize(width: 37, height: 23))
    }

    @Test func notSVG() throws {
        #expect(!SVGCoder().canDecode(Data()))
        #expect(!SVGCoder().canDecode(Data("GIF89a".utf8)))
        #expect(!SVGCoder().canDecode(Data("<html><body></body></html>".utf8)))
        #expect(throws: WebImageError.self) { try SVGCoder().decode(Data("not an image".utf8)) }
        let broken = try #require(throws: WebImageError.self) { try SVGCoder().decode(Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect".utf8)) }
        #expect(broken.code == .badImageData)
        #expect(broken.message.contains("librsvg"), "\(broken.message)")
    }

    /// Deep nesting (10000 groups) does not overflow the render thread's stack.
    @Test func deepNesting() {
        let depth = 10_000
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">" + String(repeating: "<g>", count: depth) + "<rect width=\"10\" height=\"10\"/>" + String(repeating: "</g>", count: depth) + "</svg>"
        do {
            _ = try SVGCoder().decode(Data(svg.utf8))
        } catch {
            #expect(error is WebImageError, "\(error)")
        }
    }
}
