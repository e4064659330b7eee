import Testing
import WebImageServer

@Suite struct ThumborSkeletonTests {
    @Test func defaultsAreThumbors() {
        let request = ThumborRequest(source: "a.jpg")
        #expect(request.fitIn == .none)
        #expect(request.horizontalAlignment == .center)
        #expect(request.verticalAlignment == .middle)
    }
}
