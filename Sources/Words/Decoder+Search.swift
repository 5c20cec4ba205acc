/// The decoder's search for the last request's taps, kept so that the next tap of the same word extends it
/// instead of searching again from the first tap: layer k holds the hypotheses after k taps, and depends on
/// those taps alone (with the plan, the touch model and the decoder's settings), never on the context.
public struct SearchMemo: Sendable {
    var taps: [Tap] = []
    var plan: KeyPlan?
    var model: TouchModel?
    var settings: DecoderSettings?
    var layers: [NodeTable] = []

    public init() {}

    init(taps: [Tap], plan: KeyPlan, model: TouchModel, settings: DecoderSettings, layers: [NodeTable]) {
        self.taps = taps
        self.plan = plan
        self.model = model
        self.settings = settings
        self.layers = layers
    }

    /// How many of `taps`' layers the memo holds as a fresh search would make them: the layers of the
    /// taps both share, or none when the plan, the touch model or the settings changed.
    func reusable(for taps: [Tap], plan: KeyPlan, model: TouchModel, settings: DecoderSettings) -> Int {
        guard self.plan == plan, self.model == model, self.settings == settings, !layers.isEmpty else { return 0 }
        var shared = 0
        while shared < min(taps.count, self.taps.count), taps[shared] == self.taps[shared] { shared += 1 }
        return shared
    }
}

extension Decoder {
    /// The search's layers for `taps`, layer k after k taps, each with its skipped letters added and pruned
    /// to the beam; from the memo's layers where it shares taps, and kept in it for the next request.
    func search(_ taps: [Tap], plan: KeyPlan, touch model: TouchModel, memo: inout SearchMemo) -> [NodeTable] {
        let maxEdits = taps.count <= 3 ? settings.maxEditsShort : settings.maxEdits
        let previousMaxEdits = memo.taps.count <= 3 ? settings.maxEditsShort : settings.maxEdits
        // The edits allowed change with the taps' count: a search for fewer taps is no prefix of this one.
        let shared = maxEdits == previousMaxEdits ? memo.reusable(for: taps, plan: plan, model: model, settings: settings) : 0
        // The first layer to search; the taps before its last one are searched already.
        let first = min(shared, taps.count)
        // Each tap's cost against each character: ASCII in a flat table filled at once, the rest as met.
        let typed = taps.map(TouchModel.unit(of:))
        var ascii = [Float](repeating: 0, count: taps.count * 128)
        for index in max(0, first - 1)..<taps.count {
            for unit in 0..<128 { ascii[index * 128 + unit] = model.cost(taps[index], typed: typed[index], UInt16(unit), plan: plan) }
        }
        var others = [[UInt16: Float]](repeating: [:], count: taps.count)
        func tapCost(_ index: Int, _ unit: UInt16) -> Float {
            if unit < 128 { return ascii[index * 128 + Int(unit)] }
            if let cost = others[index][unit] { return cost }
            let cost = model.cost(taps[index], unit, plan: plan)
            others[index][unit] = cost
            return cost
        }
        let apostrophe = UInt16(UInt8(ascii: "'"))
        var layers = [NodeTable](repeating: NodeTable(), count: taps.count + 1)
        layers[0].offer(Hypothesis(node: 0, cost: 0, edits: 0))
        // Layers 0...shared are the memo's, each whole: its own taps gave it every hypothesis it can have.
        if shared > 0 { for index in 0...shared { layers[index] = memo.layers[index] } }
        /// Letters skipped: children reached without a tap, in the same layer; then the beam.
        func expand(_ index: Int) {
            layers[index].reserve(layers[index].count * 3)
            var frontier = layers[index].all
            while !frontier.isEmpty {
                var next: [Hypothesis] = []
                for hypothesis in frontier where hypothesis.edits < maxEdits {
                    guard let node = dictionary.node(hypothesis.node) else { continue }
                    forEachChild(of: node) { child in
                        let cost = hypothesis.cost + (child.character == apostrophe ? settings.apostropheOmission : settings.omission)
                        let skipped = Hypothesis(node: child.index, cost: cost, edits: hypothesis.edits + 1)
                        if layers[index].offer(skipped) { next.append(skipped) }
                    }
                }
                frontier = next
            }
            layers[index] = prune(layers[index])
        }
        /// What tap `index` makes of each hypothesis of its layer, offered to the next layers; with
        /// `swapsOnly`, only the swap of this tap and the next.
        func advance(_ index: Int, swapsOnly: Bool = false) {
            // Each hypothesis leads to a few children: room made once, not grown table by table.
            if !swapsOnly { layers[index + 1].reserve(layers[index].count * 8) }
            for hypothesis in layers[index].all {
                guard let node = dictionary.node(hypothesis.node) else { continue }
                if !swapsOnly {
                    // The tap meant one of the children.
                    forEachChild(of: node) { child in
                        // A tap nowhere near the letter is a slip to another key: an edit like the others.
                        let cost = tapCost(index, child.character)
                        let slip = cost >= model.substitution
                        guard !slip || hypothesis.edits < maxEdits else { return }
                        layers[index + 1].offer(Hypothesis(node: child.index, cost: hypothesis.cost + cost,
                                                           edits: hypothesis.edits + (slip ? 1 : 0)))
                    }
                }
                guard hypothesis.edits < maxEdits else { continue }
                // The tap meant nothing: a letter doubled or a stray touch (never the first tap).
                if index > 0, !swapsOnly {
                    layers[index + 1].offer(Hypothesis(node: hypothesis.node, cost: hypothesis.cost + settings.insertion,
                                                       edits: hypothesis.edits + 1))
                }
                // This tap and the next meant the next two letters the other way round.
                if index + 1 < taps.count {
                    // Only where both taps fell near the letters swapped.
                    forEachChild(of: node) { first in
                        let firstCost = tapCost(index + 1, first.character)
                        guard firstCost < settings.nearMiss else { return }
                        forEachChild(of: first) { second in
                            guard second.character != first.character else { return }
                            let secondCost = tapCost(index, second.character)
                            guard secondCost < settings.nearMiss else { return }
                            let cost = hypothesis.cost + firstCost + secondCost + settings.transposition
                            layers[index + 2].offer(Hypothesis(node: second.index, cost: cost, edits: hypothesis.edits + 1))
                        }
                    }
                }
            }
        }
        // The memo's last layer had no next tap to swap with: its layer before swaps now.
        if first > 0, first < taps.count { advance(first - 1, swapsOnly: true) }
        for index in first...taps.count {
            if shared == 0 || index > shared { expand(index) }
            guard index < taps.count else { break }
            advance(index)
        }
        memo = SearchMemo(taps: taps, plan: plan, model: model, settings: settings, layers: layers)
        return layers
    }
}
