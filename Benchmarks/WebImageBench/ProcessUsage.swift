import Foundation

/// What this process used between two moments (`getrusage(RUSAGE_SELF)`): CPU time (user +
/// system, every thread), context switches (voluntary + involuntary) and minor page faults.
/// Less noisy than wall time on a loaded machine, and it shows thread hand-overs and fresh
/// memory, which wall time hides.
struct ProcessUsage {
    var cpuMilliseconds: Double
    var contextSwitches: Double
    var minorFaults: Double

    /// The totals so far of `who`: this process (the default) or its ended children
    /// (`RUSAGE_CHILDREN`).
    static func now(_ who: __rusage_who = RUSAGE_SELF) -> ProcessUsage {
        var usage = rusage()
        getrusage(__rusage_who_t(who.rawValue), &usage)
        func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
        return ProcessUsage(
            cpuMilliseconds: ms(usage.ru_utime) + ms(usage.ru_stime),
            contextSwitches: Double(usage.ru_nvcsw + usage.ru_nivcsw),
            minorFaults: Double(usage.ru_minflt)
        )
    }

    static func - (lhs: ProcessUsage, rhs: ProcessUsage) -> ProcessUsage {
        ProcessUsage(
            cpuMilliseconds: lhs.cpuMilliseconds - rhs.cpuMilliseconds,
            contextSwitches: lhs.contextSwitches - rhs.contextSwitches,
            minorFaults: lhs.minorFaults - rhs.minorFaults
        )
    }
}
