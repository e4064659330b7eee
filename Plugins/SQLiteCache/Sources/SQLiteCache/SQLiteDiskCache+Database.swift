import CSQLite
import Foundation

/// The SQL side of ``SQLiteDiskCache``: opening, the schema, lookups, writes and removals. Every
/// method here runs under the cache's lock, with its one connection.
extension SQLiteDiskCache {
    /// What a lookup found.
    enum Lookup {
        case miss
        /// A value stored in the row.
        case inline(Data, extended: Data?)
        /// A value in file `name` of `size` bytes.
        case file(name: String, size: Int, extended: Data?)
    }

    /// Runs `body` under the lock with the open connection (opened on first use), then deletes
    /// the value files that committed removals left, after the lock is released. A damaged
    /// database is rebuilt, and the error rethrown.
    func withDatabase<Result>(_ body: (inout State, SQLiteConnection) throws -> Result) throws -> Result {
        let (result, obsolete) = try state.withLock { state -> (Result, [String]) in
            do {
                let connection = try open(&state)
                let result = try body(&state, connection)
                defer { state.obsoleteFiles.removeAll() }
                return (result, state.obsoleteFiles)
            } catch let failure as SQLiteFailure where failure.isCorruption {
                rebuild(&state)
                throw failure
            }
        }
        for name in obsolete { files.remove(name) }
        return result
    }

    // MARK: Opening

    /// The connection, opened (and the schema made) on first use; the `synchronous` setting
    /// follows the config.
    private func open(_ state: inout State) throws -> SQLiteConnection {
        if state.connection != nil, access(databasePath, F_OK) != 0 {
            // The database was deleted behind our back (the directory removed, say): writing on
            // into the unlinked file would lose everything, so start a new one.
            rebuild(&state)
        }
        if let connection = state.connection {
            if state.synchronousFull != state.config.synchronizesWrites {
                try connection.execute(state.config.synchronizesWrites ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
                state.synchronousFull = state.config.synchronizesWrites
            }
            return connection
        }
        try ValueFiles.makeDirectories(files.directoryPath)
        let connection: SQLiteConnection
        do {
            connection = try connect(synchronous: state.config.synchronizesWrites)
        } catch let failure as SQLiteFailure where failure.isCorruption {
            // Not a database, damaged, or an unknown schema: start again (this is a cache).
            removeDatabaseFiles()
            connection = try connect(synchronous: state.config.synchronizesWrites)
        }
        state.connection = connection
        state.synchronousFull = state.config.synchronizesWrites
        state.pendingTouches.removeAll()
        try reloadTotals(&state, connection)
        return connection
    }

    /// Switches `connection` to write-ahead logging. Changing the journal mode takes an exclusive
    /// lock, and SQLite may answer `SQLITE_BUSY` at once instead of calling the busy handler
    /// (it would deadlock) when another connection opens the same file at the same moment (two
    /// caches, two processes): then the mode is read back (the other side may have set it
    /// already) and the change tried again, up to 10 s in all, as the busy timeout would.
    private func enableWriteAheadLog(_ connection: SQLiteConnection) throws {
        var waited: Int32 = 0
        while true {
            do {
                _ = try connection.scalarText("PRAGMA journal_mode = WAL")
                return
            } catch let failure as SQLiteFailure where failure.primaryCode == SQLITE_BUSY || failure.primaryCode == SQLITE_LOCKED {
                if (try? connection.scalarText("PRAGMA journal_mode"))?.lowercased() == "wal" { return }
                guard waited < 10_000 else { throw failure }
                waited += sqlite3_sleep(10)
            }
        }
    }

    /// Opens the database and makes or checks the schema.
    private func connect(synchronous: Bool) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: databasePath)
        sqlite3_busy_timeout(connection.handle, 10_000)
        // Where the file system cannot hold the WAL index (no shared memory), SQLite keeps its
        // rollback journal: as crash safe, only slower, and readers wait for writers.
        try enableWriteAheadLog(connection)
        try connection.execute(synchronous ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
        // No `mmap_size`: memory-mapped reads measured 15-40% faster, but an I/O error in one is
        // a SIGBUS that kills the app, and a cache must never do that.
        var version = try connection.scalarInt("PRAGMA user_version")
        if version == 0 {
            try connection.writeTransaction {
                // Another process may have made it meanwhile.
                version = try connection.scalarInt("PRAGMA user_version")
                guard version == 0 else { return }
                // Small columns first, blobs last: SQLite reaches a column by walking the row,
                // through the overflow pages of any large blob stored before it.
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS entries (
                        key BLOB PRIMARY KEY NOT NULL,
                        size INTEGER NOT NULL,
                        access_time INTEGER NOT NULL,
                        creation_time INTEGER NOT NULL,
                        file_name TEXT,
                        extended_data BLOB,
                        data BLOB
                    )
                    """)
                // Eviction order, and a covering index for the totals and for eviction, so that
                // neither reads the rows (a full table scan would read every inline value).
                // Expiry by creation time is not indexed: it is left to sweeps (see `trim`).
                try connection.execute("CREATE INDEX IF NOT EXISTS entries_access_time ON entries(access_time, size, file_name)")
                try connection.execute("PRAGMA user_version = \(Self.schemaVersion)")
                version = Self.schemaVersion
            }
        }
        guard version == Self.schemaVersion else {
            throw SQLiteFailure(code: SQLITE_NOTADB, message: "schema version \(version), this cache reads version \(Self.schemaVersion)", operation: "open \(databasePath)")
        }
        return connection
    }

    /// Closes the connection and deletes the database and every value file: the next operation
    /// starts an empty cache.
    func rebuild(_ state: inout State) {
        state.connection = nil
        state.pendingTouches.removeAll()
        state.obsoleteFiles.removeAll()
        state.totalSize = 0
        state.totalCount = 0
        state.dataVersion = -1
        removeDatabaseFiles()
    }

    private func removeDatabaseFiles() {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            unlink(databasePath + suffix)
        }
        for file in files.list() { unlink(files.path(of: file.name)) }
    }

    // MARK: Totals and time

    /// Counts and sums the rows.
    func totals(_ connection: SQLiteConnection) throws -> (size: Int, count: Int) {
        try connection.withStatement("SELECT count(*), coalesce(sum(size), 0) FROM entries INDEXED BY entries_access_time") { statement in
            guard try statement.step() else { return (0, 0) }
            return (Int(statement.int64(1)), Int(statement.int64(0)))
        }
    }

    /// Re-reads the totals and the latest access time, and remembers the data version they
    /// belong to.
    private func reloadTotals(_ state: inout State, _ connection: SQLiteConnection) throws {
        let (size, count) = try totals(connection)
        state.totalSize = size
        state.totalCount = count
        // Times handed out later come after every stored one, even if the wall clock went back
        // or another process's clock runs ahead: recency stays exact across instances.
        state.lastTime = max(state.lastTime, try connection.scalarInt("SELECT coalesce(max(access_time), 0) FROM entries"))
        state.dataVersion = try connection.scalarInt("PRAGMA data_version")
    }

    /// Re-reads the totals if another connection (another instance or process) committed since
    /// they were read. Call inside a write transaction, where nobody else can change them.
    private func refreshTotals(_ state: inout State, _ connection: SQLiteConnection) throws {
        if try connection.scalarInt("PRAGMA data_version") != state.dataVersion {
            try reloadTotals(&state, connection)
        }
    }

    /// Now, in microseconds since 1970, by the cache's clock.
    func wallTime() -> Int64 {
        let seconds = clock().timeIntervalSince1970
        guard seconds.isFinite else { return 0 }
        return Int64(max(-9e12, min(9e12, seconds)) * 1_000_000)
    }

    /// A time for an access or a write: now, but always after the last one handed out, so that
    /// the recency order within a process is exact.
    private func nextTime(_ state: inout State) -> Int64 {
        let time = max(wallTime(), state.lastTime + 1)
        state.lastTime = time
        return time
    }

    /// The time before which entries are expired, or `nil` when nothing expires.
    static func expiryCutoff(_ config: Config, now: Int64) -> Int64? {
        guard config.maxAge >= 0 else { return nil }
        guard config.maxAge < 1e12 else { return nil }  // 30,000 years: never
        return now - Int64(config.maxAge * 1_000_000)
    }

    // MARK: Reading

    /// Finds `key`. An expired row is removed and is a miss; with `touch`, a hit's access
    /// time becomes now (kept in memory until the next write).
    func lookup(_ key: String, touch: Bool, _ state: inout State, _ connection: SQLiteConnection) throws -> Lookup {
        let keyBytes = Data(key.utf8)
        let row = try connection.withStatement(
            "SELECT data, file_name, extended_data, size, access_time, creation_time FROM entries WHERE key = ?1"
        ) { statement -> (data: Data?, fileName: String?, extended: Data?, size: Int, accessed: Int64, created: Int64)? in
            try statement.bind(keyBytes, at: 1)
            guard try statement.step() else { return nil }
            return (statement.data(0), statement.string(1), statement.data(2), Int(statement.int64(3)), statement.int64(4), statement.int64(5))
        }
        guard let row else { return .miss }
        let config = state.config
        if let cutoff = Self.expiryCutoff(config, now: wallTime()) {
            let date = config.expireType == .accessDate ? max(row.accessed, state.pendingTouches[key] ?? 0) : row.created
            if date < cutoff {
                state.pendingTouches[key] = nil
                _ = try removeRow(key, onlyIfFile: nil, &state, connection)
                return .miss
            }
        }
        if touch {
            state.pendingTouches[key] = nextTime(&state)
            if state.pendingTouches.count >= Self.touchBatchSize {
                try flushTouches(&state, connection)
            }
        }
        if let data = row.data { return .inline(data, extended: row.extended) }
        guard let name = row.fileName else { return .inline(Data(), extended: row.extended) }
        return .file(name: name, size: row.size - (row.extended?.count ?? 0), extended: row.extended)
    }

    /// Writes the pending access times in one transaction.
    func flushTouches(_ state: inout State, _ connection: SQLiteConnection) throws {
        guard !state.pendingTouches.isEmpty else { return }
        let touches = state.pendingTouches
        try connection.writeTransaction { try writeTouches(touches, connection) }
        state.pendingTouches.removeAll(keepingCapacity: true)
    }

    /// Writes access times kept in memory (never moving one back).
    func writeTouches(_ touches: [String: Int64], _ connection: SQLiteConnection) throws {
        for (key, time) in touches {
            try connection.withStatement("UPDATE entries SET access_time = ?2 WHERE key = ?1 AND access_time < ?2") { statement in
                try statement.bind(Data(key.utf8), at: 1)
                try statement.bind(time, at: 2)
                try statement.run()
            }
        }
    }

    // MARK: Writing

    /// Inserts or replaces the row of `key` and enforces the limits, in one transaction.
    func write(key: String, inline: Data?, fileName: String?, extendedData: Data?, size: Int, _ state: inout State, _ connection: SQLiteConnection) throws {
        let keyBytes = Data(key.utf8)
        let config = state.config
        var flushedTouches = false
        let (totals, removed) = try connection.writeTransaction { () -> ((size: Int, count: Int), [String]) in
            try refreshTotals(&state, connection)
            let old = try connection.withStatement("SELECT size, file_name FROM entries WHERE key = ?1") { statement -> (size: Int, fileName: String?)? in
                try statement.bind(keyBytes, at: 1)
                return try statement.step() ? (Int(statement.int64(0)), statement.string(1)) : nil
            }
            let time = nextTime(&state)
            try connection.withStatement("""
                INSERT INTO entries (key, data, file_name, extended_data, size, access_time, creation_time)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
                ON CONFLICT (key) DO UPDATE SET data = excluded.data, file_name = excluded.file_name,
                    extended_data = excluded.extended_data, size = excluded.size,
                    access_time = excluded.access_time, creation_time = excluded.creation_time
                """) { statement in
                try statement.bind(keyBytes, at: 1)
                try statement.bind(inline, at: 2)
                try statement.bind(fileName, at: 3)
                try statement.bind(extendedData, at: 4)
                try statement.bind(Int64(size), at: 5)
                try statement.bind(time, at: 6)
                try statement.run()
            }
            var totals = (size: state.totalSize - (old?.size ?? 0) + size, count: state.totalCount + (old == nil ? 1 : 0))
            var removed = old?.fileName.map { [$0] } ?? []
            if totals.size > config.sizeLimit || totals.count > config.countLimit {
                // Eviction needs the recency of the reads kept in memory: write it first.
                try writeTouches(state.pendingTouches, connection)
                flushedTouches = true
                _ = try trim(&totals, config: config, now: wallTime(), removedFiles: &removed, connection)
            }
            return (totals, removed)
        }
        state.totalSize = totals.size
        state.totalCount = totals.count
        state.obsoleteFiles += removed
        if flushedTouches { state.pendingTouches.removeAll(keepingCapacity: true) }
        state.pendingTouches[key] = nil
    }

    /// Deletes the row of `key` in its own transaction (when `onlyIfFile` is given, only if the
    /// row still names that file).
    /// - Returns: Whether a row was deleted.
    func removeRow(_ key: String, onlyIfFile fileName: String?, _ state: inout State, _ connection: SQLiteConnection) throws -> Bool {
        let sql = fileName == nil
            ? "DELETE FROM entries WHERE key = ?1 RETURNING size, file_name"
            : "DELETE FROM entries WHERE key = ?1 AND file_name = ?2 RETURNING size, file_name"
        let deleted = try connection.writeTransaction { () -> (size: Int, fileName: String?)? in
            try refreshTotals(&state, connection)
            return try connection.withStatement(sql) { statement in
                try statement.bind(Data(key.utf8), at: 1)
                if let fileName { try statement.bind(fileName, at: 2) }
                guard try statement.step() else { return nil }
                let row = (Int(statement.int64(0)), statement.string(1))
                try statement.run()
                return row
            }
        }
        guard let deleted else { return false }
        state.totalSize -= deleted.size
        state.totalCount -= 1
        if let name = deleted.fileName { state.obsoleteFiles.append(name) }
        return true
    }

    /// Inside a write transaction: when a limit is exceeded, deletes expired rows, then the least
    /// recently used, until both limits hold. Expired rows are found through the access time
    /// index; with ``ExpireType/creationDate`` (not indexed, to keep writes cheap) they are left to
    /// sweeps and reads, and eviction goes straight to the least recently used.
    /// - Returns: The number of rows deleted.
    func trim(_ totals: inout (size: Int, count: Int), config: Config, now: Int64, removedFiles: inout [String], _ connection: SQLiteConnection) throws -> Int {
        func overLimit() -> Bool { totals.size > config.sizeLimit || totals.count > config.countLimit }
        guard overLimit() else { return 0 }
        var removed = config.expireType == .accessDate
            ? try deleteExpired(config: config, now: now, totals: &totals, removedFiles: &removedFiles, connection)
            : 0
        while overLimit() {
            let oldest = try connection.withStatement("SELECT rowid, size, file_name FROM entries ORDER BY access_time LIMIT 64") { statement in
                var rows: [(rowid: Int64, size: Int, fileName: String?)] = []
                while try statement.step() { rows.append((statement.int64(0), Int(statement.int64(1)), statement.string(2))) }
                return rows
            }
            guard !oldest.isEmpty else { break }
            for row in oldest where overLimit() {
                try connection.withStatement("DELETE FROM entries WHERE rowid = ?1") { statement in
                    try statement.bind(row.rowid, at: 1)
                    try statement.run()
                }
                totals.size -= row.size
                totals.count -= 1
                if let name = row.fileName { removedFiles.append(name) }
                removed += 1
            }
        }
        return removed
    }

    /// Inside a write transaction: deletes every expired row.
    /// - Returns: The number of rows deleted.
    func deleteExpired(config: Config, now: Int64, totals: inout (size: Int, count: Int), removedFiles: inout [String], _ connection: SQLiteConnection) throws -> Int {
        guard let cutoff = Self.expiryCutoff(config, now: now) else { return 0 }
        let column = config.expireType == .accessDate ? "access_time" : "creation_time"
        return try connection.withStatement("DELETE FROM entries WHERE \(column) < ?1 RETURNING size, file_name") { statement in
            try statement.bind(cutoff, at: 1)
            var count = 0
            while try statement.step() {
                totals.size -= Int(statement.int64(0))
                totals.count -= 1
                if let name = statement.string(1) { removedFiles.append(name) }
                count += 1
            }
            return count
        }
    }
}
