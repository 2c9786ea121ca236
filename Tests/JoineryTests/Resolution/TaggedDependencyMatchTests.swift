import Joinery
import Testing

// A `Dependency`'s tag is matched by its box first (one box per tag value in a build), then by
// value: these are the cases where the boxes differ or no tagged binding exists.
private enum Region: Hashable, Sendable { case eu, us }
private final class Endpoint: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}
private final class Uploader: Sendable {
  let endpoint: Endpoint
  init(endpoint: Endpoint) { self.endpoint = endpoint }
}

@Suite("A tagged dependency finds its binding whichever build boxed the tag")
struct TaggedDependencyMatchTests {
  @Test("A child's binding depends on a tag bound in its parent's build")
  func tagBoundInParent() throws {
    let parent = try ContainerBuilder().adding { registrar in
      registrar.bind(Endpoint.self, tag: Region.eu, lifetime: .persistent) { Endpoint("eu") }
      registrar.bind(Endpoint.self, tag: "primary", lifetime: .persistent) {
        Endpoint("primary")
      }
    }.build()
    let child = try parent.makeChild { registrar in
      registrar.bind(Uploader.self, to: Uploader.init, dependencies: .tagged(Region.eu))
      registrar.bind(
        Uploader.self, tag: "primary", to: Uploader.init, dependencies: .tagged("primary"))
    }
    for _ in 0..<3 {
      let uploader = try child.resolve(Uploader.self)
      #expect(uploader.endpoint.name == "eu")
      #expect(uploader.endpoint === (try parent.resolve(Endpoint.self, tag: Region.eu)))
      #expect(try child.resolve(Uploader.self, tag: "primary").endpoint.name == "primary")
    }
  }

  @Test("The nearest container with exactly the tag serves it")
  func childOverridesTag() throws {
    let parent = try ContainerBuilder().adding { registrar in
      registrar.bind(Endpoint.self, tag: Region.us, lifetime: .persistent) { Endpoint("parent") }
    }.build()
    let child = try parent.makeChild { registrar in
      registrar.bind(Endpoint.self, tag: Region.us, lifetime: .persistent) { Endpoint("child") }
      registrar.bind(Uploader.self, to: Uploader.init, dependencies: .tagged(Region.us))
    }
    #expect(try child.resolve(Uploader.self).endpoint.name == "child")
  }

  @Test("With no tagged binding, the untagged one serves, with its identity")
  func fallbackKeepsIdentity() throws {
    let container = try ContainerBuilder().adding { registrar in
      registrar.bind(Endpoint.self, lifetime: .persistent) { Endpoint("default") }
      registrar.bind(Uploader.self, to: Uploader.init, dependencies: .tagged(Region.us))
    }.build()
    let untagged = try container.resolve(Endpoint.self)
    for _ in 0..<3 {
      #expect(try container.resolve(Uploader.self).endpoint === untagged)
    }
  }

  @Test("A type with many tags (looked up by hash) serves each tag's own instance")
  func manyTags() throws {
    let names = (0..<20).map { "shard-\($0)" }
    let container = try ContainerBuilder().adding { registrar in
      for name in names {
        registrar.bind(Endpoint.self, tag: name, lifetime: .persistent) { Endpoint(name) }
        registrar.bind(
          Uploader.self, tag: name, to: Uploader.init, dependencies: .tagged(name))
      }
    }.build()
    let child = try container.makeChild { registrar in
      registrar.bind(
        Uploader.self, tag: "child", to: Uploader.init, dependencies: .tagged("shard-7"))
    }
    for name in names {
      #expect(try container.resolve(Uploader.self, tag: name).endpoint.name == name)
    }
    #expect(try child.resolve(Uploader.self, tag: "child").endpoint.name == "shard-7")
  }
}
