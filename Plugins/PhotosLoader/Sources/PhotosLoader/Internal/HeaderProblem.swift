/// Why a file's header could not be read: the reason the scan reports for a skipped file.
struct HeaderProblem: Error, Sendable {
    var reason: String
}
