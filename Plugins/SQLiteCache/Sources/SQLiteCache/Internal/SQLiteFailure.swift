import CSQLite

/// A failed SQLite call: what was being done, SQLite's (extended) result code and its message.
struct SQLiteFailure: Error, CustomStringConvertible {
    /// The extended result code (`SQLITE_IOERR_WRITE`, `SQLITE_CORRUPT`, ...).
    let code: Int32
    /// SQLite's message for it.
    let message: String
    /// What the cache was doing ("open", "prepare SELECT ...", "step INSERT ...").
    let operation: String

    /// The primary result code (`SQLITE_IOERR`, `SQLITE_FULL`, ...).
    var primaryCode: Int32 { code & 0xFF }

    /// Whether the database file is damaged or not a database at all: the cache rebuilds it.
    var isCorruption: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }

    var description: String { "\(operation) failed: \(message) (SQLite result code \(code))" }
}
