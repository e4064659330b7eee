import Foundation

/// Counts the elements a document's `<use>` references would instantiate, from a scan of its
/// tags, before librsvg draws anything.
///
/// Ten `<use>` of a group of ten `<use>` of ... (the billion-laughs shape) makes a few hundred
/// bytes draw 10^9 shapes. librsvg 2.54 stops at 500,000 referenced elements, but only after
/// drawing them (seconds of CPU per document); this scan refuses such documents in
/// microseconds. The scan is a tokenizer, not a parser: comments, CDATA, processing
/// instructions and the DOCTYPE are skipped, attributes are read with their quotes, and a
/// malformed document gives whatever count it gives (librsvg then refuses it).
enum UseFanOut {
    /// The most elements `<use>` may add to a document (librsvg's own limit is 500,000; real
    /// icon sprites add a few thousand).
    static let maximumInstances = 100_000

    /// The elements the document's `<use>` references add, beyond the elements it has
    /// (saturating at `maximumInstances + 1`).
    static func instances(in data: Data) -> Int {
        data.withUnsafeBytes { raw in
            instances(raw.bindMemory(to: UInt8.self))
        }
    }

    /// The count for the bytes `b` (see ``instances(in:)``).
    private static func instances(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        var ids: [String: Int] = [:]
        var children: [[Int]] = []
        var references: [String?] = []
        var stack: [Int] = []
        var roots: [Int] = []
        var i = 0
        let n = b.count

        func starts(_ text: StaticString, at index: Int) -> Bool {
            let length = text.utf8CodeUnitCount
            guard index + length <= n else { return false }
            for k in 0..<length where b[index + k] != text.utf8Start[k] { return false }
            return true
        }
        func skip(past text: StaticString, from index: Int) -> Int {
            var j = index
            while j < n, !starts(text, at: j) { j += 1 }
            return min(n, j + text.utf8CodeUnitCount)
        }
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

        while i < n {
            guard b[i] == UInt8(ascii: "<") else { i += 1; continue }
            if starts("<!--", at: i) { i = skip(past: "-->", from: i + 4); continue }
            if starts("<![CDATA[", at: i) { i = skip(past: "]]>", from: i + 9); continue }
            if starts("<?", at: i) { i = skip(past: "?>", from: i + 2); continue }
            if starts("<!", at: i) {
                var j = i + 2, depth = 0
                while j < n {
                    if b[j] == UInt8(ascii: "[") { depth += 1 } else if b[j] == UInt8(ascii: "]") { depth -= 1 } else if b[j] == UInt8(ascii: ">"), depth <= 0 { break }
                    j += 1
                }
                i = j + 1
                continue
            }
            if starts("</", at: i) {
                _ = stack.popLast()
                i = skip(past: ">", from: i + 2)
                continue
            }
            // A start tag: its name, then attributes up to '>' (quotes respected).
            var j = i + 1
            let nameStart = j
            while j < n, !isSpace(b[j]), b[j] != UInt8(ascii: ">"), b[j] != UInt8(ascii: "/") { j += 1 }
            let name = String(decoding: UnsafeBufferPointer(rebasing: b[nameStart..<j]), as: UTF8.self)
            var id: String?, href: String?
            var selfClosing = false
            while j < n, b[j] != UInt8(ascii: ">") {
                if b[j] == UInt8(ascii: "/") { selfClosing = true; j += 1; continue }
                if isSpace(b[j]) { j += 1; continue }
                selfClosing = false
                let attributeStart = j
                while j < n, b[j] != UInt8(ascii: "="), !isSpace(b[j]), b[j] != UInt8(ascii: ">") { j += 1 }
                let attribute = String(decoding: UnsafeBufferPointer(rebasing: b[attributeStart..<j]), as: UTF8.self)
                while j < n, isSpace(b[j]) { j += 1 }
                guard j < n, b[j] == UInt8(ascii: "=") else { continue }
                j += 1
                while j < n, isSpace(b[j]) { j += 1 }
                guard j < n, b[j] == UInt8(ascii: "\"") || b[j] == UInt8(ascii: "'") else { continue }
                let quote = b[j]
                let valueStart = j + 1
                j = valueStart
                while j < n, b[j] != quote { j += 1 }
                let value = String(decoding: UnsafeBufferPointer(rebasing: b[valueStart..<min(j, n)]), as: UTF8.self)
                j += 1
                if attribute == "id" || attribute.hasSuffix(":id") { id = value }
                if attribute == "href" || attribute.hasSuffix(":href") { href = value }
            }
            i = j + 1
            let element = children.count
            children.append([])
            let local = name.split(separator: ":").last.map(String.init) ?? name
            references.append(local == "use" && href?.first == "#" ? String(href!.dropFirst()) : nil)
            if let id, ids[id] == nil { ids[id] = element }
            if let parent = stack.last { children[parent].append(element) } else { roots.append(element) }
            if !selfClosing { stack.append(element) }
        }

        // weight(e) = 1 + the children's weights + the referenced element's weight for a <use>;
        // computed depth-first without recursion, saturating; a reference cycle counts 0
        // (librsvg refuses it).
        let cap = children.count + maximumInstances + 1
        var weight = [Int](repeating: 0, count: children.count)
        var state = [UInt8](repeating: 0, count: children.count)  // 0 new, 1 open, 2 done
        func dependencies(_ e: Int) -> [Int] {
            var list = children[e]
            if let reference = references[e], let target = ids[reference] { list.append(target) }
            return list
        }
        for root in roots {
            var work: [Int] = [root]
            while let e = work.last {
                if state[e] == 2 { work.removeLast(); continue }
                if state[e] == 0 {
                    state[e] = 1
                    for d in dependencies(e) where state[d] == 0 { work.append(d) }
                    continue
                }
                var total = 1
                for d in dependencies(e) where state[d] == 2 {
                    total = min(cap, total + weight[d])
                }
                weight[e] = total
                state[e] = 2
                work.removeLast()
            }
        }
        let expanded = roots.reduce(0) { min(cap, $0 + weight[$1]) }
        return max(0, expanded - children.count)
    }
}
