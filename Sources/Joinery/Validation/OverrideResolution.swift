/// Decides which binding wins for each key, whatever order the registers were added in:
/// an override beats the regular binding; two regular bindings, or two overrides, of one key are
/// a duplicate. Reports duplicates and overrides that replace nothing.
enum OverrideResolution {
  static func winners(
    of bindings: [AnyBinding], findings: inout [Diagnostic]
  ) -> [AnyBinding] {
    var byKey: [BindingKey: (regular: [AnyBinding], overrides: [AnyBinding])] = [:]
    var order: [BindingKey] = []
    for binding in bindings {
      if byKey[binding.key] == nil { order.append(binding.key) }
      if binding.isOverride {
        byKey[binding.key, default: ([], [])].overrides.append(binding)
      } else {
        byKey[binding.key, default: ([], [])].regular.append(binding)
      }
    }
    var winners: [AnyBinding] = []
    winners.reserveCapacity(order.count)
    for key in order {
      guard let (regular, overrides) = byKey[key] else { continue }
      if regular.count > 1 {
        findings.append(duplicate(.duplicateBinding, key: key, regular))
      }
      if overrides.count > 1 {
        findings.append(duplicate(.duplicateOverride, key: key, overrides))
      }
      // Among duplicates the earliest declaration (file, then line) stands in for the key in
      // later findings, so the report does not depend on the order registers were added in.
      if let override = overrides.min(by: { $0.location < $1.location }) {
        if regular.isEmpty {
          findings.append(
            Diagnostic(
              .overrideWithoutTarget, .warning, key: key, bindings: [override.info],
              message: "The override of \(key) replaces nothing: no other register binds it.",
              fixes: [
                "Check the type and tag against the production binding.",
                "Or drop `override: true` if this is a new binding.",
              ]))
        }
        winners.append(override)
      } else if let first = regular.count == 1
        ? regular.first : regular.min(by: { $0.location < $1.location })
      {
        winners.append(first)
      }
    }
    return winners
  }

  private static func duplicate(
    _ code: Diagnostic.Code, key: BindingKey, _ bindings: [AnyBinding]
  ) -> Diagnostic {
    let infos = bindings.map(\.info).sorted { $0.location < $1.location }
    let places = infos.map { "\($0.assembly) at \($0.location)" }
    let what = code == .duplicateOverride ? "overridden" : "bound"
    return Diagnostic(
      code, .error, key: key, bindings: infos,
      message: "\(key) is \(what) \(infos.count) times: \(places.joined(separator: " and ")).",
      fixes: code == .duplicateOverride
        ? ["Keep one override of \(key); two overrides of one key are ambiguous."]
        : [
          "Remove all but one binding of \(key).",
          "Or, to replace it on purpose (a test or a variant), declare the replacement with "
            + "`override: true` or add its register with `builder.override(with:)`.",
          "Or give them different tags.",
        ])
  }
}
