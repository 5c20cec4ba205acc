#if canImport(Glibc)
import Glibc
#endif

/// A problem the keyboard lives through, said on standard error as one line; safe from any thread.
public func warn(_ message: String) {
    let line = Array("keypane: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
