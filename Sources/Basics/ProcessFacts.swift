#if canImport(Glibc)
public import Glibc
#endif

/// What the process was started with that the keyboard's parts ask about.
public enum ProcessFacts {
    /// The environment's values for `names`, those that are set.
    public static func environment(_ names: [String]) -> [String: String] {
        var environment: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// The user the process runs as.
    public static var userID: uid_t { getuid() }
}
