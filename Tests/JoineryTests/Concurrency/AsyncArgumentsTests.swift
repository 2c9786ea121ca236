import Joinery
import Testing

private struct Thumbnail: Sendable, Equatable {
  let url: String
  let size: Int
  let renderer: String
}

@Suite("Async factories with runtime arguments (Guise's async resolution)")
struct AsyncArgumentsTests {
  private func container() throws -> Container {
    try ContainerBuilder().adding { registrar in
      registrar.bind(String.self, instance: "metal")
      registrar.bindAsync(Thumbnail.self, dependsOn: [BindingKey(String.self)]) {
        (resolver, url: String, size: Int) in
        try await Task.sleep(milliseconds: 1)
        return Thumbnail(url: url, size: size, renderer: try resolver.resolve(String.self))
      }
      registrar.bindAsync(Int.self) { (_, a: Int, b: Int, c: Int) in a + b + c }
    }.build()
  }

  @Test("One to three arguments, each resolve a new instance")
  func arguments() async throws {
    let container = try container()
    let thumbnail = try await container.resolveAsync(Thumbnail.self, arguments: "a.png", 64)
    #expect(thumbnail == Thumbnail(url: "a.png", size: 64, renderer: "metal"))
    #expect(try await container.resolveAsync(Int.self, arguments: 1, 2, 3) == 6)
  }

  @Test("Wrong argument types, and a synchronous resolve, are clear errors")
  func errors() async throws {
    let container = try container()
    let mismatch = await #expect(throws: ResolutionError.self) {
      try await container.resolveAsync(Thumbnail.self, arguments: 64, "a.png")
    }
    #expect(mismatch?.code == .argumentMismatch)
    let sync = #expect(throws: ResolutionError.self) {
      try container.resolve(Thumbnail.self, arguments: "a.png", 64)
    }
    #expect(sync?.code == .asyncBinding)
  }

  @Test("A child container resolves its parent's async argument binding")
  func child() async throws {
    let child = try container().makeChild { $0.bind(Double.self, instance: 1) }
    let sum = try await child.resolveAsync(Int.self, arguments: 1, 1, 1)
    #expect(sum == 3)
  }
}

@Suite("Async argument bindings under tags, as the synchronous forms take them")
struct AsyncTaggedArgumentsTests {
  private func container() throws -> Container {
    try ContainerBuilder()
      .adding { registrar in
        registrar.bindAsync(String.self, tag: "loud") { (_, name: String) in name.uppercased() }
        registrar.bindAsync(String.self) { (_, name: String) in name }
        registrar.bindAsync(Int.self) { (_, a: Int, b: Int) in a + b }
        registrar.bindAsync(Int.self, tag: "product") { (_, a: Int, b: Int) in a * b }
        registrar.bindAsync(Int.self, tag: "sum3") { (_, a: Int, b: Int, c: Int) in a + b + c }
        registrar.bind(Double.self, tag: "half") { (_, value: Double) in value / 2 }
      }
      .build()
  }

  @Test("One, two and three arguments under a tag; the untagged binding is separate")
  func tagged() async throws {
    let container = try container()
    #expect(try await container.resolveAsync(String.self, tag: "loud", arguments: "a") == "A")
    #expect(try await container.resolveAsync(String.self, arguments: "a") == "a")
    #expect(try await container.resolveAsync(Int.self, tag: "product", arguments: 3, 4) == 12)
    #expect(try await container.resolveAsync(Int.self, arguments: 3, 4) == 7)
    #expect(try await container.resolveAsync(Int.self, tag: "sum3", arguments: 1, 2, 3) == 6)
    // A synchronous argument binding under a tag, through the async form.
    #expect(try await container.resolveAsync(Double.self, tag: "half", arguments: 3.0) == 1.5)
  }

  @Test("Fallback to the untagged binding, refused with .exact; nil is untagged")
  func fallback() async throws {
    let container = try container()
    #expect(try await container.resolveAsync(String.self, tag: "other", arguments: "b") == "b")
    #expect(try await container.resolveAsync(Int.self, tag: "other", arguments: 1, 1) == 2)
    let exact = await #expect(throws: ResolutionError.self) {
      try await container.resolveAsync(String.self, tag: "other", matching: .exact, arguments: "b")
    }
    #expect(exact?.code == .missingBinding)
    let none: String? = nil
    #expect(try await container.resolveAsync(String.self, tag: none, arguments: "c") == "c")
    let loud: String? = "loud"
    #expect(try await container.resolveAsync(String.self, tag: loud, arguments: "c") == "C")
  }

  @Test("A tagged async argument binding resolved synchronously says to await it")
  func synchronousRequest() throws {
    let container = try container()
    let error = #expect(throws: ResolutionError.self) {
      try container.resolve(String.self, tag: "loud", arguments: "a")
    }
    #expect(error?.code == .asyncBinding)
    let fix =
      "Resolve it with `try await container.resolveAsync(String.self, tag: \"loud\", arguments: …)`"
    #expect(error?.debugDescription.contains(fix) == true, "\(error?.debugDescription ?? "")")
  }

  @Test("A child container serves its parent's tagged async argument binding")
  func child() async throws {
    let child = try container().makeChild { $0.bind(Bool.self, instance: true) }
    #expect(try await child.resolveAsync(Int.self, tag: "product", arguments: 2, 5) == 10)
  }

  @Test("Every receiver takes the tag: a scope and an async factory's resolver")
  func receivers() async throws {
    let container = try ContainerBuilder()
      .adding { registrar in
        registrar.bindAsync(String.self, tag: "loud") { (_, name: String) in name.uppercased() }
        registrar.bindAsync(Character.self) { resolver in
          try await resolver.resolveAsync(String.self, tag: "loud", arguments: "x").first!
        }
      }
      .build()
    let scope = container.makeScope()
    #expect(try await scope.resolveAsync(String.self, tag: "loud", arguments: "s") == "S")
    #expect(try await container.resolveAsync(Character.self) == "X")
  }
}

@Suite("verifyAsync creates async argument bindings from their samples")
struct VerifyAsyncArgumentsTests {
  @Test("Untagged and tagged async argument bindings with samples are verified, not skipped")
  func samples() async throws {
    let container = try ContainerBuilder()
      .adding { registrar in
        registrar.bindAsync(Thumbnail.self) { (_, url: String, size: Int) in
          Thumbnail(url: url, size: size, renderer: "metal")
        }
        registrar.bindAsync(String.self, tag: "loud") { (_, name: String) in name.uppercased() }
      }
      .build()
    var samples = SampleArguments()
    samples.add(Thumbnail.self, arguments: "a.png", 64)
    samples.add(String.self, tag: "loud", arguments: "x")
    let report = try await container.verifyAsync(arguments: samples)
    #expect(report.skipped.isEmpty)
    #expect(
      Set(report.verified)
        == [
          BindingKey(Thumbnail.self, argumentTypes: (String, Int).self),
          BindingKey(String.self, tag: "loud", argumentTypes: String.self),
        ])
    // The synchronous verify still skips them, as it does every async binding.
    let synchronous = try container.verify(arguments: samples)
    #expect(synchronous.skipped.count == 2)
  }

  @Test("A sample whose async factory throws is a failure with its key")
  func failure() async throws {
    struct Offline: Error {}
    let container = try ContainerBuilder()
      .adding { registrar in
        registrar.bindAsync(String.self, tag: "remote") { (_, id: Int) -> String in
          throw Offline()
        }
        registrar.bind(Int.self, instance: 1)
      }
      .build()
    var samples = SampleArguments()
    samples.add(String.self, tag: "remote", arguments: 7)
    let error = await #expect(throws: VerificationError.self) {
      try await container.verifyAsync(arguments: samples)
    }
    #expect(error?.failures.map(\.code) == [.factoryFailed])
    #expect(error?.failures.first?.requested.tag == "remote")
    #expect(error?.report.verified == [BindingKey(Int.self)])
  }
}
