// swift-tools-version: 6.2
import PackageDescription

// A client built the way a Swift 6.2 app target often is: every declaration main-actor
// isolated by default. It proves that such a module can write assemblies and resolve.
// A package of its own, as an app is: `defaultIsolation` applies to the whole target, and the
// library's own targets must not be built that way.
let package = Package(
  name: "MainActorClient",
  platforms: [.macOS(.v10_15), .iOS(.v13)],
  dependencies: [.package(name: "Joinery", path: "../..")],
  targets: [
    .executableTarget(
      name: "MainActorClient",
      dependencies: [.product(name: "Joinery", package: "Joinery")],
      swiftSettings: [.defaultIsolation(MainActor.self)]
    )
  ],
  swiftLanguageModes: [.v6]
)
