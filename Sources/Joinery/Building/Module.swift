internal import JoineryEngine

/// One ``Assembly`` reached by a build: the boundary around its bindings and those of the plain
/// registers it includes.
///
/// A binding declared `private: true` is seen only by the bindings of its module; a requirement
/// (``Registrar/require(_:tag:fileID:line:)``) is what the module expects another one to bind.
/// A register that is not an `Assembly` has no boundary of its own: its bindings join the module
/// of the assembly that includes it (or none, added to the builder directly).
@usableFromInline
final class Module: Sendable {
  /// The assembly's type.
  let type: Any.Type

  init(_ type: Any.Type) { self.type = type }

  /// The assembly's name, as diagnostics print it.
  var name: String { TypeName.of(type) }
}

/// What a module expects another one to bind: a key, with where it was declared.
struct Requirement: Sendable {
  /// The module that declared it; `nil` for a register outside any assembly.
  let module: Module?
  let key: BindingKey
  let location: BindingLocation
  /// The register that declared it.
  let registerType: Any.Type
  /// The layout of the required type, for the stand-in of a module checked alone.
  let layout: _ValueLayout

  /// Who declared it, as diagnostics print it.
  var owner: String { module?.name ?? "the app" }

  /// The requirement as diagnostics and graphs describe it: a binding-like entry at its
  /// declaration.
  var info: BindingInfo {
    BindingInfo(
      key: key, lifetime: .persistent, location: location, registerType: registerType,
      isOverride: false, forwardedTo: nil, metadata: nil, contribution: nil, isChecked: true,
      assembly: module?.type, isPrivate: false)
  }

  /// What stands for the binding another module would provide, when its module is checked
  /// alone (``Assembly/validate()``): persistent, so that no consumer is its captor, with no
  /// dependencies; it is never resolved.
  var standIn: AnyBinding {
    let binding = AnyBinding(
      key: key, lifetime: .persistent, location: location, registerType: registerType,
      isOverride: false, layout: layout, maker: { _, _, _ in throw RequirementStandIn() })
    binding.dependencies = []
    return binding
  }
}

/// What a requirement's stand-in throws if it is ever made.
struct RequirementStandIn: Error {}
