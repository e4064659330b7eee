import Foundation
import WebImageCore
#if canImport(Glibc)
import Glibc
import CMalloc
#endif

/// glibc's allocator, told to give freed memory back to the system: an image server frees
/// bitmaps of tens of megabytes all the time, and glibc's defaults keep much of that memory
/// (its mmap threshold rises after the first large free, so later bitmaps come from arenas that
/// are not trimmed; every thread may get its own arena, up to eight per core).
///
/// Decisions (made once per process, by the first ``ImageServe`` started with
/// ``ImageServeConfiguration/tunesAllocator``):
/// - `M_ARENA_MAX` one per core (at least 2; glibc's default is eight per core): every thread
///   that allocates may get an arena of its own, and freed bitmaps stay stranded in them. This
///   is what bounds the resident memory (measured through the serve benchmark's cold case at a
///   1 GiB limit: 1,139-1,227 MiB peak with glibc's defaults, 883 MiB with this).
/// - `M_MMAP_THRESHOLD`, fixed (glibc's default starts at 128 KiB and rises up to 32 MiB), from
///   the memory limit: 32 MiB at 1 GiB or more, where a bitmap under it (a 3000x2000 original
///   is 24 MB) is taken from an arena and its pages are reused by the next decode instead of
///   being mapped and faulted in again (1 MiB there cost the cold case 30% of its throughput:
///   122 against 87 requests a second, 15.5 against 22 CPU ms each, peak 834 against 437
///   MiB); 1 MiB under 1 GiB, where every bitmap is its own mapping, returned when freed (at
///   512 MiB the arenas' reuse took the peak to 598 MiB, over the limit's 10%; 344 MiB so).
/// - `M_TRIM_THRESHOLD` 32 MiB: the top of the main arena beyond that is given back.
/// - ``MemoryBudget`` calls `malloc_trim` after large releases (every arena's free pages).
/// - An operator's own glibc settings win: with `GLIBC_TUNABLES` or any `MALLOC_` variable
///   of glibc's in the environment, nothing is changed.
enum AllocatorTuning {
    /// Applies the settings for a server of `memoryLimit` bytes; later calls do nothing.
    static func apply(memoryLimit: Int) {
        limit.withLock { $0 = $0 ?? memoryLimit }
        _ = applied
    }

    /// The memory limit of the first server that applied the settings.
    private static let limit = Locked<Int?>(nil)

    /// The settings, applied on first use.
    private static let applied: Bool = {
        let mmapThreshold: Int32 = (limit.withLock { $0 } ?? 0) >= 1 << 30 ? 32 << 20 : 1 << 20
        let environment = ProcessInfo.processInfo.environment
        guard !environment.keys.contains(where: { $0 == "GLIBC_TUNABLES" || $0.hasPrefix("MALLOC_") }) else { return false }
        #if canImport(Glibc)
        _ = mallopt(M_ARENA_MAX, Int32(clamping: max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold)
        _ = mallopt(M_TRIM_THRESHOLD, 32 << 20)
        #endif
        return true
    }()
}
