import Foundation
import Testing
import WebImageCore

@Suite struct WebImageErrorTests {
    @Test(arguments: [
        (WebImageError.Code.invalidURL, 1000), (.badImageData, 1001), (.cacheNotModified, 1002), (.blockedURL, 1003),
        (.invalidDownloadOperation, 2000), (.invalidDownloadStatusCode, 2001), (.cancelled, 2002),
        (.invalidDownloadResponse, 2003), (.invalidDownloadContentType, 2004),
    ])
    func codesMatchSDWebImage(code: WebImageError.Code, number: Int) {
        #expect(code.rawValue == number)
    }

    @Test func descriptionNamesTheCodeMessageAndInput() {
        let url = URL(string: "https://example.com/a.png")!
        let error = WebImageError(.invalidDownloadStatusCode, "Download marked as failed because of invalid response status code 404", url: url, statusCode: 404, contentType: "text/html")
        #expect(error.description.contains("invalidDownloadStatusCode"))
        #expect(error.description.contains("2001"))
        #expect(error.description.contains("https://example.com/a.png"))
        #expect(error.description.contains("404"))
        #expect(error.description.contains("text/html"))
        #expect(error.localizedDescription.contains("404"))
        #expect(WebImageError.Code(rawValue: 9001).description == "code 9001")
    }

    @Test func cancellationIsRecognisedInEveryForm() {
        #expect(WebImageError.isCancellation(WebImageError.cancelled()))
        #expect(WebImageError.isCancellation(CancellationError()))
        #expect(WebImageError.isCancellation(URLError(.cancelled)))
        #expect(!WebImageError.isCancellation(WebImageError(.badImageData, "x")))
    }

    @Test(arguments: [
        URLError.Code.notConnectedToInternet, .cancelled, .timedOut, .internationalRoamingOff,
        .dataNotAllowed, .cannotFindHost, .cannotConnectToHost, .networkConnectionLost,
    ])
    func transientNetworkErrorsNeverBlock(_ code: URLError.Code) {
        #expect(WebImageError.isTransientLoadError(URLError(code)))
        #expect(WebImageError.isTransientLoadError(WebImageError(.invalidDownloadResponse, "wrapped", underlyingError: URLError(code))))
    }

    @Test func otherFailuresBlock() {
        #expect(!WebImageError.isTransientLoadError(URLError(.badServerResponse)))
        #expect(!WebImageError.isTransientLoadError(WebImageError(.badImageData, "bad")))
        #expect(!WebImageError.isTransientLoadError(WebImageError(.invalidDownloadStatusCode, "404", statusCode: 404)))
        #expect(WebImageError.isTransientLoadError(WebImageError(.cacheNotModified, "304")))
    }
}
