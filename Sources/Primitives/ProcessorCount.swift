#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many cores the defaults use (compositor bands, encoder workers).
public enum ProcessorCount {
    /// Cores online now (at least 1).
    public static var online: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
