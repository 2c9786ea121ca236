// swift-tools-version: 6.1
import PackageDescription

// Joinery in a Hummingbird 2 server: feature assemblies per route group, an async-created
// persistent pool, one scope per request, and shutdown after the HTTP server has drained.
// A package of its own so that the library keeps zero dependencies.
let package = Package(
  name: "ServerApp",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "Joinery", path: "../.."),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),
  ],
  targets: [
    .target(
      name: "ServerAppCore",
      dependencies: [
        .product(name: "Joinery", package: "Joinery"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .executableTarget(name: "ServerApp", dependencies: ["ServerAppCore"]),
    .testTarget(
      name: "ServerAppTests",
      dependencies: [
        "ServerAppCore",
        .product(name: "Joinery", package: "Joinery"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
