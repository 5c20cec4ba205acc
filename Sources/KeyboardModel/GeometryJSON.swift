extension KeyboardGeometry {
    /// The geometry as one JSON object, the format `keypane render --geometry` writes:
    /// `type`, `layer`, `layers`, `width`, `height` and `keys`, each key with `label`, `x`, `y`, `width`,
    /// `height` and one of `text`, `keysym` or `action`.
    public func json() -> String {
        var out = "{\n"
        out += "  \"type\": \(quote(type.rawValue)),\n"
        out += "  \"layout\": \(quote(layoutName)),\n"
        out += "  \"layer\": \(quote(layer)),\n"
        out += "  \"layers\": [\(layers.map(quote).joined(separator: ", "))],\n"
        out += "  \"width\": \(width),\n  \"height\": \(height),\n"
        out += "  \"widthClass\": \(quote(widthClass.rawValue)),\n"
        out += "  \"keys\": [\n"
        out += keys.map { key in
            var fields = ["\"label\": \(quote(key.name))", "\"x\": \(key.rect.x)", "\"y\": \(key.rect.y)",
                          "\"width\": \(key.rect.width)", "\"height\": \(key.rect.height)"]
            switch key.function {
            case .text(let text): fields.append("\"text\": \(quote(text))")
            case .keysym(let name): fields.append("\"keysym\": \(quote(name))")
            default: fields.append("\"action\": \(quote(key.function.actionName ?? ""))")
            }
            if let secondary = key.secondary { fields.append("\"secondary\": \(quote(secondary))") }
            if case .setting(let row) = key.function {
                // A row of the settings panel: its setting, the value it shows, and what a tap does.
                fields += ["\"setting\": \(quote(row.name))", "\"value\": \(quote(key.secondary ?? ""))",
                           "\"control\": \(quote(row.controlName))", "\"locked\": \(row.locked)"]
            }
            if !key.alternates.isEmpty {
                fields.append("\"alternates\": [\(key.alternates.map(quote).joined(separator: ", "))]")
            }
            return "    {" + fields.joined(separator: ", ") + "}"
        }.joined(separator: ",\n")
        out += "\n  ]\n}\n"
        return out
    }
}

/// A JSON string literal.
func quote(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
