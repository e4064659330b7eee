import Foundation

/// The memory limit of the control group this process runs in (a container's limit, a
/// systemd unit's `MemoryMax=`), read from cgroup v2's `memory.max` or cgroup v1's
/// `memory.limit_in_bytes`.
package enum CgroupMemoryLimit {
    /// The limit in bytes, or `nil` when the process's group sets none (or none can be read).
    /// - Parameter root: Where the cgroup file systems are mounted (tests give a directory).
    package static func current(proc: String = "/proc/self/cgroup", root: String = "/sys/fs/cgroup") -> Int? {
        let membership = (try? String(contentsOfFile: proc, encoding: .utf8)) ?? ""
        for candidate in candidateFiles(membership: membership, root: root) {
            guard let text = try? String(contentsOfFile: candidate, encoding: .utf8) else { continue }
            return parse(text)
        }
        return nil
    }

    /// The files that may hold the limit, most specific first: the group's own file in the v2
    /// hierarchy, then in the v1 memory hierarchy, then the mount's top (inside a container
    /// with its own cgroup namespace, the group is the top).
    package static func candidateFiles(membership: String, root: String) -> [String] {
        var files: [String] = []
        for line in membership.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let path = String(fields[2])
            if fields[0] == "0", fields[1].isEmpty, path != "/" {
                files.append(root + path + "/memory.max")
            } else if fields[1].split(separator: ",").contains("memory"), path != "/" {
                files.append(root + "/memory" + path + "/memory.limit_in_bytes")
            }
        }
        files.append(root + "/memory.max")
        files.append(root + "/memory/memory.limit_in_bytes")
        return files
    }

    /// A limit file's value in bytes; `nil` for `max` (v2's "no limit"), for v1's "no limit"
    /// (a number near `Int64.max`, rounded down to a page) and for anything unreadable.
    package static func parse(_ text: String) -> Int? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard value != "max", let bytes = Int(value), bytes > 0, bytes < 1 << 60 else { return nil }
        return bytes
    }
}
