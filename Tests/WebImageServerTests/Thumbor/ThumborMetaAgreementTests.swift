import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageServer

/// `/meta/` answers thumbor 7.8's JSON byte for byte (`Tests/Fixtures/thumbor/cases/meta.txt`,
/// recorded by `scripts/thumbor-fixtures --only meta-`): the same keys in the same order, the
/// same numbers with the same types (`48.0` where thumbor's arithmetic made a float), the same
/// separators. A client that parses thumbor's answer, or compares it as text, reads ours alike.
@Suite struct ThumborMetaAgreementTests {
    @Test func theRecordedReferenceIsPresent() {
        #expect(ThumborReference.cases("meta-").count >= 30, "Tests/Fixtures/thumbor/expected/manifest.json has the meta cases")
    }

    @Test(arguments: ThumborReference.cases("meta-"))
    func answersThumborsJSON(_ reference: ThumborReference.Case) async throws {
        let fixture = try ThumborReference.makeFixture()
        let outcome = await ThumborReference.serve(reference, with: fixture)
        #expect(outcome.status == reference.status, "status of \(reference.path)")
        guard reference.status == 200, outcome.status == 200 else { return }
        #expect(outcome.type == "application/json")
        let expected = try Data(contentsOf: ThumborReference.folder.appendingPathComponent("expected/\(reference.name).json"))
        let request = try ThumborURLParser.parse("/unsafe/" + reference.path)
        if request.ignoredFilters.isEmpty {
            #expect(String(decoding: outcome.body, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "the JSON of \(reference.path)")
        }
        // Field by field, to name what differs. A filter this server does not have yet (it is
        // skipped) leaves the image's size thumbor's filter would change: every other field holds.
        let ours = try Self.object(outcome.body), theirs = try Self.object(expected)
        let oursSource = try #require(ours["source"] as? [String: Any]), theirsSource = try #require(theirs["source"] as? [String: Any])
        #expect(Array(ours.keys) == Array(theirs.keys), "the keys of \(reference.path)")
        #expect(oursSource["url"] as? String == theirsSource["url"] as? String)
        #expect(oursSource["frameCount"] as? Int == theirsSource["frameCount"] as? Int)
        if request.ignoredFilters.isEmpty {
            #expect(oursSource["width"] as? Int == theirsSource["width"] as? Int, "source width of \(reference.path)")
            #expect(oursSource["height"] as? Int == theirsSource["height"] as? Int, "source height of \(reference.path)")
        }
        #expect(Self.text(ours["operations"]) == Self.text(theirs["operations"]), "operations of \(reference.path)")
        #expect(Self.text(ours["target"]) == Self.text(theirs["target"]), "target of \(reference.path)")
        #expect(Self.text(ours["focal_points"]) == Self.text(theirs["focal_points"]), "focal points of \(reference.path)")
    }

    /// The `thumbor` object of a `/meta/` answer, its keys in the order written.
    static func object(_ data: Data) throws -> OrderedJSONObject {
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let inner = try #require(object["thumbor"] as? [String: Any])
        return OrderedJSONObject(inner, order: Self.keyOrder(of: data))
    }

    /// The keys of the `thumbor` object in the order they appear in `data`.
    static func keyOrder(of data: Data) -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        return ["source", "operations", "target", "focal_points"].compactMap { key in
            text.range(of: "\"\(key)\": ").map { (key, $0.lowerBound) }
        }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// A JSON value written canonically (sorted keys), for comparing values.
    static func text(_ value: Any?) -> String {
        guard let value else { return "absent" }
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A JSON object with the order of its keys.
    struct OrderedJSONObject {
        let values: [String: Any]
        let keys: [String]

        init(_ values: [String: Any], order: [String]) {
            self.values = values
            keys = order
        }

        subscript(key: String) -> Any? { values[key] }
    }
}
