import Joinery
import Testing

// Issue 57: every way of making an instance combines with isolation, sync or async, and runtime
// arguments of any number, spelled as its siblings are.

@MainActor
private final class DetailViewModel {
  let id: Int
  let source: String
  let service: ServiceC
  init(id: Int, source: String, service: ServiceC) {
    self.id = id
    self.source = source
    self.service = service
  }
}

private protocol Transfer: Sendable {
  var url: String { get }
}

private final class Download: Transfer {
  let url: String
  let retries: Int
  init(url: String, retries: Int) {
    self.url = url
    self.retries = retries
  }
}

private struct Tile: Sendable, Equatable {
  let x: Int, y: Int, zoom: Int, label: String
}

private func composedContainer() throws -> Container {
  try ContainerBuilder(
    Bindings { registrar in
      registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
      registrar.bindMainActor(DetailViewModel.self) { (resolver, id: Int, source: String) in
        DetailViewModel(id: id, source: source, service: try resolver.resolve())
      }
      registrar.bind(Download.self) { (_, url: String, retries: Int) in
        Download(url: url, retries: retries)
      }
      registrar.bind(
        (any Transfer).self, forwardingTo: Download.self, arguments: String.self, Int.self)
      registrar.bindAsync(Tile.self) { (_, x: Int, y: Int, zoom: Int, label: String) in
        await Task.yield()
        return Tile(x: x, y: y, zoom: zoom, label: label)
      }
    }
  ).build()
}

@Suite("Composed forms: isolation, sync or async, and runtime arguments")
struct ComposedFormsTests {
  @Test("A main-actor binding with runtime arguments resolves synchronously from main-actor code")
  @MainActor
  func mainActorArgumentsOnMain() throws {
    let container = try composedContainer()
    let model = try container.resolve(DetailViewModel.self, arguments: 7, "feed")
    #expect(model.id == 7)
    #expect(model.source == "feed")
    #expect(model.service === (try container.resolve(ServiceC.self)))
    // A new instance per resolve, as every binding with arguments.
    let other = try container.resolve(DetailViewModel.self, arguments: 7, "feed")
    #expect(other !== model)
  }

  @Test("From any task, resolveAsync hops to the main actor to make it")
  func mainActorArgumentsAwaited() async throws {
    let container = try composedContainer()
    let model = try await container.resolveAsync(DetailViewModel.self, arguments: 8, "push")
    let (id, source) = await MainActor.run { (model.id, model.source) }
    #expect(id == 8)
    #expect(source == "push")
  }

  @Test("A synchronous resolve on another thread throws mainActorRequired instead of trapping")
  func mainActorArgumentsOffMainThrows() async throws {
    let container = try composedContainer()
    let code = await Stress.onThread { () -> ResolutionError.Code? in
      do throws(ResolutionError) {
        _ = try container.resolve(DetailViewModel.self, arguments: 1, "background")
        return nil
      } catch {
        return error.code
      }
    }
    #expect(code == .mainActorRequired)
  }

  @Test("Wrong argument types for a main-actor binding are an argument mismatch")
  @MainActor
  func mainActorArgumentMismatch() throws {
    let container = try composedContainer()
    let error = #expect(throws: ResolutionError.self) {
      _ = try container.resolve(DetailViewModel.self, arguments: "7", "feed")
    }
    #expect(error?.code == .argumentMismatch)
  }

  @Test("A forward to a binding with runtime arguments resolves with those arguments")
  func forwardWithArguments() throws {
    let container = try composedContainer()
    let transfer = try container.resolve((any Transfer).self, arguments: "https://a", 3)
    let download = try #require(transfer as? Download)
    #expect(download.url == "https://a")
    #expect(download.retries == 3)
    let error = #expect(throws: ResolutionError.self) {
      _ = try container.resolve((any Transfer).self, arguments: "https://a")
    }
    #expect(error?.code == .argumentMismatch)
  }

  @Test("A forward with runtime arguments names its target, as every forward does")
  func forwardWithArgumentsDescribed() throws {
    let container = try composedContainer()
    let forward = try #require(container.bindings.first { $0.key.type == (any Transfer).self })
    #expect(
      forward.forwardedTo == BindingKey(Download.self, argumentTypes: (String, Int).self))
    #expect("\(forward)".contains("→ Download"))
  }

  @Test(
    "A closure taking runtime arguments is one form with the closure taking none: same verb, same options"
  )
  func oneClosureForm() async throws {
    let builder = ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Download.self, tag: "none", lifetime: .persistent) { _ in
          Download(url: "fixed", retries: 0)
        }
        registrar.bind(Download.self, tag: "two", metadata: "args") {
          (_, url: String, retries: Int) in Download(url: url, retries: retries)
        }
        registrar.contribute((any Transfer).self) { _ in Download(url: "plain", retries: 0) }
        registrar.contribute((any Transfer).self) { (_, url: String) in
          Download(url: url, retries: 1)
        }
        registrar.bindAsync(Tile.self, lifetime: .persistent) { _ in
          Tile(x: 0, y: 0, zoom: 0, label: "root")
        }
      })
    let container = try builder.build()
    let fixed = try container.resolve(Download.self, tag: "none")
    #expect(fixed === (try container.resolve(Download.self, tag: "none")))
    let made = try container.resolve(Download.self, tag: "two", arguments: "u", 2)
    #expect(made.url == "u" && made.retries == 2)
    let info = try #require(
      container.bindings.first {
        $0.key == BindingKey(Download.self, tag: "two", argumentTypes: (String, Int).self)
      })
    #expect(info.metadata as? String == "args")
    #expect(info.lifetime == .ephemeral)
    #expect(try container.resolveAll((any Transfer).self).map(\.url) == ["plain"])
    #expect(try container.resolveAll((any Transfer).self, arguments: "x").map(\.url) == ["x"])
    #expect(try await container.resolveAsync(Tile.self).label == "root")
  }

  @Test(
    "A lifetime that keeps or shares instances, or dispose:, on a binding with runtime arguments fails the build"
  )
  func argumentsAreEphemeral() throws {
    let builder = ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Download.self, lifetime: .persistent) { (_, url: String) in
          Download(url: url, retries: 0)
        }
        registrar.contribute((any Transfer).self, lifetime: .cached) { (_, url: String) in
          Download(url: url, retries: 0)
        }
        registrar.bindMainActor(DetailViewModel.self, lifetime: .graph) {
          (resolver, id: Int, source: String) in
          DetailViewModel(id: id, source: source, service: try resolver.resolve())
        }
        registrar.bindAsync(Tile.self, lifetime: .transient) { (_, x: Int) in
          Tile(x: x, y: 0, zoom: 0, label: "")
        }
        registrar.bind(ServiceC.self, dispose: { _ in }) { (_, _: Int) in
          ServiceC(LifetimeTracker())
        }
      })
    let error = try #require(throws: BuildError.self) { try builder.build() }
    let findings = error.diagnostics.filter { $0.code == .unsupportedLifetime }
    #expect(findings.count == 5, "\(error.diagnostics)")
    let keptOrShared = findings.filter { $0.message.contains("takes runtime arguments") }
    #expect(keptOrShared.count == 4)
    #expect(keptOrShared.allSatisfy { $0.fixes.contains { $0.contains("Drop lifetime:") } })
    #expect(findings.contains { $0.message.contains("declares dispose:, but it is ephemeral") })
  }

  @Test("build() checks a forward's target with the forward's argument types")
  func forwardWithArgumentsChecked() throws {
    let builder = ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Download.self) { (_, url: String) in Download(url: url, retries: 0) }
        registrar.bind(
          (any Transfer).self, forwardingTo: Download.self, arguments: String.self, Int.self)
      })
    let error = #expect(throws: BuildError.self) { try builder.build() }
    let finding = try #require(error?.diagnostics.first)
    #expect(finding.code == .missingDependency)
    #expect("\(finding)".contains("Download"))
  }

  @Test("A forward whose target makes another type throws forwardingTypeMismatch")
  func forwardWithArgumentsMismatch() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self) { (_, _: Int) in ServiceC(LifetimeTracker()) }
        registrar.bind((any Transfer).self, forwardingTo: ServiceC.self, arguments: Int.self)
      }
    ).build()
    let error = #expect(throws: ResolutionError.self) {
      _ = try container.resolve((any Transfer).self, arguments: 1)
    }
    #expect(error?.code == .forwardingTypeMismatch)
  }

  @Test("bindAsync takes any number of runtime arguments, as bind does")
  func asyncWithFourArguments() async throws {
    let container = try composedContainer()
    let tile = try await container.resolveAsync(Tile.self, arguments: 3, 5, 12, "base")
    #expect(tile == Tile(x: 3, y: 5, zoom: 12, label: "base"))
    // Many at once, each with its own arguments.
    let tiles = try await withThrowingTaskGroup(of: Tile.self) { group in
      for index in 0..<64 {
        group.addTask {
          try await container.resolveAsync(Tile.self, arguments: index, 0, 1, "t\(index)")
        }
      }
      return try await group.reduce(into: [Tile]()) { $0.append($1) }
    }
    #expect(Set(tiles.map(\.x)) == Set(0..<64))
    #expect(tiles.allSatisfy { $0.label == "t\($0.x)" })
  }

  @Test("resolveAsync with arguments also serves a synchronous binding with arguments")
  func asyncResolveOfSynchronousArguments() async throws {
    let container = try composedContainer()
    let download = try await container.resolveAsync(Download.self, arguments: "u", 2)
    #expect(download.url == "u")
    #expect(download.retries == 2)
  }
}

// MARK: Assisted injection

private final class Feed: Sendable {}

private final class DetailModel: Sendable {
  let id: Int
  let source: String
  let feed: Feed
  init(id: Int, source: String, feed: Feed) {
    self.id = id
    self.source = source
    self.feed = feed
  }
}

/// Makes a detail model per item it is asked for, later.
private final class FeedScreen: Sendable {
  let makeDetail: Provider<DetailModel>
  init(makeDetail: Provider<DetailModel>) { self.makeDetail = makeDetail }
  func open(_ id: Int) throws -> DetailModel { try makeDetail.get(arguments: id, "screen") }
}

@Suite("Assisted injection: runtime arguments first, resolved dependencies after")
struct AssistedInjectionTests {
  private func container() throws -> Container {
    try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Feed.self, lifetime: .persistent, to: Feed.init)
        registrar.bind(
          DetailModel.self, arguments: Int.self, String.self,
          to: DetailModel.init(id:source:feed:))
        registrar.bind(
          FeedScreen.self, to: FeedScreen.init(makeDetail:),
          dependencies: .withArguments(Int.self, String.self))
      }
    ).build()
  }

  @Test("The leading parameters are the request's arguments; the rest are resolved")
  func resolvesWithArguments() throws {
    let container = try container()
    let model = try container.resolve(DetailModel.self, arguments: 7, "push")
    #expect(model.id == 7)
    #expect(model.source == "push")
    #expect(model.feed === (try container.resolve(Feed.self)))
    #expect(try container.resolve(DetailModel.self, arguments: 7, "push") !== model)
  }

  @Test("A consumer makes them later through a Provider with the arguments")
  func providerWithArguments() throws {
    // A Provider holds its container weakly: the test keeps it, as an app does.
    let container = try container()
    let screen = try container.resolve(FeedScreen.self)
    let detail = try screen.open(42)
    #expect(detail.id == 42)
    #expect(detail.source == "screen")
  }

  @Test("build() checks the resolved parameters of an assisted initializer")
  func missingResolvedParameter() throws {
    let builder = ContainerBuilder(
      Bindings { registrar in
        registrar.bind(
          DetailModel.self, arguments: Int.self, String.self,
          to: DetailModel.init(id:source:feed:))
      })
    let error = #expect(throws: BuildError.self) { try builder.build() }
    let finding = try #require(error?.diagnostics.first)
    #expect(finding.code == .missingDependency)
    #expect("\(finding)".contains("Feed"))
  }

  @Test("Declared arguments that are not the initializer's leading parameters fail the build")
  func argumentsMustLead() throws {
    let builder = ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Feed.self, to: Feed.init)
        registrar.bind(
          DetailModel.self, arguments: String.self, to: DetailModel.init(id:source:feed:))
      })
    let error = #expect(throws: BuildError.self) { try builder.build() }
    let finding = try #require(error?.diagnostics.first)
    #expect(finding.code == .invalidSetting)
    #expect(finding.message.contains("(String)"))
    #expect(finding.message.contains("(Int)"))
  }

  @Test("contribute takes an assisted initializer too: resolveAll passes each the arguments")
  func assistedContribution() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Feed.self, lifetime: .persistent, to: Feed.init)
        registrar.contribute(
          DetailModel.self, arguments: Int.self, String.self,
          to: DetailModel.init(id:source:feed:))
        registrar.contribute(DetailModel.self) { (resolver, id: Int, source: String) in
          DetailModel(id: id + 1, source: source, feed: try resolver.resolve())
        }
      }
    ).build()
    let models = try container.resolveAll(DetailModel.self, arguments: 7, "all")
    #expect(models.map(\.id) == [7, 8])
    #expect(models.allSatisfy { $0.source == "all" })
    #expect(try container.resolveAll(DetailModel.self).isEmpty)
  }

  @Test(
    "bindMainActor takes an assisted initializer: main-actor code resolves it, other threads get mainActorRequired"
  )
  func assistedMainActor() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
        registrar.bindMainActor(
          DetailViewModel.self, arguments: Int.self, String.self,
          to: DetailViewModel.init(id:source:service:))
      }
    ).build()
    let (id, source) = try await MainActor.run {
      let model = try container.resolve(DetailViewModel.self, arguments: 3, "main")
      return (model.id, model.source)
    }
    #expect(id == 3 && source == "main")
    let awaited = try await container.resolveAsync(DetailViewModel.self, arguments: 4, "hop")
    #expect(await MainActor.run { awaited.id } == 4)
    let error = await Task.detached {
      #expect(throws: ResolutionError.self) {
        _ = try container.resolve(DetailViewModel.self, arguments: 5, "off")
      }
    }.value
    #expect(error?.code == .mainActorRequired)
  }

  @Test(
    "bindAsync takes an assisted initializer: the leading parameters are arguments, the rest awaited"
  )
  func assistedAsync() async throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Feed.self, lifetime: .persistent) { _ in
          await Task.yield()
          return Feed()
        }
        registrar.bindAsync(
          DetailModel.self, arguments: Int.self, String.self,
          to: DetailModel.init(id:source:feed:))
      }
    ).build()
    let model = try await container.resolveAsync(DetailModel.self, arguments: 9, "async")
    #expect(model.id == 9 && model.source == "async")
    #expect(model.feed === (try await container.resolveAsync(Feed.self)))
    let error = await #expect(throws: ResolutionError.self) {
      _ = try await container.resolveAsync(DetailModel.self, arguments: 9)
    }
    #expect(error?.code == .argumentMismatch)
    let mismatch = ContainerBuilder(
      Bindings { registrar in
        registrar.bindAsync(Feed.self) { _ in Feed() }
        registrar.bindAsync(
          DetailModel.self, arguments: String.self, to: DetailModel.init(id:source:feed:))
      })
    let refused = #expect(throws: BuildError.self) { try mismatch.build() }
    #expect(refused?.diagnostics.first?.code == .invalidSetting)
  }

  @Test("An assisted initializer with a keeping lifetime fails the build, on every verb")
  func assistedIsEphemeral() throws {
    let builder = ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Feed.self, to: Feed.init)
        registrar.bind(
          DetailModel.self, lifetime: .persistent, arguments: Int.self, String.self,
          to: DetailModel.init(id:source:feed:))
        registrar.contribute(
          DetailModel.self, lifetime: .cached, arguments: Int.self, String.self,
          to: DetailModel.init(id:source:feed:))
      })
    let error = try #require(throws: BuildError.self) { try builder.build() }
    let findings = error.diagnostics.filter { $0.code == .unsupportedLifetime }
    #expect(findings.count == 2, "\(error.diagnostics)")
    #expect(findings.allSatisfy { $0.message.contains("takes runtime arguments") })
  }

  @Test("build() checks a Provider's declared argument types against the binding's")
  func providerArgumentsChecked() throws {
    let builder = ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Feed.self, to: Feed.init)
        registrar.bind(
          DetailModel.self, arguments: Int.self, String.self,
          to: DetailModel.init(id:source:feed:))
        registrar.bind(
          FeedScreen.self, to: FeedScreen.init(makeDetail:),
          dependencies: .withArguments(Int.self))
      })
    let error = #expect(throws: BuildError.self) { try builder.build() }
    let finding = try #require(error?.diagnostics.first)
    #expect(finding.code == .missingDependency)
    #expect("\(finding)".contains("DetailModel"))
  }
}

// MARK: Multi-bindings with runtime arguments

private protocol Exporter: Sendable {
  var name: String { get }
}

private struct CSVExporter: Exporter {
  let name: String
}

@Suite("Contributions that take runtime arguments")
struct ContributionArgumentsTests {
  private func container() throws -> Container {
    try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Feed.self, lifetime: .persistent, to: Feed.init)
        registrar.contribute((any Exporter).self) { (_, report: String) in
          CSVExporter(name: "csv:\(report)")
        }
        registrar.contribute((any Exporter).self, dependsOn: [BindingKey(Feed.self)]) {
          (resolver, report: String) in
          _ = try resolver.resolve(Feed.self)
          return CSVExporter(name: "pdf:\(report)")
        }
        registrar.contribute((any Exporter).self) { (_, report: String, pages: Int) in
          CSVExporter(name: "paged:\(report):\(pages)")
        }
        registrar.contribute((any Exporter).self) { _ in CSVExporter(name: "plain") }
      }
    ).build()
  }

  @Test("resolveAll with arguments makes every contribution taking those argument types")
  func resolveAllWithArguments() throws {
    let container = try container()
    let exporters = try container.resolveAll((any Exporter).self, arguments: "q3")
    #expect(exporters.map(\.name) == ["csv:q3", "pdf:q3"])
    let paged = try container.resolveAll((any Exporter).self, arguments: "q4", 12)
    #expect(paged.map(\.name) == ["paged:q4:12"])
  }

  @Test("resolveAll without arguments makes only the contributions that take none")
  func plainResolveAllIgnoresArgumentContributions() throws {
    let exporters = try container().resolveAll((any Exporter).self)
    #expect(exporters.map(\.name) == ["plain"])
  }

  @Test("A contribution's declared dependencies are checked by build()")
  func contributionDependenciesChecked() throws {
    let builder = ContainerBuilder(
      Bindings { registrar in
        registrar.contribute((any Exporter).self, dependsOn: [BindingKey(Feed.self)]) {
          (_, report: String) in CSVExporter(name: report)
        }
      })
    let error = #expect(throws: BuildError.self) { try builder.build() }
    #expect(error?.diagnostics.first?.code == .missingDependency)
  }
}
