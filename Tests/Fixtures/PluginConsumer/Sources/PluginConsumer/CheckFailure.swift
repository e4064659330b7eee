/// A check that saw something other than what the plug-in promises.
struct CheckFailure: Error, CustomStringConvertible {
    /// What was wrong.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
