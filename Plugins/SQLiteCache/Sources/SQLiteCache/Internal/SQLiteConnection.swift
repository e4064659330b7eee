import CSQLite
import Foundation

/// One SQLite connection with its prepared statements, prepared once and reused.
///
/// Opened in SQLite's multi-thread mode (`SQLITE_OPEN_NOMUTEX`): SQLite does no locking of its
/// own for the connection, because its owner (``SQLiteDiskCache``) only uses it inside its
/// `Locked` state, one thread at a time.
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (and creates) the database at `path`.
    /// - Throws: ``SQLiteFailure`` when SQLite cannot open it.
    init(path: String) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
            sqlite3_close_v2(handle)
            throw SQLiteFailure(code: result, message: message, operation: "open \(path)")
        }
        sqlite3_extended_result_codes(handle, 1)
        self.handle = handle
        self.path = path
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// The error for a failed call, with SQLite's message for this connection.
    func failure(_ result: Int32, _ operation: String) -> SQLiteFailure {
        let code = sqlite3_extended_errcode(handle)
        let message = String(cString: sqlite3_errmsg(handle))
        return SQLiteFailure(code: code != SQLITE_OK ? code : result, message: message, operation: operation)
    }

    /// Runs `body` with the prepared statement for `sql` (prepared on first use, then cached),
    /// and resets it afterwards so that it holds no read lock and no bound values.
    func withStatement<Result>(_ sql: String, _ body: (SQLiteStatement) throws -> Result) throws -> Result {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        return try body(SQLiteStatement(handle: statement, sql: sql, connection: self))
    }

    /// Runs `sql` (one statement, no parameters) to completion.
    func execute(_ sql: String) throws {
        try withStatement(sql) { try $0.run() }
    }

    /// Runs a one-row, one-column query (a pragma) and returns its value as text.
    func scalarText(_ sql: String) throws -> String? {
        try withStatement(sql) { try $0.step() ? $0.string(0) : nil }
    }

    /// Runs a one-row, one-column query and returns its value as an integer.
    func scalarInt(_ sql: String) throws -> Int64 {
        try withStatement(sql) { try $0.step() ? $0.int64(0) : 0 }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`: the write lock is taken at once,
    /// so the transaction cannot fail half-way for lack of it), committed when `body` returns
    /// and rolled back when it throws.
    func writeTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN IMMEDIATE")
        let result: Result
        do {
            result = try body()
            try execute("COMMIT")
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
        return result
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw failure(result, "prepare \(sql)")
        }
        statements[sql] = statement
        return statement
    }
}

// Safe: a connection is only used by the SQLiteDiskCache that owns it, inside that cache's
// `Locked` state (a mutex), so one thread at a time uses it, which is all SQLite's multi-thread
// mode asks. Statements lent out by `withStatement` never leave the closure.
extension SQLiteConnection: @unchecked Sendable {}
