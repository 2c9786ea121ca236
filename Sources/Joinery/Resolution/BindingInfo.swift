/// A read-only description of one binding: its key, lifetime, and where it was declared.
///
/// Errors, diagnostics and ``Container/bindings`` describe bindings with it.
///
/// ```swift
/// for binding in container.bindings {
///   print(binding)  // "FeedService [persistent] — FeedAssembly at Feed/FeedAssembly.swift:9"
/// }
/// ```
public struct BindingInfo: Sendable, CustomStringConvertible {
  /// The key the binding is stored under.
  public let key: BindingKey
  /// Its lifetime.
  ///
  /// A forwarding binding reports its target's lifetime.
  public let lifetime: Lifetime
  /// Where it was declared.
  public let location: BindingLocation
  /// The type of the register (assembly) that declared it.
  public let registerType: Any.Type
  /// Whether it was declared as an override.
  public let isOverride: Bool
  /// For a binding that forwards to another binding's instance, that binding's key.
  public let forwardedTo: BindingKey?
  /// The metadata the binding was declared with, if any.
  public let metadata: (any Sendable)?
  /// For a contribution to a multi-binding, its place among the contributions (assembly order,
  /// then registration order, as `resolveAll` returns them); `nil` for an ordinary binding.
  let contribution: Int?
  /// Whether `build()` checks what it depends on: it declares its dependencies (autowired,
  /// `dependsOn`, a forward or an instance); an unchecked closure factory declares none, and
  /// graph exports mark it.
  public let isChecked: Bool
  /// The ``Assembly`` whose boundary it is declared in: the assembly that declared it, or that
  /// includes the plain register that did; `nil` outside any assembly.
  ///
  /// ```swift
  /// let feed = container.bindings.filter { $0.assembly == FeedAssembly.self }
  /// ```
  public let assembly: Any.Type?
  /// Whether only the bindings of its ``assembly`` may depend on it (declared `private: true`).
  public let isPrivate: Bool

  /// The name of the register (assembly) that declared it.
  var registerName: String { TypeName.of(registerType) }

  /// A one-line, human-readable description.
  public var description: String {
    var text = "\(key) [\(lifetime)]"
    if let forwardedTo { text += " → \(forwardedTo)" }
    if let contribution { text += " (contribution \(contribution))" }
    if isOverride { text += " (override)" }
    if isPrivate, let assembly { text += " (private to \(TypeName.of(assembly)))" }
    return text + " — \(registerName) at \(location)"
  }
}
