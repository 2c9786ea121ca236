import Joinery
import Testing

private protocol Clock: Sendable {}
private final class SystemClock: Clock {}
private final class Scheduler: Sendable {
  let clock: any Clock
  init(clock: any Clock) { self.clock = clock }
}

@Suite("Requiring checked bindings")
struct CheckedBindingTests {
  static func builder(_ body: @escaping @Sendable (inout Registrar) -> Void) -> ContainerBuilder {
    var builder = ContainerBuilder().adding(body)
    builder.requiresCheckedBindings = true
    return builder
  }

  @Test("Initializers, instances, forwards and closures with dependsOn: pass")
  func checkedFormsPass() throws {
    let container = try Self.builder { registrar in
      registrar.bind(SystemClock.self, lifetime: .persistent, to: SystemClock.init)
      registrar.bind((any Clock).self, forwardingTo: SystemClock.self)
      registrar.bind(Scheduler.self, dependsOn: [BindingKey((any Clock).self)]) { resolver in
        Scheduler(clock: try resolver.resolve())
      }
      registrar.bind(Int.self, instance: 3)
      registrar.bind(String.self, dependsOn: []) { _ in "nothing to resolve" }
    }.build()
    #expect(try container.resolve(Scheduler.self).clock is SystemClock)
    #expect(container.bindings.allSatisfy { $0.isChecked })
  }

  @Test("A closure that declares nothing fails the build, naming it and the fix")
  func uncheckedClosureFails() throws {
    let error = #expect(throws: BuildError.self) {
      try Self.builder { registrar in
        registrar.bind(SystemClock.self, lifetime: .persistent, to: SystemClock.init)
        registrar.bind(Scheduler.self) { resolver in
          Scheduler(clock: try resolver.resolve(SystemClock.self))
        }
      }.build()
    }
    let finding = try #require(error?.diagnostics.first)
    #expect(error?.diagnostics.count == 1)
    #expect(finding.code == .uncheckedBinding)
    #expect(finding.message.contains("Scheduler"))
    #expect(finding.fixes.contains { $0.contains("bind(Scheduler.self, to: Scheduler.init)") })
  }

  @Test("Without the setting, the same closure builds, and its BindingInfo says it is unchecked")
  func offByDefault() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Scheduler.self) { _ in Scheduler(clock: SystemClock()) }
        registrar.bind(SystemClock.self, to: SystemClock.init)
      }
    ).build()
    let checked = Dictionary(
      uniqueKeysWithValues: container.bindings.map { ("\($0.key)", $0.isChecked) })
    #expect(checked == ["Scheduler": false, "SystemClock": true])
  }
}
