#if canImport(Glibc)
import Glibc
#endif

enum ProcessorCount {
    /// Cores online now (at least 1).
    static var online: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
