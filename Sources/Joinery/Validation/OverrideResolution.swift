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

  /// In a child container (`parent`), an override of a key an ancestor binds replaces that
  /// binding for the child: it has a target.
  static func winners(
    of bindings: [AnyBinding], parent: Container? = nil, findings: inout [Diagnostic]
  ) -> [AnyBinding] {
    var winners: [AnyBinding] = []
    winners.reserveCapacity(bindings.count)
    let groups = TypeGroups(bindings)
    for start in groups.starts {
      if groups.isAlone(start) {
        alone(bindings[start], parent: parent, into: &winners, findings: &findings)
        continue
      }
      let members = groups.members(from: start)
      for sameKey in sameKeyGroups(members.map { bindings[$0] }) {
        if sameKey.count == 1 {
          alone(sameKey[0], parent: parent, into: &winners, findings: &findings)
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
    _ only: AnyBinding, parent: Container?, into winners: inout [AnyBinding],
    findings: inout [Diagnostic]
  ) {
    if only.isOverride, parent?.binds(only.key) != true {
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
