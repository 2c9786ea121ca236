internal import JoineryEngine

/// Decides which binding wins for each key, whatever order the registers were added in:
/// an override beats the regular binding; two regular bindings, or two overrides, of one key are
/// a duplicate.
///
/// Reports duplicates and overrides that replace nothing.
enum OverrideResolution {
  /// The contributions that stay: for each type and tag with an overriding contribution, only
  /// the overriding ones (a test's plugins replace production's), else all of them; in
  /// contribution order either way.
  static func keptContributions(_ contributions: [AnyBinding]) -> [AnyBinding] {
    let overridden = Set(contributions.lazy.filter(\.isOverride).map(\.key))
    guard !overridden.isEmpty else { return contributions }
    return contributions.filter { $0.isOverride || !overridden.contains($0.key) }
  }

  /// The winners of a build whose assemblies may keep bindings private: each module's private
  /// bindings are resolved among themselves (two modules may each keep one of a key), the
  /// others as usual; an override made in ``Registrar/overriding(_:_:)`` of a key its assembly
  /// keeps private replaces that private binding.
  ///
  /// A key bound privately by one module and for everyone elsewhere (or by an ancestor) is a
  /// duplicate: inside that module, a request could not tell which one it means.
  ///
  /// `hasPrivate` and `hasTargetedOverride` say whether any binding is private or an override
  /// of ``Registrar/overriding(_:_:)`` (the collector knows): without either, this is
  /// ``winners(of:parent:findings:privatelyBound:)``.
  static func winners(
    withModules bindings: [AnyBinding], hasPrivate: Bool, hasTargetedOverride: Bool,
    parent: Container?, findings: inout [Diagnostic]
  ) -> [AnyBinding] {
    guard hasPrivate || hasTargetedOverride else {
      return winners(of: bindings, parent: parent, findings: &findings)
    }
    if hasTargetedOverride { joinTargetedOverrides(bindings) }
    // Each module's private bindings, in first-seen module order; the others, shared.
    var byModule: [ObjectIdentifier: [AnyBinding]] = [:]
    var order: [ObjectIdentifier] = []
    var shared: [AnyBinding] = []
    shared.reserveCapacity(bindings.count)
    for binding in bindings {
      guard binding.isPrivate, let module = binding.module else {
        if binding.isPrivate {
          findings.append(privateOutsideAssembly(binding))
          binding.isPrivate = false
        }
        shared.append(binding)
        continue
      }
      let id = ObjectIdentifier(module)
      if byModule[id] == nil { order.append(id) }
      byModule[id, default: []].append(binding)
    }
    // A shared override of a key only some module keeps is reported with that binding (a
    // duplicate), not as replacing nothing.
    let privatelyBound =
      shared.contains(where: \.isOverride)
      ? Set(byModule.values.joined().lazy.filter { !$0.isOverride }.map(\.key)) : []
    var winners = winners(
      of: shared, parent: parent, findings: &findings, privatelyBound: privatelyBound)
    for id in order {
      winners += Self.winners(of: byModule[id]!, parent: nil, findings: &findings)
    }
    return winners
  }

  /// Moves each override declared in ``Registrar/overriding(_:_:)`` into the module of the
  /// assembly it names when that assembly keeps its key private; it replaces a shared binding
  /// otherwise.
  private static func joinTargetedOverrides(_ bindings: [AnyBinding]) {
    var privateKeys: [ObjectIdentifier: Set<BindingKey>] = [:]
    var modules: [ObjectIdentifier: [Module]] = [:]
    for binding in bindings where binding.isPrivate && !binding.isOverride {
      guard let module = binding.module else { continue }
      let type = ObjectIdentifier(module.type)
      if privateKeys[ObjectIdentifier(module)]?.insert(binding.key) == nil {
        privateKeys[ObjectIdentifier(module)] = [binding.key]
        modules[type, default: []].append(module)
      }
    }
    for binding in bindings where binding.isOverride {
      guard let target = binding.overrideTarget else { continue }
      let module = modules[ObjectIdentifier(target)]?.first {
        privateKeys[ObjectIdentifier($0)]?.contains(binding.key) == true
      }
      binding.isPrivate = module != nil
      if let module { binding.module = module }
    }
  }

  /// The findings for keys a module keeps private that another register binds for everyone
  /// (`table`, the shared winners) or an ancestor binds.
  static func conflicts(
    of privateWinners: [AnyBinding], table: _BindingTable, parent: Container?
  ) -> [Diagnostic] {
    privateWinners.compactMap { winner in
      if let other = table.binding(for: winner.key) { return privateAndShared(winner, other) }
      return parent?.binds(winner.key) == true ? privateAndInherited(winner) : nil
    }
  }

  /// In a child container (`parent`), an override of a key an ancestor binds replaces that
  /// binding for the child: it has a target.
  ///
  /// `privatelyBound`: keys some module keeps private, whose override here is reported as a
  /// duplicate of that binding rather than as replacing nothing.
  static func winners(
    of bindings: [AnyBinding], parent: Container? = nil, findings: inout [Diagnostic],
    privatelyBound: Set<BindingKey> = []
  ) -> [AnyBinding] {
    var winners: [AnyBinding] = []
    winners.reserveCapacity(bindings.count)
    let groups = _TypeGroups(count: bindings.count) { UInt(bitPattern: bindings[$0].tableType) }
    for start in groups.starts {
      if groups.isAlone(start) {
        alone(
          bindings[start], parent: parent, privatelyBound: privatelyBound, into: &winners,
          findings: &findings)
        continue
      }
      let members = groups.members(from: start)
      for sameKey in sameKeyGroups(members.map { bindings[$0] }) {
        if sameKey.count == 1 {
          alone(
            sameKey[0], parent: parent, privatelyBound: privatelyBound, into: &winners,
            findings: &findings)
        } else {
          resolve(sameKey, parent: parent, into: &winners, findings: &findings)
        }
      }
    }
    return winners
  }

  /// The only binding of its key wins; as an override, it replaces nothing unless an ancestor
  /// binds the key.
  private static func alone(
    _ only: AnyBinding, parent: Container?, privatelyBound: Set<BindingKey>,
    into winners: inout [AnyBinding], findings: inout [Diagnostic]
  ) {
    if only.isOverride, parent?.binds(only.key) != true,
      privatelyBound.isEmpty || !privatelyBound.contains(only.key)
    {
      findings.append(overrideWithoutTarget(only))
    }
    winners.append(only)
  }

  /// The bindings of one type split by key, in first-seen order.
  ///
  /// Few bindings compare pairwise; many (a type with hundreds of tags) go through a dictionary.
  private static func sameKeyGroups(_ bindings: [AnyBinding]) -> [[AnyBinding]] {
    var groups: [[AnyBinding]] = []
    if bindings.count <= 16 {
      for binding in bindings {
        if let index = groups.firstIndex(where: { $0[0].key == binding.key }) {
          groups[index].append(binding)
        } else {
          groups.append([binding])
        }
      }
      return groups
    }
    var positions: [BindingKey: Int] = [:]
    positions.reserveCapacity(bindings.count)
    for binding in bindings {
      // One hash lookup for a new key; a duplicate (rare) puts its group's position back.
      if let index = positions.updateValue(groups.count, forKey: binding.key) {
        positions[binding.key] = index
        groups[index].append(binding)
      } else {
        groups.append([binding])
      }
    }
    return groups
  }

  /// Picks the binding that stands for one key and reports duplicates.
  private static func resolve(
    _ sameKey: [AnyBinding], parent: Container?, into winners: inout [AnyBinding],
    findings: inout [Diagnostic]
  ) {
    let key = sameKey[0].key
    let regular = sameKey.filter { !$0.isOverride }
    let overrides = sameKey.filter(\.isOverride)
    if regular.count > 1 {
      findings.append(duplicate(key: key, regular, areOverrides: false))
    }
    if overrides.count > 1 {
      findings.append(duplicate(key: key, overrides, areOverrides: true))
    }
    // Among duplicates the earliest declaration (file, then line) stands in for the key in
    // later findings, so the report does not depend on the order registers were added in.
    let earliest = { (bindings: [AnyBinding]) in
      bindings.count == 1 ? bindings[0] : bindings.min { $0.location.isBefore($1.location) }!
    }
    if !overrides.isEmpty {
      let override = earliest(overrides)
      if regular.isEmpty, parent?.binds(key) != true {
        findings.append(overrideWithoutTarget(override))
      }
      winners.append(override)
    } else {
      winners.append(earliest(regular))
    }
  }

  /// A key one module binds privately and another register binds for everyone.
  private static func privateAndShared(
    _ privateBinding: AnyBinding, _ shared: AnyBinding
  ) -> Diagnostic {
    let module = privateBinding.module?.name ?? "its assembly"
    let key = privateBinding.key
    var fixes: [String] = []
    if shared.isOverride {
      fixes.append(
        "To replace \(module)'s private \(key.shortName) (a test of its internals), declare the "
          + "override inside `registrar.overriding(\(module).self) { registrar in … }`.")
    }
    fixes += [
      "Or give one of them a tag, or remove one.",
      "Or drop `private: true` from \(module)'s binding, so that one binding serves everyone.",
    ]
    return Diagnostic(
      .duplicateBinding, .error, key: key, bindings: [privateBinding.info, shared.info],
      message: """
        \(key) is bound privately by \(module) at \(privateBinding.location), and for \
        everyone by \(shared.info.registerName) at \(shared.location): inside \(module) a \
        request could not tell which one it means.
        """,
      fixes: fixes)
  }

  /// A binding declared `private: true` by a register no assembly includes.
  static func privateOutsideAssembly(_ binding: AnyBinding) -> Diagnostic {
    let register = binding.info.registerName
    return Diagnostic(
      .invalidSetting, .error, key: binding.key, bindings: [binding.info],
      message: """
        \(binding.key) is declared `private: true` by \(register), which is not inside any \
        Assembly: there is no boundary to keep it in.
        """,
      fixes: [
        "Make \(register) an Assembly (`struct \(register): Assembly`), or include it from "
          + "the assembly that should own the binding.",
        "Or drop `private: true`.",
      ])
  }

  /// A key a child container's module binds privately that an ancestor binds for everyone.
  private static func privateAndInherited(_ privateBinding: AnyBinding) -> Diagnostic {
    let module = privateBinding.module?.name ?? "its assembly"
    let key = privateBinding.key
    return Diagnostic(
      .duplicateBinding, .error, key: key, bindings: [privateBinding.info],
      message: """
        \(key) is bound privately by \(module) at \(privateBinding.location), and the parent \
        container binds it for everyone: inside \(module) a request could not tell which one \
        it means.
        """,
      fixes: [
        "Give \(module)'s binding a tag, or drop `private: true` and declare it with "
          + "`override: true` to replace the parent's in this container."
      ])
  }

  private static func overrideWithoutTarget(_ override: AnyBinding) -> Diagnostic {
    Diagnostic(
      .overrideWithoutTarget, .warning, key: override.key, bindings: [override.info],
      message: "The override of \(override.key) replaces nothing: no other register binds it.",
      fixes: [
        "Check the type and tag against the production binding.",
        "Or drop `override: true` if this is a new binding.",
      ])
  }

  /// The likely cause when every binding comes from one place: one register type added or
  /// included twice with different values, so both ran.
  private static func repeatedRegister(named: [String], _ infos: [BindingInfo]) -> [String] {
    guard named.count == 1, let register = infos.first?.registerName else { return [] }
    return [
      "If \(register) was added or included more than once: a register reached twice runs once "
        + "only when the two are equal (by == when it is Hashable, else by what they hold, as "
        + "dump prints it). Include one instance, or make \(register) Hashable with the "
        + "equality you mean."
    ]
  }

  private static func duplicate(
    key: BindingKey, _ bindings: [AnyBinding], areOverrides: Bool
  ) -> Diagnostic {
    let infos = bindings.map(\.info).sorted { $0.location.isBefore($1.location) }
    // One place declaring several (a loop, a helper called twice) is named once, with a count.
    let named = Diagnostic.runs(of: infos.map { "\($0.registerName) at \($0.location)" }).map {
      $0.count == 1 ? $0.text : "\($0.text) (\($0.count) times)"
    }
    let what = areOverrides ? "overridden" : "bound"
    return Diagnostic(
      .duplicateBinding, .error, key: key, bindings: infos,
      message: "\(key) is \(what) \(infos.count) times: \(named.joined(separator: " and ")).",
      fixes: areOverrides
        ? ["Keep one override of \(key); two overrides of one key are ambiguous."]
        : repeatedRegister(named: named, infos)
          + [
            "Remove all but one binding of \(key).",
            "Or, to replace it on purpose (a test or a variant), declare the replacement with "
              + "`override: true` or add its register with `builder.overriding(with:)`.",
            "Or give them different tags.",
          ])
  }
}
