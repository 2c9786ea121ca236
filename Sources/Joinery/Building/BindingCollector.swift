/// Collects the bindings of every register during one `build()`.
final class BindingCollector {
  private(set) var bindings: [AnyBinding] = []
  /// The index the first contribution gets: a child container's continue its ancestors', so
  /// that a contribution has one index in the whole chain.
  private let firstContributionIndex: Int

  init(firstContributionIndex: Int = 0) {
    self.firstContributionIndex = firstContributionIndex
  }
  /// Whether a binding (not a contribution) was declared `private: true`.
  var hasPrivate = false
  /// Whether a binding was declared in ``Registrar/overriding(_:_:)``.
  var hasTargetedOverride = false
  /// Captive dependencies declared intended, with the reason given.
  var allowedCaptives: [CaptiveKey: String] = [:]
  /// Steps to run after an instance is made (`initCompleted`), by key, in declaration order.
  var completions: [(key: BindingKey, location: BindingLocation, completion: Completion)] = []
  /// The registers run so far, with the default lifetime each was reached with and by whom.
  private var seen: [RegisterIdentity: (inherited: Lifetime, includer: Any.Type?)] = [:]
  /// The first register of each type that is not `Hashable`, until a second one of its type
  /// arrives.
  private var firstUnhashable: [ObjectIdentifier: any DependencyRegister] = [:]
  /// The types that are not `Hashable` whose registers are told apart by their fingerprint:
  /// those a second register of arrived.
  private var comparedByValue: Set<ObjectIdentifier> = []
  /// Findings made while collecting: a register whose default depends on who reached it first.
  private(set) var findings: [Diagnostic] = []
  /// Keeps a finding a declaration made (a form used with parts that do not fit).
  func report(_ finding: Diagnostic) { findings.append(finding) }
  /// One box per distinct tag in the build: matching a declared dependency's tag against a
  /// binding's is then an identity check.
  private var tags: Set<BindingTag> = []

  /// The build's shared box for `tag`: one hash lookup, which inserts it or finds its twin.
  func intern(_ tag: BindingTag) -> BindingTag {
    tags.insert(tag).memberAfterInsert
  }

  /// Runs `register` and, through it, its includes; a register already seen is skipped.
  ///
  /// `defaultLifetime` is the includer's (or the builder's); the register's own wins. A
  /// register without its own default, reached twice with different defaults, is an error:
  /// its bindings' lifetimes would depend on the order registers were added.
  func collect(
    _ register: some DependencyRegister, overriding: Bool, defaultLifetime: Lifetime,
    includer: Any.Type? = nil, module: Module? = nil
  ) {
    // An array of registers stands for the registers it holds: it has no identity of its own,
    // and is nobody's includer.
    if let group = register as? [any DependencyRegister] {
      for member in group {
        collect(
          member, overriding: overriding, defaultLifetime: defaultLifetime, includer: includer,
          module: module)
      }
      return
    }
    let identity = identity(of: register)
    if let first = seen[identity] {
      if register.defaultLifetime?.explicit == nil, first.inherited != defaultLifetime {
        findings.append(conflictingDefaults(register, first, (defaultLifetime, includer)))
      }
      return
    }
    seen[identity] = (defaultLifetime, includer)
    // An assembly is a module of its own; a plain register joins its includer's.
    let own = register is any Assembly ? Module(type(of: register)) : module
    if let own, own !== module { modules.append(own) }
    var registrar = Registrar(
      collector: self, registerType: type(of: register), isOverriding: overriding,
      defaultLifetime: register.defaultLifetime?.explicit ?? defaultLifetime, module: own)
    register.register(in: &registrar)
    registrar.flush()
  }

  /// `register`'s identity: by type and value, the value of a type that is not `Hashable`
  /// being what it holds, looked at only from the second register of that type on.
  private func identity(of register: some DependencyRegister) -> RegisterIdentity {
    let identity = RegisterIdentity(register)
    guard identity.value == nil else { return identity }
    if comparedByValue.contains(identity.type) { return identity.fingerprinted(register) }
    guard let first = firstUnhashable.removeValue(forKey: identity.type) else {
      firstUnhashable[identity.type] = register
      return identity
    }
    // The second of its type: the first is re-filed under what it holds.
    comparedByValue.insert(identity.type)
    seen[identity.fingerprinted(first)] = seen.removeValue(forKey: identity)
    return identity.fingerprinted(register)
  }

  private func conflictingDefaults(
    _ register: some DependencyRegister, _ first: (inherited: Lifetime, includer: Any.Type?),
    _ second: (inherited: Lifetime, includer: Any.Type?)
  ) -> Diagnostic {
    let name = TypeName.of(type(of: register))
    func reached(_ via: (inherited: Lifetime, includer: Any.Type?)) -> String {
      "\(via.includer.map { "by \(TypeName.of($0))" } ?? "by the builder") with \(via.inherited)"
    }
    return Diagnostic(
      .conflictingDefaultLifetime, .error, key: BindingKey(type(of: register)), bindings: [],
      message: """
        \(name) sets no default lifetime and is included twice with different ones: \
        \(reached(first)), and \(reached(second)). It registers once, so the lifetime of its \
        bindings that name none would depend on the order registers were added.
        """,
      fixes: [
        "Give \(name) its own default: var defaultLifetime: Lifetime.For<Any>? { .ephemeral } "
          + "(or .graph).",
        "Or write the lifetime on each of its bindings that names none.",
      ])
  }

  /// The assemblies reached, in collection order.
  private(set) var modules: [Module] = []
  /// What the registers declared they expect other modules to bind, in declaration order.
  var requirements: [Requirement] = []

  /// Contributions to multi-bindings, in collection order (assembly, then registration).
  private(set) var contributions: [AnyBinding] = []

  func add(contentsOf declared: [AnyBinding]) {
    bindings.append(contentsOf: declared)
  }

  func contribute(_ binding: AnyBinding) {
    binding.contributionIndex = firstContributionIndex + contributions.count
    contributions.append(binding)
  }
}

/// A consumer binding and one dependency it declares.
struct CaptiveKey: Hashable {
  let consumer: BindingKey
  let dependency: BindingKey
}
