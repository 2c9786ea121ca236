import Joinery
import Testing

private protocol Plugin: Sendable { var name: String { get } }
private struct NamedPlugin: Plugin { let name: String }
private struct PluginInfo: Sendable {
  let name: String
  let isEnabled: Bool
}
private final class Host: Sendable {
  let plugins: [any Plugin]
  init(plugins: [any Plugin]) { self.plugins = plugins }
}

private struct CoreAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.contribute(
      (any Plugin).self, metadata: PluginInfo(name: "spell", isEnabled: true)
    ) { _ in NamedPlugin(name: "spell") }
    registrar.contribute(
      (any Plugin).self, metadata: PluginInfo(name: "count", isEnabled: false)
    ) { _ in NamedPlugin(name: "count") }
  }
}

private struct ExtraAssembly: Assembly {
  func register(in registrar: inout Registrar) {
    registrar.contribute((any Plugin).self) { _ in NamedPlugin(name: "extra") }
    registrar.contribute((any Plugin).self, tag: "export") { _ in NamedPlugin(name: "pdf") }
    registrar.bind(Host.self) { resolver in Host(plugins: try resolver.resolveAll()) }
    registrar.bind(String.self, tag: "greeting", metadata: PluginInfo(name: "hi", isEnabled: true))
    {
      _ in "hello"
    }
  }
}

@Suite("Multi-bindings and metadata")
struct CollectionsTests {
  @Test("Contributions resolve in assembly order, then registration order, and are not duplicates")
  func order() throws {
    let container = try ContainerBuilder(CoreAssembly(), ExtraAssembly()).buildOrRecord()
    #expect(try container.resolveAll((any Plugin).self).map(\.name) == ["spell", "count", "extra"])
    #expect(try container.resolveAll((any Plugin).self, tag: "export").map(\.name) == ["pdf"])
    #expect(try container.resolve(Host.self).plugins.map(\.name) == ["spell", "count", "extra"])
    let reversed = try ContainerBuilder(ExtraAssembly(), CoreAssembly()).buildOrRecord()
    #expect(try reversed.resolveAll((any Plugin).self).map(\.name) == ["extra", "spell", "count"])
    #expect(try container.resolveAll(Int.self).isEmpty)
  }

  @Test("An overriding contribution replaces the others of its type and tag, and only those")
  func overridingContributions() throws {
    let flagged = try ContainerBuilder(CoreAssembly(), ExtraAssembly())
      .adding { registrar in
        registrar.contribute((any Plugin).self, override: true) { NamedPlugin(name: "fake") }
      }
      .build()
    #expect(try flagged.resolveAll((any Plugin).self).map(\.name) == ["fake"])
    #expect(try flagged.resolveAll((any Plugin).self, tag: "export").map(\.name) == ["pdf"])
    #expect(try flagged.resolve(Host.self).plugins.map(\.name) == ["fake"])

    // A test register added with overriding(…) overrides without saying so at each line.
    let testing = try ContainerBuilder(CoreAssembly(), ExtraAssembly())
      .overriding { registrar in
        registrar.contribute((any Plugin).self) { NamedPlugin(name: "first fake") }
        registrar.contribute((any Plugin).self) { NamedPlugin(name: "second fake") }
      }
      .build()
    #expect(
      try testing.resolveAll((any Plugin).self).map(\.name) == ["first fake", "second fake"])
    #expect(
      try testing.resolveAll((any Plugin).self) { $0.registerType == CoreAssembly.self }.isEmpty)
  }

  @Test(
    "resolveAll(where:) chooses contributions by metadata, tag or register and makes only those")
  func filtering() throws {
    let made = Journal()
    let container = try ContainerBuilder(CoreAssembly(), ExtraAssembly())
      .adding { registrar in
        registrar.contribute(
          (any Plugin).self, metadata: PluginInfo(name: "audit", isEnabled: false)
        ) { _ in
          made.note("audit")
          return NamedPlugin(name: "audit")
        }
      }
      .buildOrRecord()
    let enabled = try container.resolveAll((any Plugin).self) {
      ($0.metadata as? PluginInfo)?.isEnabled == true
    }
    #expect(enabled.map(\.name) == ["spell"])
    #expect(made.all.isEmpty, "a declined contribution was made")
    #expect(
      try container.resolveAll((any Plugin).self) { $0.registerType == ExtraAssembly.self }
        .map(\.name) == ["extra"])
    #expect(
      try container.resolveAll((any Plugin).self, tag: "export") { $0.metadata == nil }
        .map(\.name) == ["pdf"])
    #expect(try container.resolveAll((any Plugin).self) { _ in false }.isEmpty)
    // An ordinary binding's metadata is read from the bindings; its key's tag resolves it.
    let greeting = try #require(
      container.bindings.first { ($0.metadata as? PluginInfo)?.name == "hi" })
    #expect(try container.resolve(String.self, tag: greeting.key.tag) == "hello")
  }

  @Test("A contribution's declared dependencies are checked at build")
  func contributionsValidated() throws {
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.contribute((any Plugin).self, dependsOn: [BindingKey(Int.self)]) { _ in
            NamedPlugin(name: "needs an Int")
          }
        }
      ).build()
    }
    #expect(error.diagnostics.map(\.code) == [.missingDependency])
  }

  @Test("verify() creates contributions too")
  func verifyContributions() throws {
    let container = try ContainerBuilder(CoreAssembly(), ExtraAssembly()).buildOrRecord()
    let report = try container.verify()
    #expect(report.verified.filter { $0.type == (any Plugin).self }.count == 4)
  }
}

private final class Session: Sendable {}
private protocol Step: Sendable { var session: Session { get } }
private final class LoadStep: Step {
  let session: Session
  init(session: Session) { self.session = session }
}
private final class SaveStep: Step {
  let session: Session
  init(session: Session) { self.session = session }
}
private struct BrokenStep: Error {}

@Suite("resolveAll is one resolution")
struct ResolveAllResolutionTests {
  static func container(failing: Bool = false) throws -> Container {
    try ContainerBuilder().adding { registrar in
      registrar.bind(Session.self, lifetime: .graph, to: Session.init)
      registrar.contribute((any Step).self, to: LoadStep.init(session:))
      registrar.contributeAsync((any Step).self, to: SaveStep.init(session:))
      registrar.contribute((any Step).self) { resolver in
        if failing { throw BrokenStep() }
        return SaveStep(session: try resolver.resolve())
      }
    }.build()
  }

  @Test("The contributions of one resolveAll share its graph instances; the next call is another")
  func sync() throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Session.self, lifetime: .graph, to: Session.init)
      registrar.contribute((any Step).self, to: LoadStep.init(session:))
      registrar.contribute((any Step).self, to: SaveStep.init(session:))
    }.build()
    let steps = try container.resolveAll((any Step).self)
    #expect(steps.count == 2)
    #expect(steps[0].session === steps[1].session)
    #expect(try container.resolveAll((any Step).self)[0].session !== steps[0].session)
    // In a scope too.
    let scoped = try container.makeScope().resolveAll((any Step).self)
    #expect(scoped[0].session === scoped[1].session)
  }

  @Test("The same for resolveAllAsync, synchronous and async contributions alike")
  func async() async throws {
    let container = try Self.container()
    let steps = try await container.resolveAllAsync((any Step).self)
    #expect(steps.count == 3)
    #expect(steps.allSatisfy { $0.session === steps[0].session })
    let next = try await container.resolveAllAsync((any Step).self)
    #expect(next[0].session !== steps[0].session)
  }

  @Test("A failing contribution's error names its own path, nothing above it")
  func errorPath() async throws {
    let container = try Self.container(failing: true)
    let asyncError = await #expect(throws: ResolutionError.self) {
      try await container.resolveAllAsync((any Step).self)
    }
    #expect(asyncError?.code == .factoryFailed)
    #expect(asyncError?.path.map(\.requested) == [BindingKey((any Step).self)])
    #expect(asyncError?.underlyingError is BrokenStep)
    // Synchronously, the async contribution is refused first, with its own key only.
    let error = #expect(throws: ResolutionError.self) {
      try container.resolveAll((any Step).self)
    }
    #expect(error?.code == .asyncBinding)
    #expect(error?.path.map(\.requested) == [BindingKey((any Step).self)])
  }

  @Test("An autowired [T] of contributions is refused at build and resolve, naming resolveAll")
  func autowiredCollectionFix() throws {
    final class Autowired: Sendable {
      init(plugins: [any Plugin]) {}
    }
    let build = #expect(throws: BuildError.self) {
      try ContainerBuilder(CoreAssembly()).adding { registrar in
        registrar.bind(Autowired.self, to: Autowired.init(plugins:))
      }.build()
    }
    #expect(
      build?.diagnostics.first(where: \.isError)?.fixes == [
        "Plugin has 2 contributions, and autowiring fills a parameter from one binding, not "
          + "from contributions: bind Autowired with a closure that gathers them: "
          + "try resolver.resolveAll(Plugin.self).",
        "Or bind Array<Plugin> in the assembly that owns it.",
      ])

    let container = try ContainerBuilder(CoreAssembly(), ExtraAssembly()).build()
    let resolve = #expect(throws: ResolutionError.self) {
      try container.resolve([any Plugin].self, tag: "export")
    }
    #expect(resolve?.code == .missingBinding)
    #expect(resolve?.nearMisses.isEmpty == true, "a contribution is no near miss: no key gets it")
    #expect(
      resolve?.debugDescription.contains(
        "To fix:\n  - Plugin has 1 contribution under tag \"export\": request them with "
          + "resolveAll(Plugin.self, tag: \"export\").\n  - Or bind Array<Plugin>") == true,
      "\(String(reflecting: resolve))")
    // No contributions of the element: the ordinary fix alone.
    let other = #expect(throws: ResolutionError.self) { try container.resolve([Int].self) }
    #expect(other?.debugDescription.contains("resolveAll") == false)
  }

  @Test("A single T of a type that only has contributions: the fix names resolveAll too")
  func singleOfContributedType() throws {
    final class Autowired: Sendable {
      init(plugin: any Plugin) {}
    }
    let build = #expect(throws: BuildError.self) {
      try ContainerBuilder(CoreAssembly()).adding { registrar in
        registrar.bind(Autowired.self, to: Autowired.init(plugin:))
      }.build()
    }
    #expect(
      build?.diagnostics.first(where: \.isError)?.fixes == [
        "Bind Plugin in the assembly that owns it.",
        "Or, if you meant Plugin's 2 contributions, bind Autowired with a closure that gathers "
          + "them: try resolver.resolveAll(Plugin.self).",
      ])
    let container = try ContainerBuilder(CoreAssembly(), ExtraAssembly()).build()
    let resolve = #expect(throws: ResolutionError.self) {
      try container.resolve((any Plugin).self, tag: "import", matching: .exact)
    }
    #expect(
      resolve?.debugDescription.contains(
        "Or, if you meant Plugin's contributions under other tags, request them with "
          + "resolveAll(Plugin.self) or resolveAll(Plugin.self, tag: \"export\").") == true,
      "\(String(reflecting: resolve))")
  }
}
