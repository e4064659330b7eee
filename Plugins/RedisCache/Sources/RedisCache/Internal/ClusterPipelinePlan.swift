import Foundation

/// How a pipeline of commands becomes commands for a Redis Cluster, each with the hash slot it
/// must go to, and how their replies become one reply per command of the caller.
///
/// - **Single-key commands** (`GET`, `SET`, `PTTL`, `TTL`, `STRLEN`, ...: the key is the first
///   argument) go to the slot of their key, as they are.
/// - **Multi-key commands** (`DEL`, `UNLINK`, `EXISTS`, `TOUCH`: every argument is a key) are
///   split into one command per slot, keys in their order, and the integer replies summed: a
///   caller never sees `CROSSSLOT`. The first error reply among the parts is the reply.
/// - **Other commands** (`PING`, `INFO`, `SCAN`, ...) have no slot: they go to any master. A
///   command with a key that is not known here goes there too, and the server's `MOVED`
///   reply sends it on.
///
/// Pure and without sockets, so that it is tested on its own.
struct ClusterPipelinePlan: Sendable {
    /// One command to send, and where.
    struct Part: Sendable, Equatable {
        /// The command as sent.
        var command: RedisCommand
        /// The slot of its keys, or `nil` for any master.
        var slot: Int?
    }

    /// How the reply to one command of the caller is made from the replies to its parts.
    enum Merge: Sendable, Equatable {
        /// The reply of the part at this index, as it is.
        case single(Int)
        /// The sum of the integer replies of the parts in this range (an error reply wins).
        case sum(Range<Int>)
    }

    /// The commands to send.
    private(set) var parts: [Part] = []
    /// One per command of the caller, in the caller's order.
    private(set) var merges: [Merge] = []

    /// The commands whose first argument is their only key.
    static let singleKeyCommands: Set<String> = [
        "GET", "SET", "SETEX", "PSETEX", "SETNX", "GETEX", "GETDEL", "GETSET", "APPEND", "STRLEN",
        "GETRANGE", "SETRANGE", "INCR", "DECR", "INCRBY", "DECRBY", "PTTL", "TTL", "EXPIRE",
        "PEXPIRE", "EXPIREAT", "PEXPIREAT", "PERSIST", "TYPE", "DUMP", "RESTORE",
    ]

    /// The commands whose arguments are all keys and whose reply is a count.
    static let multiKeyCountCommands: Set<String> = ["DEL", "UNLINK", "EXISTS", "TOUCH"]

    /// The plan of `commands`.
    init(_ commands: [RedisCommand]) {
        parts.reserveCapacity(commands.count)
        merges.reserveCapacity(commands.count)
        for command in commands {
            let name = command.name
            if Self.singleKeyCommands.contains(name), command.parts.count >= 2 {
                merges.append(.single(parts.count))
                parts.append(Part(command: command, slot: RedisHashSlot.slot(of: command.parts[1])))
            } else if Self.multiKeyCountCommands.contains(name), command.parts.count >= 2 {
                var keysBySlot: [Int: [Data]] = [:]
                var slotOrder: [Int] = []
                for key in command.parts.dropFirst() {
                    let slot = RedisHashSlot.slot(of: key)
                    if keysBySlot[slot] == nil { slotOrder.append(slot) }
                    keysBySlot[slot, default: []].append(key)
                }
                if slotOrder.count == 1 {
                    merges.append(.single(parts.count))
                    parts.append(Part(command: command, slot: slotOrder[0]))
                } else {
                    let start = parts.count
                    for slot in slotOrder {
                        parts.append(Part(command: RedisCommand(name, keysBySlot[slot] ?? []), slot: slot))
                    }
                    merges.append(.sum(start..<parts.count))
                }
            } else {
                merges.append(.single(parts.count))
                parts.append(Part(command: command, slot: nil))
            }
        }
    }

    /// The replies to the caller's commands from the replies to ``parts`` (one each, in order).
    func replies(from partReplies: [RedisValue]) -> [RedisValue] {
        merges.map { merge in
            switch merge {
            case .single(let index):
                return partReplies[index]
            case .sum(let range):
                var total = 0
                for reply in partReplies[range] {
                    guard case .integer(let count) = reply else { return reply }
                    total += count
                }
                return .integer(total)
            }
        }
    }
}
