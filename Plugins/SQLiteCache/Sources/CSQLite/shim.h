// The system SQLite (Debian: libsqlite3-dev), plus what its macros hide from Swift.
#include <sqlite3.h>

/// SQLITE_TRANSIENT: SQLite copies a bound value before the bind call returns. The macro is a
/// cast of -1 to a function pointer, which Swift does not import.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
