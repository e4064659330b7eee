import CSQLite
import Foundation
import SQLiteCache

/// A second, plain connection to a cache's database, for tests that look at (or damage) the
/// rows behind the cache's back.
final class RawDatabase {
    private var handle: OpaquePointer?

    init(_ cache: SQLiteDiskCache) throws {
        guard sqlite3_open_v2(cache.databaseURL.path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            sqlite3_close_v2(handle)
            throw RawDatabaseError(message: "cannot open \(cache.databaseURL.path)")
        }
        sqlite3_busy_timeout(handle, 10_000)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` (with text or blob parameters) and returns every row as strings (blobs as
    /// their byte count, NULL as "NULL").
    @discardableResult
    func query(_ sql: String, _ parameters: [Data] = []) throws -> [[String]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw RawDatabaseError(message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        for (index, parameter) in parameters.enumerated() {
            _ = parameter.withUnsafeBytes { bytes in
                sqlite3_bind_blob(statement, Int32(index + 1), bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), csqlite_transient())
            }
        }
        var rows: [[String]] = []
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { break }
            guard result == SQLITE_ROW else { throw RawDatabaseError(message: String(cString: sqlite3_errmsg(handle))) }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_NULL: return "NULL"
                case SQLITE_BLOB: return "\(sqlite3_column_bytes(statement, column)) bytes"
                default: return String(cString: sqlite3_column_text(statement, column))
                }
            })
        }
        return rows
    }

    /// How the row of `key` holds its value: `"inline"`, `"file <name>"`, or `nil` for no row.
    func storage(ofKey key: String) throws -> String? {
        let rows = try query("SELECT data IS NULL, file_name FROM entries WHERE key = ?1", [Data(key.utf8)])
        guard let row = rows.first else { return nil }
        return row[0] == "1" ? "file \(row[1])" : "inline"
    }
}

struct RawDatabaseError: Error {
    let message: String
}
