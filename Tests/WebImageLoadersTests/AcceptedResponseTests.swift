import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import WebImageLoaders

/// The values a transfer reads from a response head without making an `HTTPURLResponse` are
/// the ones Foundation's `HTTPURLResponse` gives for the same head.
@Suite struct AcceptedResponseTests {
    static let url = URL(string: "http://127.0.0.1:8080/a.png")!

    static func head(_ fields: [(name: String, value: String)], status: Int = 200) -> CurlResponseHead {
        CurlResponseHead(url: url, statusCode: status, httpVersion: "HTTP/1.1", fields: fields)
    }

    @Test(arguments: [
        "image/png", "Image/PNG", "IMAGE/JPEG; charset=binary", "image/png;charset=x", "image/png ; q=1",
        "text/html;", ";x", "", "image/png\t;x", "application/octet-stream", "image/webp; a=b; c=d",
    ])
    func plainContentTypesReadAsFoundationReadsThem(contentType: String) throws {
        let head = Self.head([("Content-Type", contentType), ("Content-Length", "1234"), ("Content-Encoding", "GZip")])
        let plain = try #require(AcceptedResponse(head: head))
        let foundation = AcceptedResponse(try #require(head.response))
        #expect(plain.mimeType == foundation.mimeType)
        #expect(plain.expectedContentLength == foundation.expectedContentLength)
        #expect(plain.contentEncoding == foundation.contentEncoding)
        #expect(plain.statusCode == foundation.statusCode)
        #expect(plain.response?.mimeType == foundation.mimeType)
    }

    @Test(arguments: [
        [(name: String, value: String)](),
        [("content-type", "image/png"), ("CONTENT-LENGTH", "7")],
        [("Content-Type", "image/png"), ("Content-Type", "image/jpeg")],
        [("Content-Length", "7"), ("Content-Length", "7")],
        [("Content-Length", "not a number")],
        [("Content-Length", "-5")],
        [("Content-Encoding", "br"), ("Content-Encoding", "gzip")],
    ])
    func missingRepeatedAndOddFieldsReadAsFoundationReadsThem(fields: [(name: String, value: String)]) throws {
        let head = Self.head(fields, status: 206)
        let plain = try #require(AcceptedResponse(head: head))
        let foundation = AcceptedResponse(try #require(head.response))
        #expect(plain.mimeType == foundation.mimeType)
        #expect(plain.expectedContentLength == foundation.expectedContentLength)
        #expect(plain.contentEncoding == foundation.contentEncoding)
        #expect(plain.statusCode == 206)
    }

    @Test(arguments: ["image/png; name=\"a;b\"", "image\\/png", "imäge/png", "image/png\u{1}"])
    func unusualContentTypesAreLeftToFoundation(contentType: String) {
        #expect(AcceptedResponse(head: Self.head([("Content-Type", contentType)])) == nil)
    }
}
