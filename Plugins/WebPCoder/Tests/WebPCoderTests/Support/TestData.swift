import WebImageTestSupport

/// Where the public test images live (``/WebImageTestSupport/SharedTestData``).
typealias TestData = SharedTestData
