import Joinery
import Testing

private protocol AppRouting: AnyObject, Sendable {
  var name: String { get }
}
private final class AppRouter: AppRouting {
  let name: String
  init(name: String) { self.name = name }
}
private final class Model: Sendable {}
private final class ViewController {
  var model: Model?
  var router: (any AppRouting)?
}

@Suite("Objects the container did not make: weak instances and block injection")
struct ExternalObjectsTests {
  @Test("A weakly bound instance is returned while its owner holds it, then a clear error")
  func weakInstance() throws {
    weak var released: AppRouter?
    let container: Container
    do {
      let owner = AppRouter(name: "main")
      released = owner
      container = try ContainerBuilder().adding { registrar in
        registrar.bind((any AppRouting).self, weakInstance: owner)
      }.build()
      #expect(try container.resolve((any AppRouting).self) === owner)
    }
    #expect(released == nil, "the container did not keep it")
    let error = #expect(throws: ResolutionError.self) {
      try container.resolve((any AppRouting).self)
    }
    #expect(error?.code == .factoryFailed)
    #expect(error?.description.contains("was released by its owner") == true)
  }

  @Test("inject(into:) fills an existing object in one resolution")
  func blockInjection() throws {
    let router = AppRouter(name: "main")
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Model.self, lifetime: .graph, to: Model.init)
      registrar.bind((any AppRouting).self, weakInstance: router)
    }.build()
    let controller = ViewController()
    var models: [Model] = []
    try container.inject(into: controller) { resolver, controller in
      controller.model = try resolver.resolve(Model.self)
      controller.router = try resolver.resolve((any AppRouting).self)
      models.append(try resolver.resolve(Model.self))
    }
    #expect(controller.router === router)
    // One resolution: the graph instance is shared across the block.
    #expect(controller.model === models.first)

    let error = #expect(throws: ResolutionError.self) {
      try container.inject(into: controller) { resolver, controller in
        controller.model = try resolver.resolve(Model.self)
        _ = try resolver.resolve(String.self)
      }
    }
    #expect(error?.code == .missingBinding)
  }
}
