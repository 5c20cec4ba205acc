import Foundation
import PackagePlugin

/// Checks what Sources/CAtspi/shim.h declares of libatspi and libdbus (which Keypane opens with dlopen, and
/// whose headers it does not compile with) against the libraries' own headers, through
/// scripts/check-c-declarations: a declaration that differs fails the build. The check runs when shim.h,
/// Accessibility/Libraries.swift or the check changes, and in every new build directory; the toolchain's
/// clang compiles it. Its output is a Swift file with a comment in it, for the target it is applied to.
@main
struct CheckCDeclarationsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        let clang = (try? context.tool(named: "clang").url.path) ?? "clang"
        let output = context.pluginWorkDirectoryURL.appending(path: "CDeclarations.swift")
        let script = root.appending(path: "scripts/check-c-declarations")
        return [.buildCommand(displayName: "Checking the libatspi and libdbus declarations",
                              executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: [script.path, root.path, clang, output.path],
                              inputFiles: [script, root.appending(path: "scripts/check-c-declarations.c"),
                                           root.appending(path: "Sources/CAtspi/shim.h"),
                                           root.appending(path: "Sources/Accessibility/Libraries.swift")],
                              outputFiles: [output])]
    }
}
