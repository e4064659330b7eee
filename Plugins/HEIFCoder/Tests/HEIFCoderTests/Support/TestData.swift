import WebImageTestSupport

/// Where the public test images live (``/WebImageTestSupport/SharedTestData``).
typealias TestData = SharedTestData

extension SharedTestData {
    /// Whether the SDWebImage HEIF files and the reference tools are all there.
    static let hasHEIFFixtures = ["TestImage.heic", "TestImage.heif", "TestHDR.heic", "TestImageAnimated.heics"].allSatisfy(has) && ReferenceTools.available
}
