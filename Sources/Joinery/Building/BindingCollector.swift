/// Collects the bindings of every register during one `build()`.
final class BindingCollector {
  private(set) var bindings: [AnyBinding] = []
  /// Declared property injections, by type.
  var injectors: [PropertyInjector] = []
  /// Captive dependencies declared intended, with the reason given.
  var allowedCaptives: [CaptiveKey: String] = [:]
  /// Steps to run after an instance is made (`initCompleted`), by key, in declaration order.
  var completions: [(key: BindingKey, location: BindingLocation, completion: Completion)] = []
  private var seen: Set<RegisterIdentity> = []
  /// One box per distinct tag in the build: matching a declared dependency's tag against a
  /// binding's is then an identity check.
  private var tags: [BindingTag: BindingTag] = [:]

  /// The build's shared box for `tag`.
  func intern(_ tag: BindingTag) -> BindingTag {
    if let existing = tags[tag] { return existing }
    tags[tag] = tag
    return tag
  }

  /// Runs `register` and, through it, its includes; a register already seen is skipped.
  ///
  /// `defaultLifetime` is the includer's (or the builder's); the register's own wins.
  func collect(
    _ register: some DependencyRegister, overriding: Bool, defaultLifetime: Lifetime
  ) {
    guard seen.insert(RegisterIdentity(register)).inserted else { return }
    var registrar = Registrar(
      collector: self, registerType: type(of: register), isOverriding: overriding,
      defaultLifetime: register.defaultLifetime?.lifetime ?? defaultLifetime)
    register.register(in: &registrar)
  }

  /// Contributions to multi-bindings, in collection order (assembly, then registration).
  private(set) var contributions: [AnyBinding] = []

  func add(_ binding: AnyBinding) {
    bindings.append(binding)
  }

  func contribute(_ binding: AnyBinding) {
    binding.contributionIndex = contributions.count
    contributions.append(binding)
  }
}

/// A consumer binding and one dependency it declares.
struct CaptiveKey: Hashable {
  let consumer: BindingKey
  let dependency: BindingKey
}
