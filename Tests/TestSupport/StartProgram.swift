#if canImport(Glibc)
import Glibc
#endif

/// Where a started program's standard output goes.
public enum ProgramOutput {
    case inherited
    /// An open descriptor of the caller's.
    case descriptor(Int32)
    /// A file, made or emptied.
    case file(String)
}

/// A program that could not be started, and why.
public struct StartFailure: Error, CustomStringConvertible {
    public let description: String
}

/// Starts a program with `environment` (entries "NAME=value") and no signal blocked: a test runs on a
/// thread that blocks most signals, the bench blocks those that end it, and a program inherits the mask
/// of the thread that starts it, so it could not be told to stop. `quiet`: its standard input from, and
/// errors to, /dev/null. Returns its process id.
public func startProgram(_ arguments: [String], environment: [String], output: ProgramOutput = .inherited,
                         quiet: Bool = false) throws(StartFailure) -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if quiet {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    switch output {
    case .inherited: break
    case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, 1)
    case .file(let path): posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let error = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
    guard error == 0 else {
        throw StartFailure(description: "cannot start \(arguments[0]): \(String(cString: strerror(error)))")
    }
    return pid
}

/// This process's environment, as entries "NAME=value".
public var currentEnvironment: [String] {
    var entries: [String] = []
    var index = 0
    while let entry = environ[index] {
        entries.append(String(cString: entry))
        index += 1
    }
    return entries
}
