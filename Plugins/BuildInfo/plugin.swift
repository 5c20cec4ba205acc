import Foundation
import PackagePlugin

/// Gives the target it is applied to `BuildInfo.version` (from the VERSION file at the top of the package)
/// and `BuildInfo.commit` (from git, or from the COMMIT file of a source tarball), through
/// scripts/build-info, which runs before every build and rewrites the file only when they change.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        return [.prebuildCommand(displayName: "Version and commit of \(target.name)",
                                 executable: URL(fileURLWithPath: "/bin/sh"),
                                 arguments: [root.appending(path: "scripts/build-info").path, root.path, output.path],
                                 outputFilesDirectory: output)]
    }
}
