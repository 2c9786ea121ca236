import Joinery
import Testing

private protocol Animal: Sendable {}
private final class Cat: Animal {
  let name: String
  init(name: String) { self.name = name }
}

@Suite("Forwarding to a binding with runtime arguments")
struct ForwardingArgumentsTests {
  @Test("build() says the target takes runtime arguments, instead of 'nothing is bound'")
  func truthfulMessage() throws {
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(Cat.self) { (_, name: String) in Cat(name: name) }
          registrar.bind((any Animal).self, forwardingTo: Cat.self)
        }
      ).build()
    }
    let message = try #require(error?.diagnostics.first?.message)
    #expect(!message.contains("nothing is bound"))
    #expect(message.contains("runtime arguments"), "\(message)")
    #expect(message.contains("String"), "\(message)")
  }
}
