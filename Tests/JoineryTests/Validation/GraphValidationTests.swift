import Joinery
import Testing

private final class Alpha: Sendable { init(_ beta: Beta) {} }
private final class Beta: Sendable { init(_ gamma: Gamma) {} }
private final class Gamma: Sendable { init(_ alpha: Alpha) {} }
private final class Session: Sendable { init() {} }
private final class Account: Sendable { init(_ session: Session) {} }
private protocol Mailer: Sendable {}
private final class SMTPMailer: Mailer { init() {} }
private final class Notifier: Sendable { init(_ mailer: any Mailer, _ session: Session) {} }
private final class Clock: Sendable { init() {} }
private final class Scheduler: Sendable { init(_ clock: Clock) {} }

@Suite("Validation at build")
struct GraphValidationTests {
  @Test("A closure with typed parameters declares them: build() checks each, the graph draws them")
  func typedClosureIsChecked() throws {
    let broken = ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Clock.self) { Clock() }
        registrar.bind(Notifier.self) { (mailer: any Mailer, session: Session) in
          Notifier(mailer, session)
        }
      })
    let error = try #require(throws: BuildError.self) { try broken.build() }
    #expect(
      error.diagnostics.map(\.message) == [
        "Notifier depends on Mailer, which is not bound.",
        "Notifier depends on Session, which is not bound.",
      ])

    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind((any Mailer).self) { SMTPMailer() }
        registrar.bind(Session.self, lifetime: .persistent) { Session() }
        registrar.bind(Notifier.self) { (mailer: any Mailer, session: Session) in
          Notifier(mailer, session)
        }
        registrar.bind(Account.self, lifetime: .persistent) { (session: Session) in
          Account(session)
        }
      }
    ).build()
    _ = try container.resolve(Notifier.self)
    _ = try container.resolve(Account.self)
    let graph = container.graph
    #expect(graph.nodes.allSatisfy { $0.isChecked })
    #expect(graph.edges.filter { !$0.isObserved }.count == 3)
  }

  @Test("A missing dependency is reported with its binding, location and near misses")
  func missingDependency() throws {
    // Declared outside `#require`, whose expansion would move `#line` to its own line.
    let builder = ContainerBuilder(
      Bindings { registrar in
        registrar.bind(SMTPMailer.self, to: SMTPMailer.init)
        registrar.bind(Session.self, tag: "guest", to: Session.init)
        registrar.bind(Notifier.self, to: Notifier.init)
      })
    let error = try #require(throws: BuildError.self) { try builder.build() }
    #expect(error.diagnostics.map(\.code) == [.missingDependency, .missingDependency])
    let messages = error.diagnostics.map(\.message)
    #expect(
      messages == [
        "Notifier depends on Mailer, which is not bound.",
        "Notifier depends on Session, which is not bound.",
      ])
    let mailerFixes = error.diagnostics[0].fixes.joined(separator: "\n")
    #expect(mailerFixes.contains("SMTPMailer is bound"))
    let sessionFixes = error.diagnostics[1].fixes.joined(separator: "\n")
    #expect(sessionFixes.contains("Session is bound with tag \"guest\""))
    #expect(
      error.diagnostics[0].bindings.map { "\($0.registerType) at \($0.location)" } == [
        "Bindings at JoineryTests/GraphValidationTests.swift:59"
      ])
  }

  @Test("A cycle among declared edges is reported with its whole path")
  func declaredCycle() throws {
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(Alpha.self, lifetime: .persistent, to: Alpha.init)
          registrar.bind(Beta.self, to: Beta.init)
          registrar.bind(Gamma.self, to: Gamma.init)
        }
      ).build()
    }
    #expect(error.diagnostics.map(\.code) == [.dependencyCycle])
    #expect(error.diagnostics[0].message == "Dependency cycle: Alpha → Beta → Gamma → Alpha.")
    #expect(error.diagnostics[0].bindings.count == 3)
  }

  @Test("3 missing dependencies, 1 duplicate and 1 cycle fail with all 5, in a fixed order")
  func allFindingsAtOnce() throws {
    func builder(reversed: Bool) -> ContainerBuilder {
      let first = Bindings("first") { registrar in
        registrar.bind(Alpha.self, to: Alpha.init)
        registrar.bind(Beta.self, to: Beta.init)
        registrar.bind(Gamma.self, to: Gamma.init)
        registrar.bind(Notifier.self, to: Notifier.init)  // Mailer and Session missing
        registrar.bind(Scheduler.self, to: Scheduler.init)  // Clock missing
      }
      let second = Bindings("second") { registrar in
        registrar.bind(Alpha.self, to: Alpha.init)  // duplicate
      }
      return reversed ? ContainerBuilder(second, first) : ContainerBuilder(first, second)
    }
    let one = try #require(throws: BuildError.self) { try builder(reversed: false).build() }
    let two = try #require(throws: BuildError.self) { try builder(reversed: true).build() }
    #expect(one.diagnostics.filter(\.isError).count == 5)
    #expect(
      one.diagnostics.map(\.code) == [
        .duplicateBinding, .missingDependency, .missingDependency, .missingDependency,
        .dependencyCycle,
      ])
    #expect(one.debugDescription == two.debugDescription)
  }

  @Test("A persistent binding that depends on a cached one is a captive error unless acknowledged")
  func captive() throws {
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(Session.self, lifetime: .cached, to: Session.init)
          registrar.bind(Account.self, lifetime: .persistent, to: Account.init)
        }
      ).build()
    }
    #expect(error.diagnostics.map(\.code) == [.captiveDependency])
    #expect(
      error.diagnostics[0].message
        == "Account is persistent but depends on Session, which is cached: the persistent instance would keep one Session beyond its lifetime."
    )
    let acknowledged = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Session.self, lifetime: .cached, to: Session.init)
        registrar.bind(Account.self, lifetime: .persistent, to: Account.init)
        registrar.allowCaptive(
          Account.self, dependency: Session.self, because: "first session only")
      }
    ).buildOrRecord()
    #expect(acknowledged.warnings.isEmpty)
  }

  @Test(
    "A cached binding that depends on a transient one is a warning, readable from the container")
  func captiveWarning() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Session.self, lifetime: .transient, to: Session.init)
        registrar.bind(Account.self, lifetime: .cached, to: Account.init)
      }
    ).buildOrRecord()
    #expect(container.warnings.map(\.code) == [.captiveDependency])
    #expect(container.warnings.first?.isError == false)
  }

  @Test(
    "Keeping a shorter-kept container-wide instance is captive: persistent, cached, transient",
    arguments: [Lifetime.persistent, .cached, .transient])
  func captiveRanks(consumer: Lifetime) throws {
    let order = [Lifetime.persistent, .cached, .transient]
    for dependency in order {
      let builder = ContainerBuilder(
        Bindings { registrar in
          registrar.bind(Session.self, lifetime: .init(dependency), to: Session.init)
          registrar.bind(Account.self, lifetime: .init(consumer), to: Account.init)
        })
      let isCaptive = order.firstIndex(of: dependency)! > order.firstIndex(of: consumer)!
      let findings: [Diagnostic]
      do throws(BuildError) {
        findings = try builder.build().warnings
      } catch {
        findings = error.diagnostics
      }
      // An error (the build fails) only under a persistent consumer; a warning otherwise.
      #expect(findings.allSatisfy { $0.isError == (consumer == .persistent) })
      #expect(
        findings.map(\.code) == (isCaptive ? [.captiveDependency] : []),
        "\(consumer) over \(dependency)")
    }
  }

  @Test("Exact tags, when required, reject a dependency only the fallback serves")
  func exactTags() throws {
    let registers = Bindings { registrar in
      registrar.bind(Clock.self, to: Clock.init)
      registrar.bind(Scheduler.self, to: Scheduler.init, dependencies: .tagged("utc"))
    }
    #expect(throws: Never.self) { try ContainerBuilder(registers).build() }
    var strict = ContainerBuilder(registers)
    strict.requiresExactTags = true
    let error = try #require(throws: BuildError.self) { try strict.build() }
    #expect(error.diagnostics.map(\.code) == [.missingDependency])
    #expect(error.diagnostics.first?.message.contains("exact tags are required") == true)
  }

  @Test("A closure factory that declares nothing is unchecked; one that declares is checked")
  func uncheckedClosures() throws {
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(Scheduler.self) { resolver in Scheduler(try resolver.resolve()) }
          registrar.bind(Account.self, dependsOn: [BindingKey(Session.self)]) { resolver in
            Account(try resolver.resolve())
          }
        }
      ).build()
    }
    #expect(error.diagnostics.map(\.message) == ["Account depends on Session, which is not bound."])
  }

  @Test("Thousands of acyclic bindings validate clean; one injected cycle is reported alone")
  func generatedGraph() throws {
    let count = 3_000
    func graph(cycle: Bool) -> Bindings {
      Bindings("generated \(cycle)") { registrar in
        for node in 0..<count {
          var edges = [2 * node + 1, 2 * node + 2].filter { $0 < count }
          if cycle && node == 7 { edges.append(1) }
          registrar.bind(
            Int.self, tag: node,
            dependsOn: edges.map { BindingKey(Int.self, tag: BindingTag($0)) }
          ) { _ in node }
        }
      }
    }
    let clean = try ContainerBuilder(graph(cycle: false)).buildOrRecord()
    #expect(clean.warnings.isEmpty)
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(graph(cycle: true)).build()
    }
    #expect(
      error.diagnostics.map(\.message) == [
        "Dependency cycle: Int (tag 1) → Int (tag 3) → Int (tag 7) → Int (tag 1)."
      ])
  }
}
