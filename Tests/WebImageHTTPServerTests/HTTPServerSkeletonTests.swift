import Testing
import WebImageHTTPServer

@Suite struct HTTPServerSkeletonTests {
    @Test func defaultPortIsThumbors() {
        #expect(HTTPServerConfiguration().port == 8888)
    }
}
