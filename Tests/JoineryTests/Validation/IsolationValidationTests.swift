import Joinery
import Testing

@MainActor
private final class ViewModel {
  init() {}
}

private final class Presenter: @unchecked Sendable {
  let model: ViewModel
  init(model: ViewModel) { self.model = model }
}

@MainActor
private final class Screen {
  let model: ViewModel
  init(model: ViewModel) { self.model = model }
}

private final class Loader: Sendable {
  let provider: Provider<ViewModel>
  init(provider: Provider<ViewModel>) { self.provider = provider }
}

/// `build()` reports a binding whose dependency cannot be made where the binding is made.
@Suite("Isolation rules at build")
struct IsolationValidationTests {
  @Test("A nonisolated binding that depends on a main-actor one fails the build, with the fix")
  func nonisolatedOnMainActor() throws {
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bindMainActor(ViewModel.self, to: ViewModel.init)
          registrar.bind(Presenter.self, to: Presenter.init(model:))
        }
      ).build()
    }
    let finding = try #require(error?.diagnostics.first)
    #expect(finding.code == .mainActorDependency)
    #expect(finding.message.contains("Presenter"))
    #expect(finding.message.contains("ViewModel"))
    #expect(finding.fixes.contains { $0.contains("bindMainActor") })
    #expect(
      finding.bindings.allSatisfy { $0.location.fileID.hasSuffix("IsolationValidationTests.swift") }
    )
  }

  @Test("Main-actor bindings may depend on each other; a Provider defers the dependency")
  func allowedShapes() throws {
    _ = try ContainerBuilder(
      Bindings { registrar in
        registrar.bindMainActor(ViewModel.self, to: ViewModel.init)
        registrar.bindMainActor(Screen.self, to: Screen.init(model:))
        registrar.bind(Loader.self, to: Loader.init(provider:))
      }
    ).build()
  }

  @Test("A main-actor binding that depends on an async one fails the build")
  func mainActorOnAsync() throws {
    final class Token: Sendable {}
    @MainActor final class Panel {
      init(token: Token) {}
    }
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bindAsync(Token.self, lifetime: .persistent) { _ in Token() }
          registrar.bindMainActor(Panel.self, to: Panel.init(token:))
        }
      ).build()
    }
    #expect(error?.diagnostics.map(\.code) == [.asyncDependency])
  }
}
