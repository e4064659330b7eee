
/// The member list of a composite manager: ordered by registration, safe to change from any
/// thread while it is being used. Readers take a snapshot and call members with no lock held.
final class RegistrationList<Member: Sendable>: Sendable {
    private struct Entry: Sendable {
        let id: UInt64
        let member: Member
    }

    private struct State: Sendable {
        var entries: [Entry] = []
        var nextID: UInt64 = 0
    }

    private let state: Locked<State>

    init(_ members: [Member]) {
        var initial = State()
        for member in members {
            initial.entries.append(Entry(id: initial.nextID, member: member))
            initial.nextID += 1
        }
        state = Locked(initial)
    }

    /// Members in registration order (first added first).
    var members: [Member] {
        state.withLock { $0.entries.map(\.member) }
    }

    /// Members in the order they are asked: last added first.
    var byPriority: [Member] {
        state.withLock { $0.entries.reversed().map(\.member) }
    }

    func add(_ member: Member) {
        state.withLock { state in
            state.entries.append(Entry(id: state.nextID, member: member))
            state.nextID += 1
        }
    }

    func replaceAll(with members: [Member]) {
        state.withLock { state in
            state.entries = members.map { member in
                defer { state.nextID += 1 }
                return Entry(id: state.nextID, member: member)
            }
        }
    }

    /// Removes the members `shouldRemove` picks. The predicate is user code: it runs on a
    /// snapshot with no lock held; members added meanwhile are kept.
    func removeAll(where shouldRemove: (Member) throws -> Bool) rethrows {
        let snapshot = state.withLock { $0.entries }
        var doomed = Set<UInt64>()
        for entry in snapshot where try shouldRemove(entry.member) { doomed.insert(entry.id) }
        guard !doomed.isEmpty else { return }
        state.withLock { state in state.entries.removeAll { doomed.contains($0.id) } }
    }
}
