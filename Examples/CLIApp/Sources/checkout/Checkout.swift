import ArgumentParser
import Foundation
import TweakKit

/// `checkout`: quotes a basket with prices and rules read from tweaks, through the typed accessor
/// `CheckoutTweaks` that TweakAccessorPlugin generates from Tweaks.json at build time.
///
/// ```
/// $ swift run checkout quote 20 15.5 --set pricing.discount_percent=10
/// $ TWEAK_checkout__currency=USD swift run checkout tweaks
/// ```
@main
struct Checkout: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Quote a basket, with prices and rules read from tweaks.",
        version: "1.0.0",
        subcommands: [Quote.self, Tweaks.self],
        defaultSubcommand: Quote.self
    )
}

/// The tweak stack every subcommand reads: `--set` values, then the environment
/// (`TWEAK_<feature>__<variable>`), then an overrides file, then the bundled Tweaks.json.
struct TweakOptions: ParsableArguments {
    @Option(name: .customLong("set"), help: ArgumentHelp("Overrides a tweak for this run.", valueName: "feature.variable=value"))
    var assignments: [String] = []

    @Option(help: ArgumentHelp("An overrides file (written by `tweak set`).", valueName: "file"), completion: .file(extensions: ["json"]))
    var overrides: URL?

    func validate() throws {
        for assignment in assignments where TweakOptions.parse(assignment) == nil {
            throw ValidationError("--set \(assignment): expected feature.variable=value")
        }
    }

    /// The manager over the stack, highest priority first.
    func manager() throws -> TweakManager {
        guard let defaultsURL = Bundle.module.url(forResource: "Tweaks", withExtension: "json") else {
            throw CheckoutError("Tweaks.json is not bundled")
        }
        let tweaks = assignments.compactMap(TweakOptions.parse).map { id, value in
            Tweak(feature: id.feature, variable: id.variable, content: value)
        }
        var providers: [any TweakProvider] = [
            EphemeralTweakProvider(name: "--set", tweaks: tweaks),
            EnvironmentTweakProvider(arguments: []),
        ]
        if let overrides { providers.append(try PersistentTweakProvider(fileURL: overrides)) }
        providers.append(try LocalTweakProvider(fileURL: defaultsURL))
        return TweakManager(tweakProviders: providers)
    }

    /// `feature.variable=value`, the value read as JSON when it is JSON, else as a String.
    static func parse(_ assignment: String) -> (TweakID, TweakContent)? {
        guard let equals = assignment.firstIndex(of: "="),
              let id = TweakID(parsing: String(assignment[..<equals]))
        else { return nil }
        return (id, EnvironmentTweakProvider.parseValue(String(assignment[assignment.index(after: equals)...])))
    }
}

/// A failure said in one sentence; the parser prints it and the tool exits with status 1.
struct CheckoutError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `checkout quote PRICE…`: the subtotal, the discount, shipping and the total.
struct Quote: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Quote a basket of items, one price each.")

    @Argument(help: "The price of each item.")
    var prices: [Double]

    @OptionGroup var tweakOptions: TweakOptions

    func run() throws {
        let tweaks = CheckoutTweaks(tweakManager: try tweakOptions.manager())
        guard tweaks.checkoutEnabled else {
            throw CheckoutError("checkout is turned off (tweak \(CheckoutTweaks.Features.checkout).\(CheckoutTweaks.Variables.checkoutEnabled))")
        }
        guard !prices.isEmpty else { throw CheckoutError("give at least one price") }
        guard prices.count <= tweaks.maxItems else {
            throw CheckoutError("\(prices.count) items, more than the \(tweaks.maxItems) a quote may hold (tweak checkout.max_items)")
        }
        let subtotal = prices.reduce(0, +)
        let discount = subtotal * min(max(tweaks.discountPercent, 0), 100) / 100
        let shipping = subtotal - discount >= tweaks.freeShippingThreshold ? 0 : tweaks.shippingFee
        let currency = tweaks.currency
        func money(_ amount: Double) -> String { "\(currency) \(String(format: "%.2f", amount))" }
        print(tweaks.greeting)
        print("items:    \(prices.count)")
        print("subtotal: \(money(subtotal))")
        print("discount: \(money(discount))")
        print("shipping: \(money(shipping))")
        print("total:    \(money(subtotal - discount + shipping))")
    }
}

/// `checkout tweaks`: each tweak the tool reads, its value and the provider it came from.
struct Tweaks: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the tweaks the tool reads, with their sources.")

    @OptionGroup var tweakOptions: TweakOptions

    func run() throws {
        let manager = try tweakOptions.manager()
        func show<Value>(_ key: TweakKey<Value>) {
            let details = manager.details(for: key)
            print("\(key.id) = \(details.value) (\(details.source ?? "default"))")
        }
        show(CheckoutTweaks.Keys.checkoutEnabled)
        show(CheckoutTweaks.Keys.maxItems)
        show(CheckoutTweaks.Keys.currency)
        show(CheckoutTweaks.Keys.discountPercent)
        show(CheckoutTweaks.Keys.shippingFee)
        show(CheckoutTweaks.Keys.freeShippingThreshold)
        show(CheckoutTweaks.Keys.greeting)
    }
}

extension URL: @retroactive ExpressibleByArgument {
    /// A file path, relative to the working directory or absolute.
    public init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        self.init(fileURLWithPath: argument)
    }
}
