import Testing

/// The rendering suites, nested here to be found together. They run in parallel, each test with renderers
/// of its own, as the program's threads could: a renderer loads the colour glyphs it decodes into a face
/// of its own (`ColourFace`), since cairo's face of a font file is the whole process's and is not kept
/// locked (loading into it from two threads freed one's bitmap under the other), and renderers take turns
/// for their text (`KeyboardRenderer.fonts`), since cairo's cache of scaled fonts is the process's too.
@Suite enum Rendering {}
