extension String {
    /// Every `target` replaced, without Foundation (or the string processing library, which the program
    /// is not linked with: see the Makefile's release flags).
    public func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let first = rest.first {
            if rest.hasPrefix(target) {
                result += replacement
                rest = rest.dropFirst(target.count)
            } else {
                result.append(first)
                rest = rest.dropFirst()
            }
        }
        return result
    }
}
