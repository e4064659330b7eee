import Testing
import WebImageTestSupport
@testable import WebImageServer

/// The geometry and filters that landed before issue 34 agree with thumbor 7.8's own answers
/// (`Tests/Fixtures/thumbor/cases/basics.txt`): also the check that the comparison works.
@Suite struct ThumborBasicsAgreementTests {
    @Test func theRecordedReferenceIsPresent() {
        #expect(!ThumborReference.cases("basic-").isEmpty, "Tests/Fixtures/thumbor/expected/manifest.json has the basic cases")
    }

    @Test(arguments: ThumborReference.cases("basic-"))
    func agreesWithThumbor(_ reference: ThumborReference.Case) async throws {
        let fixture = try ThumborReference.makeFixture()
        // Both sides encode JPEG at quality 80 with different encoders: 30 dB, as issue 34's goal.
        try await ThumborReference.expectAgreement(reference, with: fixture, minimumPSNR: 30)
    }
}
