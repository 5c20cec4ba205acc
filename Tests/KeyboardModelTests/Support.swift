import KeyboardModel
import TestSupport

/// A library made of one file's text, or the error it gives.
func parse(_ text: String, name: String = "test", extra: [String: String] = [:]) -> Result<LayoutLibrary, LayoutError> {
    var texts = [name: (text: text, file: name + ".layout")]
    for (other, body) in extra { texts[other] = (body, other + ".layout") }
    do { return .success(try LayoutLibrary(texts: texts)) } catch { return .failure(error) }
}

func parseError(_ text: String, extra: [String: String] = [:]) -> LayoutError? {
    if case .failure(let error) = parse(text, extra: extra) { return error }
    return nil
}

/// The keys of one row: those whose top edge is the given key's.
func rows(of geometry: KeyboardGeometry) -> [[PlacedKey]] {
    var result: [Int: [PlacedKey]] = [:]
    for key in geometry.keys { result[key.rect.y, default: []].append(key) }
    return result.keys.sorted().map { result[$0]!.sorted { $0.rect.x < $1.rect.x } }
}
