#if canImport(Glibc)
import Glibc
#endif

/// A compiled dictionary (DictionaryFormat), mapped read-only from its file or held in memory: its
/// pages are the file's, shared between processes and never dirtied.
///
/// Every read is bounds-checked: a file damaged past its header gives wrong words, never a crash.
public final class WordDictionary: @unchecked Sendable {
    /// A node of the trie.
    public struct Node: Equatable, Sendable {
        public var index: UInt32
        public var firstChild: UInt32
        public var word: UInt32
        public var character: UInt16
        public var childCount: UInt8
        /// The lowest word cost below this node (tenths of a nat).
        public var best: UInt8
    }

    private let base: UnsafeRawPointer
    private let length: Int
    private let mapped: Bool
    public let nodeCount: UInt32
    public let wordCount: UInt32
    public let pairCount: UInt32
    /// How many two-word contexts the trigram model has (none: the dictionary has pairs only).
    public let contextCount: UInt32
    private let continuationCount: UInt32
    private let stringBytes: UInt32
    private let nodesOffset: Int, wordsOffset: Int, pairsOffset: Int, stringsOffset: Int
    private let contextsOffset: Int, continuationsOffset: Int
    /// Where it came from, for messages.
    public let path: String

    /// Maps a dictionary file. A file that is missing, cut short or not a dictionary is said by its path.
    public convenience init(path: String) throws(DictionaryError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path, reason: String(cString: strerror(errno))) }
        let size = Int(info.st_size)
        guard size >= DictionaryFormat.headerSize else { throw .corrupt(path, reason: "\(size) bytes, too short for a header") }
        guard let memory = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
            throw .unreadable(path, reason: String(cString: strerror(errno)))
        }
        // The search reads a few nodes here and there: only the pages it touches become resident (no
        // read-ahead, no mapping of the pages around each one).
        madvise(memory, size, MADV_RANDOM)
        do {
            try self.init(base: UnsafeRawPointer(memory), length: size, mapped: true, path: path)
        } catch {
            munmap(memory, size)
            throw error
        }
    }

    /// A dictionary held in memory (tests, the builder's check).
    public convenience init(bytes: [UInt8], path: String = "(memory)") throws(DictionaryError) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        memory.copyMemory(from: bytes, byteCount: bytes.count)
        do {
            try self.init(base: UnsafeRawPointer(memory), length: bytes.count, mapped: false, path: path)
        } catch {
            memory.deallocate()
            throw error
        }
    }

    private init(base: UnsafeRawPointer, length: Int, mapped: Bool, path: String) throws(DictionaryError) {
        self.base = base
        self.length = length
        self.mapped = mapped
        self.path = path
        guard length >= DictionaryFormat.headerSize,
              (0..<6).allSatisfy({ base.load(fromByteOffset: $0, as: UInt8.self) == DictionaryFormat.magic[$0] }) else {
            throw .corrupt(path, reason: "not a Keypane dictionary")
        }
        guard (6..<8).allSatisfy({ base.load(fromByteOffset: $0, as: UInt8.self) == DictionaryFormat.magic[$0] }) else {
            throw .corrupt(path, reason: "an older format than this keyboard reads: make dictionaries builds it anew")
        }
        let fields = (0..<DictionaryFormat.fieldCount).map { Self.u32(base, 8 + 4 * $0) }
        guard Self.u32(base, 8 + 4 * DictionaryFormat.fieldCount) == DictionaryFormat.check(fields) else {
            throw .corrupt(path, reason: "its header does not add up")
        }
        nodeCount = fields[1]
        wordCount = fields[2]
        pairCount = fields[3]
        stringBytes = fields[4]
        nodesOffset = Int(fields[7])
        wordsOffset = Int(fields[8])
        pairsOffset = Int(fields[9])
        stringsOffset = Int(fields[10])
        contextCount = fields[11]
        continuationCount = fields[12]
        contextsOffset = Int(fields[13])
        continuationsOffset = Int(fields[14])
        let end = Int(fields[15])
        guard end == length else { throw .corrupt(path, reason: "\(length) bytes where its header says \(end): cut short?") }
        guard nodeCount > 0,
              nodesOffset + Int(nodeCount) * DictionaryFormat.nodeSize <= wordsOffset,
              wordsOffset + Int(wordCount) * DictionaryFormat.wordSize <= pairsOffset,
              pairsOffset + Int(pairCount) * DictionaryFormat.pairSize <= stringsOffset,
              stringsOffset + Int(stringBytes) <= contextsOffset,
              contextsOffset + Int(contextCount) * DictionaryFormat.contextSize <= continuationsOffset,
              continuationsOffset + Int(continuationCount) * DictionaryFormat.continuationSize <= end else {
            throw .corrupt(path, reason: "its sections overlap")
        }
        totalCount = UInt64(fields[5]) | UInt64(fields[6]) << 32
    }

    /// How many words the dictionary was counted from.
    public let totalCount: UInt64

    /// Lets go of the pages lookups have read, while typing rests: they need not count in the keyboard's
    /// memory meanwhile. They stay in the kernel's page cache, and the next lookup maps those it reads again
    /// (a minor fault a page). Nothing for a dictionary held in memory.
    public func rest() {
        if mapped { madvise(UnsafeMutableRawPointer(mutating: base), length, MADV_DONTNEED) }
    }

    deinit {
        if mapped { munmap(UnsafeMutableRawPointer(mutating: base), length) } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }

    private static func u32(_ base: UnsafeRawPointer, _ offset: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    private func u32(_ offset: Int) -> UInt32 { Self.u32(base, offset) }
    private func u16(_ offset: Int) -> UInt16 { UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) }
    private func u8(_ offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }

    // MARK: - Reading

    public var root: Node { node(0)! }

    public func node(_ index: UInt32) -> Node? {
        guard index < nodeCount else { return nil }
        let at = nodesOffset + Int(index) * DictionaryFormat.nodeSize
        return Node(index: index, firstChild: u32(at), word: u32(at + 4), character: u16(at + 8),
                    childCount: u8(at + 10), best: u8(at + 11))
    }

    /// A node's children, in character order.
    public func children(of node: Node) -> [Node] {
        guard node.childCount > 0 else { return [] }
        let first = node.firstChild, last = min(UInt64(first) + UInt64(node.childCount), UInt64(nodeCount))
        guard UInt64(first) < last else { return [] }
        return (first..<UInt32(last)).compactMap { self.node($0) }
    }

    /// The child for a character, or nil: a binary search of the children, which are in character order.
    public func child(of node: Node, _ character: UInt16) -> Node? {
        var low = UInt64(node.firstChild), high = min(low + UInt64(node.childCount), UInt64(nodeCount))
        while low < high {
            let middle = low + (high - low) / 2
            guard let child = self.node(UInt32(middle)) else { return nil }
            if child.character == character { return child }
            if child.character < character { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// The node a string of UTF-16 units leads to.
    public func node(for prefix: some Sequence<UInt16>) -> Node? {
        var node = root
        for unit in prefix {
            guard let next = child(of: node, unit) else { return nil }
            node = next
        }
        return node
    }

    /// A word's id, or nil when the dictionary lacks it.
    public func id(of word: String) -> UInt32? {
        guard let node = node(for: word.utf16), node.word < wordCount else { return nil }
        return node.word
    }

    /// A word's text.
    public func word(_ id: UInt32) -> String? {
        guard id < wordCount else { return nil }
        let at = wordsOffset + Int(id) * DictionaryFormat.wordSize
        let offset = Int(u32(at)), count = Int(u8(at + 11))
        guard offset + count <= Int(stringBytes) else { return nil }
        let bytes = UnsafeRawBufferPointer(start: base + stringsOffset + offset, count: count)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A word's cost (tenths of a nat), or nil.
    public func cost(_ id: UInt32) -> UInt8? {
        guard id < wordCount else { return nil }
        return u8(wordsOffset + Int(id) * DictionaryFormat.wordSize + 10)
    }

    /// The words that follow a word, likeliest first, with their costs.
    public func followers(of id: UInt32) -> [(word: UInt32, cost: UInt8)] {
        guard id < wordCount else { return [] }
        let at = wordsOffset + Int(id) * DictionaryFormat.wordSize
        let first = UInt64(u32(at + 4)), count = UInt64(u16(at + 8))
        guard first + count <= UInt64(pairCount) else { return [] }
        return (0..<Int(count)).map { index in
            let value = u32(pairsOffset + (Int(first) + index) * DictionaryFormat.pairSize)
            return (value >> 8, UInt8(value & 0xFF))
        }
    }

    /// The cost of `next` after `previous`, when the pair is known.
    public func pairCost(_ previous: UInt32, _ next: UInt32) -> UInt8? {
        followers(of: previous).first { $0.word == next }?.cost
    }

    /// What follows two words (ids, or `DictionaryFormat.sentenceStart`), likeliest first, and the backoff
    /// cost of the words not listed; nil when the model knows nothing after them.
    public func continuations(after first: UInt32, _ second: UInt32) -> (backoff: UInt8, next: [(word: UInt32, cost: UInt8)])? {
        var low = 0, high = Int(contextCount)
        while low < high {
            let middle = (low + high) / 2
            let at = contextsOffset + middle * DictionaryFormat.contextSize
            let key = (u32(at), u32(at + 4))
            if key == (first, second) {
                let start = UInt64(u32(at + 8)), count = UInt64(u16(at + 12))
                guard start + count <= UInt64(continuationCount) else { return nil }
                let next = (0..<Int(count)).map { index in
                    let value = u32(continuationsOffset + (Int(start) + index) * DictionaryFormat.continuationSize)
                    return (word: value >> 8, cost: UInt8(value & 0xFF))
                }
                return (u8(at + 14), next)
            }
            if key < (first, second) { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
