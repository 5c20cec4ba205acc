public import KeyboardModel
#if canImport(Glibc)
import Glibc
#endif

/// The package's root folder, found from this file's place in Tests/TestSupport.
public let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// The bundled layouts, loaded once.
public let bundled: LayoutLibrary = {
    do { return try LayoutLibrary(directory: packageRoot + "/Assets/layouts") } catch {
        fatalError("bundled layouts do not load: \(error)")
    }
}()

/// The bundled layout of a keyboard type.
public func bundledLayout(_ type: KeyboardType) -> Layout { bundled.layout(for: type)! }

/// Reading recorded audio: where sounds start, and which of several tones a sound is made of.
public enum AudioAnalysis {
    /// The sample indexes where a sound starts: the first sample louder than `threshold` after at least
    /// `gap` samples of quiet.
    public static func onsets(_ samples: [Int16], threshold: Int16 = 300, gap: Int) -> [Int] {
        var onsets: [Int] = []
        var lastLoud = -gap - 1
        for (index, sample) in samples.enumerated() where abs(Int(sample)) > Int(threshold) {
            if index - lastLoud > gap { onsets.append(index) }
            lastLoud = index
        }
        return onsets
    }

    /// Which of `frequencies` carries the most energy in `length` samples from `start` (Goertzel's
    /// algorithm): its index.
    public static func strongest(of frequencies: [Double], in samples: [Int16], from start: Int, length: Int,
                                 rate: Double) -> Int {
        let slice = samples[start..<min(samples.count, start + length)]
        let powers = frequencies.map { frequency -> Double in
            let coefficient = 2 * cos(2 * Double.pi * frequency / rate)
            var previous = 0.0, beforePrevious = 0.0
            for sample in slice {
                let current = Double(sample) + coefficient * previous - beforePrevious
                beforePrevious = previous
                previous = current
            }
            return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        }
        return powers.indices.max { powers[$0] < powers[$1] }!
    }
}
