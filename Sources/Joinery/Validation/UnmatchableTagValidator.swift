/// A tag that does not equal itself — `Double.nan`, or a type whose `==` says so — could never
/// be matched by a request, and two such bindings would not even count as duplicates: an error.
struct UnmatchableTagValidator: BuildValidator {
  func validate(_ graph: DeclaredGraph, into findings: inout [Diagnostic]) {
    for binding in graph.bindings {
      guard let tag = binding.key.tag, !tag.box.isReflexive else { continue }
      findings.append(
        Diagnostic(
          .unmatchableTag, .error, key: binding.key, bindings: [binding.info],
          message: """
            \(binding.key) is tagged with \(tag), which does not equal itself: no request can \
            ever match it.
            """,
          fixes: [
            "Use a tag whose == is reflexive: a string, an enum case, a struct of such values.",
            "For a number that may be NaN, tag with its description or a rounded value instead.",
          ]))
    }
  }
}
