import ArgumentParser
import Foundation
import TweakKit

/// The provider stack shared by the commands that read or write tweaks.
struct StackOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A tweaks JSON file; repeat for several (the first wins).", valueName: "file"))
    var defaults: [String] = []

    @Option(name: .long, help: ArgumentHelp("The overrides JSON file that set and delete write to.", valueName: "file"))
    var overrides: String?

    func validate() throws {
        if defaults.isEmpty && overrides == nil {
            throw ValidationError("give at least one --defaults FILE or an --overrides FILE")
        }
    }

    /// Builds the manager: overrides first, then the defaults in the order given.
    func makeManager() throws -> TweakManager {
        var providers: [any TweakProvider] = []
        if let overrides {
            providers.append(try PersistentTweakProvider(fileURL: URL(fileURLWithPath: overrides), pollInterval: nil))
        }
        for path in defaults {
            providers.append(try LocalTweakProvider(jsonURL: URL(fileURLWithPath: path)))
        }
        return TweakManager(tweakProviders: providers)
    }
}

/// A `feature.variable` argument.
struct TweakAddress: ExpressibleByArgument {
    let id: TweakID

    init?(argument: String) {
        guard let id = TweakID(parsing: argument) else { return nil }
        self.id = id
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

extension TweakValue.Kind: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(name: argument)
    }

    public static var allValueStrings: [String] {
        allCases.filter(\.isScalar).map { $0.rawValue.lowercased() }
    }
}
