import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

/// Members added and removed while 1,000 concurrent tasks use the managers: no crash, no
/// deadlock, and a member that is never removed always answers.
@Suite(.onOwnThreads) struct ManagerConcurrencyTests {
    @Test func codersManagerAddRemoveRacingWithDecode() async throws {
        let base = MockImageCoder(name: "base", magic: [0x01], format: .png)
        let manager = CodersManager([base])
        let data = Data([0x01, 0x02])
        let failures = CallRecorder<String>()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<1_000 {
                group.addTask {
                    switch index % 4 {
                    case 0:
                        manager.add(MockImageCoder(name: "extra-\(index)", magic: [0x01], format: .png))
                    case 1:
                        manager.removeAll { ($0 as? MockImageCoder)?.name.hasPrefix("extra") ?? false }
                    default:
                        do { _ = try manager.decode(data) } catch { failures.record("\(error)") }
                    }
                }
            }
        }
        #expect(failures.all.isEmpty)
        manager.removeAll { ($0 as? MockImageCoder)?.name.hasPrefix("extra") ?? false }
        #expect(manager.coders.count == 1)
        #expect(MockImageCoder.decoderName(of: try manager.decode(data)) == "base")
    }

    @Test func loadersManagerAddRemoveRacingWithRequests() async throws {
        let base = MockImageLoader(name: "base", schemes: ["https"])
        let manager = LoadersManager([base])
        let url = URL(string: "https://example.com/a.png")!
        let failures = CallRecorder<String>()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<1_000 {
                group.addTask {
                    switch index % 4 {
                    case 0: manager.add(MockImageLoader(name: "extra", schemes: ["https"]))
                    case 1: manager.removeAll { ($0 as? MockImageLoader)?.name == "extra" }
                    default:
                        do { _ = try await manager.requestImage(with: url) } catch { failures.record("\(error)") }
                    }
                }
            }
        }
        #expect(failures.all.isEmpty)
        manager.removeAll { ($0 as? MockImageLoader)?.name == "extra" }
        #expect(manager.loaders.count == 1)
    }

    @Test func cachesManagerAddRemoveRacingWithQueriesAndStores() async throws {
        let base = MockImageCache(name: "base")
        base.preload(TestImages.still(), forKey: "fixed")
        let manager = CachesManager([base])
        manager.queryPolicy = .serial
        manager.storePolicy = .concurrent
        let misses = CallRecorder<Int>()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<1_000 {
                group.addTask {
                    switch index % 5 {
                    case 0: manager.add(MockImageCache(name: "extra"))
                    case 1: manager.removeAll { ($0 as? MockImageCache)?.name == "extra" }
                    case 2: try? await manager.store(TestImages.still(), data: nil, forKey: "k\(index)")
                    default:
                        if await manager.queryImage(forKey: "fixed") == nil { misses.record(index) }
                    }
                }
            }
        }
        #expect(misses.all.isEmpty, "the base member holds 'fixed' throughout")
        #expect(base.storeCount == 200)
    }
}
