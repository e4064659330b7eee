import CSQLite
import Foundation

/// A prepared statement of a ``SQLiteConnection``: bind, step, read columns. Parameter and column
/// indexes are SQLite's (parameters from 1, columns from 0).
///
/// Lent out by ``SQLiteConnection/withStatement(_:_:)``, which resets it afterwards; never kept.
struct SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    unowned let connection: SQLiteConnection

    /// Binds bytes; `nil` binds NULL, empty data an empty blob (not NULL). SQLite copies them.
    func bind(_ value: Data?, at index: Int32) throws {
        let result: Int32
        if let value {
            if value.isEmpty {
                result = sqlite3_bind_zeroblob(handle, index, 0)
            } else {
                result = value.withUnsafeBytes { bytes in
                    sqlite3_bind_blob64(handle, index, bytes.baseAddress, sqlite3_uint64(bytes.count), csqlite_transient())
                }
            }
        } else {
            result = sqlite3_bind_null(handle, index)
        }
        try check(result, "bind parameter \(index) of")
    }

    /// Binds an integer.
    func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value), "bind parameter \(index) of")
    }

    /// Binds text without NUL bytes; `nil` binds NULL.
    func bind(_ value: String?, at index: Int32) throws {
        guard let value else {
            try check(sqlite3_bind_null(handle, index), "bind parameter \(index) of")
            return
        }
        // Text values are file names: no NUL bytes, so SQLite may measure them.
        let result = value.withCString { sqlite3_bind_text(handle, index, $0, -1, csqlite_transient()) }
        try check(result, "bind parameter \(index) of")
    }

    /// Runs one step. - Returns: `true` when a row is ready, `false` when the statement is done.
    func step() throws -> Bool {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.failure(result, "step \(sql)")
        }
    }

    /// Steps until done, ignoring rows.
    func run() throws {
        while try step() {}
    }

    /// Whether column `index` of the current row is NULL.
    func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` as an integer (0 for NULL).
    func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` as bytes: `nil` for NULL, empty data for an empty blob.
    func data(_ index: Int32) -> Data? {
        guard !isNull(index) else { return nil }
        // Ask for the pointer first, then the size (SQLite's documented order).
        guard let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, index)))
    }

    /// Column `index` as text: `nil` for NULL.
    func string(_ index: Int32) -> String? {
        guard !isNull(index), let text = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    private func check(_ result: Int32, _ operation: String) throws {
        guard result == SQLITE_OK else { throw connection.failure(result, "\(operation) \(sql)") }
    }
}
